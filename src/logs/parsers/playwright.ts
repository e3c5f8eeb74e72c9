/**
 * Playwright Test's list, line and dot reporters: `Running N tests using M workers`, list lines
 * (`  ✘  3 [chromium] › pw/a.spec.ts:8:3 › group › test (41ms)`), the numbered failure blocks
 * (`  1) [chromium] › pw/a.spec.ts:8:3 › group › test ──────`) with the error, code frame and
 * `at file:line:col` frames, `Retry #1` sections, and the `N failed` / `N flaky` / `N passed` recap.
 * Ids are `file > describe > test` (docs/test-ids.md); the project and the line:column are not part of it.
 */
import { rejoinTitles, titlesInFrames } from "./playwright-titles.ts";
import {
  BlockBuffer,
  codeFrameLine,
  errorLine,
  type FormatDefinition,
  jsFrameLocation,
  type ParserSink,
  underKnown,
} from "../parser.ts";

const RUNNING = /^Running \d+ tests? using \d+ workers?/;
// `[chromium] › ` is optional; the location is `file:line:col`.
const TITLE = /^(?:\[[^\]]+\] › )?(\S+?\.\w+):(\d+:\d+) › (.+?)$/;
const LIST = /^ {2}(✓|✘|✔|✗|×|-|°|±|ok|x) +\d+ (.+?)(?: \((?:retry #\d+|[\d.]+m?s)\))*(?: \([\d.]+m?s\))?$/;
const LINE = /^\[\d+\/\d+\] (.+)$/;
const BLOCK = /^ {2}(\d+)\) (.+?)(?: ─+)?$/;
/**
 * A failure header pasted without its number (`[chromium] › a.spec.ts:65:3 › suite › test`, the `1) ` left out),
 * at the margin or a little in: a failure block only when its first line is a `Retry #1 ───` rule or an error.
 */
const BARE_HEADER = /^ {0,4}(\[[^\]]+\] › \S+?\.\w+:\d+:\d+ › .+?)(?: ─+)?$/;
const RETRY_RULE = /^\s+Retry #\d+ ─+$/;
const ANNOTATED_HEADER = /^Error: ( {2}\d+\) (?:\[[^\]]+\] › )?\S+?\.\w+:\d+:\d+ › .+?) (?:=+|─+)$/;
const RECAP = /^ {1,2}(\d+) (failed|flaky|passed|skipped|did not run|interrupted)(?: \(.*\))?$/;

/** A stack frame alone on its line (`    at e2e/a.test.ts:32:22`, `    at fn (e2e/a.test.ts:32:22)`). */
const ORPHAN_FRAME = /^\s+at (?:\S+ \()?[^\s()]+:\d+:\d+\)?$/;

/**
 * A frame's path to a spec file of a monorepo's workspace package, seen from the directory above the checkout
 * (`webforms/packages/web-forms/e2e/a.test.ts`, the spec printed as `e2e/a.test.ts`): one leading directory, then
 * the workspace directory (`packages/`, `apps/`) holding the package that runs Playwright. The leading directory is
 * the checkout's own name, not part of the repository path. Any other shape is kept as the frame gives it.
 */
function fromWorkspaceDir(full: string, printed: string): string {
  const dir = full.slice(0, full.length - printed.length);
  const m = /^[^/]+\/((?:packages|apps)\/[^/]+\/)$/.exec(dir);
  return m ? `${m[1]}${printed}` : full;
}

/** The line of a header's `file:line:col`. */
function declaredLine(at: string): number | null {
  const m = /:(\d+):\d+$/.exec(at);
  return m ? Number(m[1]) : null;
}

function idOf(
  title: string,
  sink: ParserSink,
): { id: string; file: string; name: string; at: string } | null {
  const m = TITLE.exec(title.replace(/ ─+$/, "").trim());
  if (!m) return null;
  const file = sink.path(m[1]!);
  // Playwright 1.12's recap put the project after the place, and its configs named projects as browsers are
  // named (`a.spec.ts:25:3 › [Chromium] title`): a capitalized one-word label there is the project. A title's own
  // lower-case tag (`› [bug] title`) stays.
  const titles = title.startsWith("[") ? m[3]! : m[3]!.replace(/^\[[A-Z][^\]\s]*\] (?!› )/, "");
  const name = titles.split(" › ").join(" > ");
  return { id: `${file} > ${name}`, file, name, at: `${file}:${m[2]}` };
}

