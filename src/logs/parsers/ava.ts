/**
 * AVA's default reporter (AVA 4 and later, verbose wherever output is not a terminal, as in CI): a listing of
 * `✔ title` / `✖ title` / `- title` lines (`file › title` when several files ran), a `─` rule, one detail block per
 * failed test (its title, then `test.js:5`, the code, `Difference:`), and counts such as `2 tests failed` /
 * `7 tests passed`. The listing is trusted only once those counts appear (node --test's spec reporter prints the
 * same marks); each `✖` entry is a failure named by its title, placed by its block. (hold3 camelcase: before, an
 * AVA run was read as listing no test.)
 *
 * And a test file that crashes: AVA runs each test file in its own process and, when that
 * process exits badly, prints `✖ test/x.js exited with a non-zero exit code: 1` (`✘ [fail]: …` from AVA 4, `exited
 * due to SIGKILL` for a signal), with `N exceptions` / `N uncaught exceptions` among the counts. Such a file is a
 * failure with no test id (docs/test-ids.md): the failure is the file's, whichever test was running.
 *
 * AVA 0.x prints no detail titles under a rule: its count `2 tests failed` (`2 failed`), then numbered entries
 * `  1. title`, each with the error right under it (`  AssertionError: …`) and a frame (`_callee3$ (test/a.js:22:15)`).
 * An entry is a failure only under that count, numbered from 1 in order, at most the count, with an error line right
 * under its title; it is placed by its first frame outside node_modules.
 */
import { type FormatDefinition, jsFrameLocation, type ParserSink } from "../parser.ts";

const CRASH =
  /^\s*(?:✖|✘|×) (?:\[fail\]: )?(\S+\.[cm]?[jt]sx?) exited (?:with a non-zero exit code: (\d+)|due to (SIG[A-Z]+))$/;

// Matched on the line without its trailing blanks: `(.+?)\s*(…)?\s*$` was cubic in a run of blanks (3,300 tabs
// held the host past 10 s).
const LISTED = /^ {2}(✖|✘|✔|✓|-) (?:\[(?:fail|pass|skip)\]: )?(.+?)(?:\s*\(\d+(?:\.\d+)?m?s\))?$/;
const COUNTS =
  /^ {2}(\d+) (?:tests? (failed|passed|skipped|todo)|known failures?|uncaught exceptions?|unhandled rejections?)\s*$/;
const OLD_COUNT = /^ {0,2}(\d+) (?:tests? )?failed\s*$/;
const OLD_ENTRY = /^ {2}(\d+)\. (\S.*?)\s*$/;
const OLD_ERROR = /^ {2,}(?:[\w.]*(?:Error|Exception)\b|Test failed via\b)/;
const WHERE = /^ {2}(\S+\.[cm]?[jt]sx?):(\d+)\s*$/;

export function createAvaParser(sink: ParserSink) {
  const listed: { title: string; outcome: "passed" | "failed" | "skipped"; line: number; text: string }[] =
    [];
  /** Lines after the listing's rule: the failed tests' detail blocks. */
  const details: { text: string; line: number }[] = [];
  let ruled = false;
  /** The counts block under way: whether it had a `N tests failed` line (only then are `✖` entries failures). */
  let counts: { failed: number } | null = null;
  /** AVA 1–2's verbose reporter prints the detail blocks after the counts, with no rule: they are read until AVA's indentation ends. */
  let trailing = false;
  /** AVA 0.x: the count's failures still to come, the number the next entry must carry, and the entry under way. */
  let old: { left: number; next: number; blanks: number } | null = null;
  let oldEntry: { title: string; lines: { text: string; line: number }[]; confirmed: boolean } | null = null;

  function endOldEntry(): void {
    const e = oldEntry;
    oldEntry = null;
    if (!e?.confirmed) return;
    const body = e.lines.map((l) => l.text);
    const loc = jsFrameLocation(body, sink);
    sink.failure({
      category: "test",
      test: e.title,
      file: loc?.file ?? null,
      line: loc?.line ?? null,
      column: loc?.column ?? null,
      errorType: /^\s*([\w.]*(?:Error|Exception))\b/.exec(body[1] ?? "")?.[1] ?? null,
      message: body[1]?.trim() || e.title,
      stack: body.join("\n").trim(),
      start: e.lines[0]!.line,
      end: e.lines.at(-1)!.line,
    });
    sink.test(e.title, "failed");
  }

  /** An AVA 0.x line; true when it was one. */
  function oldLine(text: string, lineNo: number): boolean {
    const o = old!;
    if (text.trim() === "") {
      if (++o.blanks > 2) {
        endOldEntry();
        old = null;
      }
      return false;
    }
    o.blanks = 0;
    const m = OLD_ENTRY.exec(text);
    if (m && Number(m[1]) === o.next && o.left > 0 && (!oldEntry || oldEntry.confirmed)) {
      endOldEntry();
      o.next++;
      o.left--;
      oldEntry = { title: m[2]!, lines: [{ text, line: lineNo }], confirmed: false };
      return true;
    }
    if (oldEntry && text.startsWith("  ")) {
      if (oldEntry.lines.length === 1) {
        if (!OLD_ERROR.test(text)) {
          oldEntry = null;
          old = null;
          return false;
        }
        oldEntry.confirmed = true;
      }
      if (oldEntry.lines.length < 200) oldEntry.lines.push({ text, line: lineNo });
      return true;
    }
    endOldEntry();
    old = null;
    return false;
  }

  /**
   * The title of a `✖` entry. AVA 1–3's verbose reporter prints the error's message after the title on the same line
   * (`✖ test › fails Test failed via \`t.fail()\``); the detail block names the test alone, so the longest block title
   * the entry starts with (followed by a space) is the title.
   */
  function titleOf(listedText: string, titles: ReadonlySet<string>): string {
    if (titles.has(listedText) || listedText.length > 2_000) return listedText;
    // Bounded: at most 40 prefixes of a line of at most 2 000 characters.
    let tries = 0;
    for (
      let i = listedText.lastIndexOf(" ");
      i > 0 && tries < 40;
      i = listedText.lastIndexOf(" ", i - 1), tries++
    ) {
      const head = listedText.slice(0, i);
      if (titles.has(head)) return head;
    }
    return listedText;
  }

  /** Ends one AVA run at the end of its counts, and starts afresh (a log may hold several runs). */
  function report(): void {
    const failedCount = counts?.failed ?? 0;
    counts = null;
    trailing = false;
    // A detail block opens with the test's title alone, two spaces in (the blank line before it may have been claimed by
    // node:test's reader, which takes blank lines once it saw an `ℹ` line, as AVA's `t.log` output prints).
    const titles = new Set<string>();
    for (const d of details) if (/^ {2}\S/.test(d.text)) titles.add(d.text.trimEnd().slice(2));
    const resolved = new Map<string, string>();
    for (const t of listed) if (t.outcome === "failed") resolved.set(t.title, titleOf(t.title, titles));
    const failedTitles = new Set(resolved.values());
    let room = failedCount;
    for (const entry of listed) {
      if (entry.outcome !== "failed") {
        sink.test(entry.title, entry.outcome);
        continue;
      }
      if (room-- <= 0) continue; // a `✖` line AVA's counts do not account for is another tool's
      const t = { ...entry, title: resolved.get(entry.title) ?? entry.title };
      const at = details.findIndex((d) => d.text.trim() === t.title);
      const block = at < 0 ? [] : details.slice(at + 1, at + 40);
      // A block ends at AVA's rule, at a line out of its indentation, or at the next failed test's title (AVA 1–2 print
      // no rule between blocks).
      const end = block.findIndex(
        (d) =>
          /^ {2}─\s*$/.test(d.text) ||
          (d.text.trim() !== "" && !/^ {2}/.test(d.text)) ||
          (/^ {2}\S/.test(d.text) && failedTitles.has(d.text.trimEnd().slice(2))),
      );
      const body = end < 0 ? block : block.slice(0, end);
      const where = body
        .slice(0, 4)
        .map((d) => WHERE.exec(d.text))
        .find((m) => m !== null);
      const diff = body.findIndex((d) => d.text.trim() === "Difference:" || /^ {2}\S*Error\b/.test(d.text));
      const message =
        diff < 0
          ? t.title
          : body
              .slice(diff, diff + 8)
              .map((d) => d.text.trim())
              .filter((x) => x !== "" && !x.startsWith("›"))
              .join("\n");
      sink.failure({
        category: "test",
        test: t.title,
        file: where ? sink.path(where[1]!) : null,
        line: where ? Number(where[2]) : null,
        column: null,
        errorType: null,
        message,
        stack: [t.text, ...body.map((d) => d.text)].join("\n").trim(),
        start: at < 0 ? t.line : (details[at]?.line ?? t.line),
        end: at < 0 ? t.line : (body.at(-1)?.line ?? t.line),
      });
      sink.test(t.title, "failed");
    }
    listed.length = 0;
    details.length = 0;
    ruled = false;
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (old && oldLine(text, lineNo)) return true;
      if (!old && text.endsWith("failed") && listed.length === 0 && !counts) {
        const c = OLD_COUNT.exec(text);
        if (c) old = { left: Number(c[1]), next: 1, blanks: 0 };
      }
      if (trailing) {
        if (text === "" || text.startsWith("  ")) {
          if (details.length < 5_000) details.push({ text, line: lineNo });
          return false;
        }
        report();
      }
      const n = COUNTS.exec(text);
      if (n && (listed.length > 0 || counts)) {
        counts ??= { failed: 0 };
        if (n[2] === "failed") {
          counts.failed += Number(n[1]);
          sink.summary({ failed: Number(n[1]) });
        } else if (n[2] === "passed") sink.summary({ passed: Number(n[1]), failed: 0 });
        return true;
      }
      if (counts && text.trim() !== "") {
        if (!ruled && text.startsWith("  ") && listed.some((t) => t.outcome === "failed")) {
          trailing = true;
          if (details.length < 5_000) details.push({ text, line: lineNo });
          return false;
        }
        report();
      }
      if (ruled) {
        if (details.length < 5_000) details.push({ text, line: lineNo });
      } else if (/^ {2}─\s*$/.test(text) && listed.length > 0) {
        ruled = true;
      } else {
        const m = LISTED.exec(text.trimEnd());
        if (m && !text.includes(" exited ") && listed.length < 10_000) {
          const outcome = m[1] === "✖" || m[1] === "✘" ? "failed" : m[1] === "-" ? "skipped" : "passed";
          listed.push({ title: m[2]!, outcome, line: lineNo, text });
        }
      }
      if (!text.includes(" exited ")) return false;
      const c = CRASH.exec(text);
      if (!c) return false;
      sink.failure({
        category: "test",
        file: sink.path(c[1]!),
        errorType: c[3] ?? "ExitCode",
        message: c[3] ? `exited due to ${c[3]}` : `exited with a non-zero exit code: ${c[2]}`,
        stack: text.trim(),
        start: lineNo,
        end: lineNo,
      });
      return true;
    },
    end(): void {
      if (old) endOldEntry();
      if (counts) report();
    },
  };
}

export const avaFormat: FormatDefinition = {
  name: "ava",
  description:
    "AVA (its default reporter's listing and failure blocks; a test file whose process exited badly)",
  create: createAvaParser,
};