export function createPlaywrightParser(sink: ParserSink) {
  let active = false;
  type Block = { id: string; file: string; name: string; at: string; buf: BlockBuffer; loose?: boolean };
  let block: Block | null = null;
  /** Activated by a failure block's header alone (a paste without `Running N tests`): ends with that block run. */
  let loose = false;
  let recap: string | null = null;
  /** A recap's `N failed` line at the margin, waiting for its first entry (see below). */
  let marginFailed: number | null = null;
  /** A header without its number, waiting for the line that makes it a failure block (see BARE_HEADER). */
  let bare: { title: string; text: string; lineNo: number; blanks: number } | null = null;
  const flaky = new Set<string>();
  /** Inside a test's console output under its title line (the line reporter). */
  let output = false;
  /** The recap's failed tests: a paste cut before (or without) their failure blocks still names them. */
  const recapFailed: { file: string; name: string; lineNo: number; text: string }[] = [];
  const pending: Block[] = [];
  /**
   * Stack frames printed before the first failure header (a paste that starts inside a block whose header was cut):
   * not a place of any test named later, but a frame ending with a test's printed file shows where that file is.
   */
  const orphanFrames: string[] = [];
  /** The list/line reporter's title of the test declared at `file:line:col`. */
  const titleAt = new Map<string, string>();
  /**
   * Outcomes, held to the end: Playwright prints spec files relative to its config's directory, and the
   * path from the repository shows only in a failure's stack (`e2e/a.spec.ts` → `pw/e2e/a.spec.ts`).
   */
  const outcomes: { file: string; name: string; outcome: "passed" | "failed" | "skipped" | "flaky" }[] = [];
  const record = (t: { file: string; name: string }, outcome: "passed" | "failed" | "skipped" | "flaky") => {
    if (outcomes.length < 100_000) outcomes.push({ file: t.file, name: t.name, outcome });
  };

  function close(): void {
    if (block && pending.length < 1000) pending.push(block);
    block = null;
  }

  return {
    line(raw: string, lineNo: number): boolean {
      let text = raw;
      if (
        block === null &&
        pending.length === 0 &&
        orphanFrames.length < 50 &&
        text.includes(" at ") &&
        ORPHAN_FRAME.test(text)
      )
        orphanFrames.push(text.trim());
      // A failure header as a GitHub annotation shows it (`Error:   1) a.spec.ts:3:1 › test ====`, Playwright's github
      // reporter's `::error` line in the web view): the header, its rule read as the terminal's `─`.
      if (text.startsWith("Error: ")) {
        const a = ANNOTATED_HEADER.exec(text);
        if (a) text = `${a[1]} ─`;
      }
      if (RUNNING.test(text)) {
        active = true;
        return true;
      }
      // Without the run's header, a numbered failure header ruled off with `─` (`  1) [chromium] › a.spec.ts:8:3 ›
      // test ───`) opens a failure block; it counts only with an error line inside (checked at the end).
      // The list reporter prints the header without the rule when the terminal width is unknown
      // (`  1) [chromium] › a.spec.ts:8:3 › test `): then the project's `[name] › ` must lead the title.
      if (!active && text.startsWith("  ") && (text.endsWith("─") || /^ +\d+\) \[[^\]]+\] › /.test(text))) {
        // A paste that starts inside the terminal's line keeps the header's padding (`        6) [chromium] › …`).
        const b0 = BLOCK.exec(text) ?? BLOCK.exec(`  ${text.trimStart()}`);
        const t0 = b0 ? idOf(b0[2]!, sink) : null;
        if (t0) {
          active = true;
          loose = true;
        }
      }
      // A paste of the recap alone whose first line lost its indentation (`1 failed` at the margin): the recap only
      // when the next line is one of its entries (`    [chromium] › a.spec.ts:7:11 › test`).
      if (marginFailed !== null) {
        const n = marginFailed;
        marginFailed = null;
        if (!active && /^ {4}\[[^\]]+\] › /.test(text) && idOf(text, sink)) {
          active = true;
          loose = true;
          recap = "failed";
          sink.summary({ failed: n });
        }
      }
      if (!active && /^\d+ failed$/.test(text)) {
        marginFailed = Number(text.slice(0, text.indexOf(" ")));
        return false;
      }
      // A paste of the recap alone (`  3 failed` then `    [chromium] › a.spec.ts:7:11 › test` lines).
      if (!active && text.startsWith(" ") && text.endsWith("failed")) {
        const r0 = RECAP.exec(text);
        if (r0) {
          active = true;
          loose = true;
        }
      }
      // A paste without the run's header that starts inside the list reporter's lines
      // (`  ✓  21 [chromium] › e2e/a.spec.ts:8:3 › group › test (2.1s)`).
      if (!active && text.startsWith("  ") && text.includes(" › ")) {
        const l0 = LIST.exec(text);
        if (l0 && idOf(l0[2]!, sink)) active = true;
      }
      if (!active) {
        const h = bare;
        bare = null;
        if (h && text.trim() === "" && h.blanks < 2) {
          bare = { ...h, blanks: h.blanks + 1 };
          return false;
        }
        if (h && (RETRY_RULE.test(text) || errorLine(text.trim()) !== null)) {
          active = true;
          loose = true;
          const t = idOf(h.title, sink)!;
          block = { ...t, buf: new BlockBuffer(150, 12_000), loose };
          block.buf.push(h.text, h.lineNo);
          for (let i = 0; i < h.blanks; i++) block.buf.push("", h.lineNo + 1 + i);
          block.buf.push(text, lineNo);
          return true;
        }
        const bh = text.includes(" › ") ? BARE_HEADER.exec(text) : null;
        if (bh && idOf(bh[1]!, sink)) bare = { title: bh[1]!, text, lineNo, blanks: 0 };
        return false;
      }
      const b = BLOCK.exec(block === null && loose && text.endsWith("─") ? `  ${text.trimStart()}` : text);
      if (b) {
        const t = idOf(b[2]!, sink);
        if (t) {
          close();
          block = { ...t, buf: new BlockBuffer(150, 12_000), loose };
          block.buf.push(text, lineNo);
          recap = null;
          return true;
        }
      }
      const r = RECAP.exec(text);
      if (r) {
        close();
        recap = r[2]!;
        const n = Number(r[1]);
        if (r[2] === "passed") sink.summary({ passed: n, failed: 0 });
        else if (r[2] === "failed") sink.summary({ failed: n });
        else if (r[2] === "skipped" || r[2] === "did not run") sink.summary({ skipped: n, failed: 0 });
        return true;
      }
      if (recap) {
        // The recap lists the failed and flaky tests again, indented by four.
        if (/^ {4}\S/.test(text)) {
          const t = idOf(text, sink);
          if (t && recap === "flaky") flaky.add(t.id);
          if (t && recap === "failed" && recapFailed.length < 10_000)
            recapFailed.push({ file: t.file, name: t.name, lineNo, text: text.trim() });
          return true;
        }
        recap = null;
        if (loose && !block) {
          active = false;
          loose = false;
          return text.trim() === "";
        }
      }
      if (block) {
        if (text === "" || /^\s/.test(text)) {
          block.buf.push(text, lineNo);
          return true;
        }
        close();
        if (loose) {
          active = false;
          loose = false;
          return false;
        }
      }
      // The line reporter heads a test's console output with the test's title alone (no `[n/m]`), then the output:
      // Playwright's lines, up to the next blank line; what the test printed is no failure of the log's.
      if (output) {
        if (text.trim() === "" || LINE.test(text) || RECAP.test(text)) output = false;
        else return true;
      }
      if (text.includes(" › ") && !text.startsWith(" ")) {
        const t = idOf(text, sink);
        if (t && titleAt.get(t.at) === t.name && TITLE.test(text)) {
          output = true;
          return true;
        }
      }
      const l = LIST.exec(text) ?? LINE.exec(text);
      if (l) {
        const title = l.length === 3 ? l[2]! : l[1]!;
        const t = idOf(title, sink);
        if (t) {
          const mark = l.length === 3 ? l[1]! : "";
          if (titleAt.size < 100_000) titleAt.set(t.at, t.name);
          if (mark === "✓" || mark === "✔" || mark === "ok") record(t, "passed");
          else if (mark === "-") record(t, "skipped");
          else if (mark === "±") record(t, "flaky");
          else if (mark) record(t, "failed");
          return true;
        }
      }
      return text.trim() === "";
    },
    end(): void {
      close();
      const literals = new Set<string>();
      for (const p of pending) titlesInFrames(p.buf.lines, literals);
      for (const o of outcomes) o.name = rejoinTitles(o.name, literals);
      for (const f of recapFailed) f.name = rejoinTitles(f.name, literals);
      for (const p of pending) {
        const name = rejoinTitles(p.name, literals);
        if (name !== p.name) {
          p.id = `${p.id.slice(0, p.id.length - p.name.length)}${name}`;
          p.name = name;
        }
      }
      for (const [at, name] of titleAt) titleAt.set(at, rejoinTitles(name, literals));
      if (literals.size > 0) for (const id of [...flaky]) flaky.add(rejoinTitles(id, literals));
      const paths = new Map<string, string>();
      for (const p of pending) {
        if (paths.has(p.file)) continue;
        for (const l of [...p.buf.lines, ...orphanFrames]) {
          const m = /([^\s()]+):\d+:\d+\)?$/.exec(l.trim());
          const full = m ? sink.path(m[1]!.replace(/^file:\/\//, "")) : "";
          // A machine's absolute path is no repository path (`/Users/me/proj/tests/a.spec.ts`).
          if (
            full.endsWith(`/${p.file}`) &&
            !full.includes("node_modules/") &&
            !/^(?:\/|[A-Za-z]:\/)/.test(full)
          ) {
            paths.set(p.file, fromWorkspaceDir(full, p.file));
            break;
          }
        }
      }
      const fileOf = (f: string) => paths.get(f) ?? f;
      /** Tests whose failure block was reported or that proved flaky. */
      const blocked = new Set<string>();
      for (const o of outcomes) {
        const file = fileOf(o.file);
        const id = `${file} > ${o.name}`;
        if (o.outcome === "flaky") {
          sink.test(id, "failed", file);
          sink.test(id, "passed", file);
        } else sink.test(id, o.outcome, file);
      }
      outcomes.length = 0;
      for (const p of pending) {
        // A failure inside `test.step` adds the step's title to the block's header (`… › test › pour`): the
        // test is the one the progress line names at the same `file:line:col`.
        const listed = titleAt.get(p.at);
        if (listed && p.name.startsWith(`${listed} > `)) {
          p.name = listed;
          p.id = `${p.file} > ${listed}`;
        }
        const printed = p.id;
        p.file = fileOf(p.file);
        p.id = `${p.file} > ${p.name}`;
        if (flaky.has(printed)) {
          blocked.add(p.id);
          sink.test(p.id, "failed", p.file);
          sink.test(p.id, "passed", p.file);
          continue;
        }
        const lines = p.buf.lines.slice(1).map((l) => l.trim());
        const body = lines.filter((l) => l !== "");
        if (p.loose && !body.some((l) => errorLine(l) !== null)) continue;
        const first = body[0] ?? "";
        const typed = errorLine(first);
        const message: string[] = [];
        for (const l of body) {
          if (/^\s*>?\s*\d+ \||^\|/.test(l) || l.startsWith("at ") || l.startsWith("Error Context:")) break;
          if (message.length < 20) message.push(l);
        }
        const loc = jsFrameLocation(lines, sink);
        // No frame left (a cut paste): the code frame's `>` line, in the test's file.
        // Neither (a block cut inside its error): the header's own `file:line`, where the test is declared.
        const framed = loc ? null : (codeFrameLine(p.buf.lines) ?? declaredLine(p.at));
        sink.failure({
          category: "test",
          test: p.id,
          file: loc ? underKnown(loc.file, p.file) : p.file,
          line: loc?.line ?? framed,
          column: loc?.column ?? null,
          errorType: typed?.type ?? null,
          message: typed ? [typed.message, ...message.slice(1)].join("\n") : message.join("\n") || p.id,
          stack: p.buf.text(),
          start: p.buf.start,
          end: p.buf.end,
        });
        sink.test(p.id, "failed", p.file);
        blocked.add(p.id);
      }
      pending.length = 0;
      for (const f of recapFailed) {
        const file = fileOf(f.file);
        const id = `${file} > ${f.name}`;
        if (blocked.has(id)) continue;
        blocked.add(id);
        sink.failure({
          category: "test",
          test: id,
          file,
          message: "failed (the log has no failure block for it)",
          stack: f.text,
          start: f.lineNo,
          end: f.lineNo,
        });
        sink.test(id, "failed", file);
      }
      recapFailed.length = 0;
    },
  };
}

export const playwrightFormat: FormatDefinition = {
  name: "playwright",
  description: "Playwright Test list, line and dot reporters",
  create: createPlaywrightParser,
};
