/**
 * RSpec (progress and documentation formatters): the `Failures:` section of numbered
 * `  1) Group example` blocks (`Failure/Error:`, the exception, `# ./spec/x_spec.rb:8:in …` frames),
 * the `N examples, M failures, K pending` count line and the `rspec ./spec/x_spec.rb:7 # Group example`
 * re-run list that names each failing example's file. `Pending:` entries are not failures.
 * Ids are `spec/file_spec.rb > full description` (docs/test-ids.md).
 */
import { BlockBuffer, type FormatDefinition, type ParserSink, underTopDir } from "../parser.ts";

// Markdown bold around the heading (`**Failures:`) is a paste into an issue or comment.
const FAILURES = /^(?:\*\*|__)?Failures:(?:\*\*|__)?$/;
const PENDING = /^Pending: \(Failures listed here are expected/;
const ENTRY = /^ {2}(\d+)\) (.+)$/;
const LOOSE_ENTRY = /^ {0,2}(\d+)\) (\S.*)$/;
const TASK_BOX = /^[-*] \[[ xX]\] (?= {0,2}\d+\) \S)/;
// A directory or file name after the first may hold single spaces (`./spec/deep dir/x_spec.rb`).
// Crystal's spec runner prints RSpec's layout for `_spec.cr` files (`crystal spec ./spec/x_spec.cr:36 # …`).
const RB_PATH = "[^\\s/]*(?:/(?:[^\\s/]| (?=[^\\s/]))+?)*?\\.(?:rb|cr)";
const FRAME = new RegExp(`^\\s*# (${RB_PATH}):(\\d+)(?::in .*)?$`);
// Crystal's count line names its errors (examples that raised) beside its failures: `4 examples, 1 failures, 0 errors,
// 0 pending`; both are failed examples.
const COUNTS =
  /^(\d+) examples?, (\d+) failures?(?:, (\d+) errors)?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?$/;
const FINISHED = /^Finished in [\d.]+ (?:seconds|minutes)/;
const RERUN = new RegExp(`^(?:rspec|crystal spec) (${RB_PATH})(?::(\\d+)|\\[[\\d:,]+\\]) # (.+)$`);
const LOAD_ERROR = new RegExp(`^An error occurred while loading (${RB_PATH})\\.$`);
const EXCEPTION = /^\s*([A-Z][\w:]*(?:Error|Exception|NotMetError)\w*):?$/;

interface Block {
  description: string;
  buf: BlockBuffer;
}

/**
 * The command that ran RSpec, as a terminal or CI step prints it (`$ bundle exec rspec test.rb --format documentation`):
 * no example group, and the spec file of the run when it names exactly one.
 */
const COMMAND = /^(?:\S*[$%>#] +)?(?:bundle exec +|bin\/)?rspec((?: +\S+)*) *$/;

function commandFile(args: string): string | null {
  const files = args
    .trim()
    .split(/ +/)
    .filter((a) => /^[^-].*\.rb(?::\d+|\[[\d:,]+\])?$/.test(a))
    .map((a) => a.replace(/(?::\d+|\[[\d:,]+\])$/, ""));
  return files.length === 1 ? files[0]! : null;
}

export function createRspecParser(sink: ParserSink) {
  /** The spec file the command line names, for examples whose details (and so their file) were cut. */
  let runFile: string | null = null;
  let section: "failures" | "pending" | "rerun" | null = null;
  let block: Block | null = null;
  const blocks: Block[] = [];
  const fileOf = new Map<string, { file: string; lineNo: number; line: number | null }>();
  /**
   * Re-run lines (`rspec ./spec/x_spec.rb:14 # description`) pasted without their `Failed examples:` heading: RSpec
   * prints them for failed examples only. Read as the list's at the end, only in a paste of them alone: not when the log
   * holds the run's own `Failures:` or `Failed examples:` heading (a test's output may print such a line), nor when
   * the run's count line says 0 failures.
   */
  let ownHeading = false;
  const looseRerun = new Map<string, { file: string; lineNo: number; line: number | null }>();
  /** Failures of the count line (`7 failures`), when the log has one. */
  let failureCount: number | null = null;
  /**
   * The run's own count line is the one right under `Finished in …`. A test's output can print RSpec-like count
   * lines too (a spec that runs RSpec on a fixture): count lines elsewhere are held, and count only when the log
   * has no count line under a `Finished in` (a paste of the count line alone).
   */
  let afterFinished = false;
  let finishedCounts = 0;
  /** Each run's count line (under `Finished in`), with the number of blocks read before it: its run's blocks are those since the previous. */
  const runs: { blocksBefore: number; failed: number }[] = [];
  const heldCounts: { summary: Parameters<ParserSink["summary"]>[0]; failed: number }[] = [];
  /** The last lines seen, for the groups above a documentation-format `example (FAILED - 3)` line. */
  const recent: string[] = new Array(64).fill("");
  let seen = 0;
  /** `(FAILED - n)` examples by n, with their full description (groups and example joined by spaces). */
  const marked = new Map<number, { description: string; lineNo: number }>();
  /** Numbers of the `Failures:` blocks read (a log cut inside the section has only the first ones). */
  const blockNumbers = new Set<number>();

  /**
   * A paste may put the reporter's sentence between `Failures:` and the first block: up to three such lines are
   * skipped, and the blocks of that section then count only with RSpec's `Failure/Error:` line.
   */
  let proseLeft = 0;
  let loose = false;
  /**
   * The log's first line that is not blank, when it is numbered (`1) Group example`): a paste that starts below the
   * `Failures:` heading, its indentation lost to the selection or kept. It opens the section when RSpec's
   * `Failure/Error:` follows it; otherwise it is nothing (mocha, minitest and ExUnit number their blocks too). With
   * any other line before it, the heading (or its absence) is in the log, and the rules above decide.
   */
  let candidate: { number: number; description: string; text: string; lineNo: number } | null = null;
  let first = true;

  /**
   * `An error occurred while loading ./spec/x_spec.rb.`: the spec file's top-level code raised before any example ran
   * (a missing constant, a syntax error). No example: the failure is the file's, at its own frame, read when RSpec's
   * block follows (`Failure/Error:` or a `# ./x.rb:N` frame).
   */
  let loading: { file: string; buf: BlockBuffer } | null = null;

  function closeLoading(): void {
    const l = loading;
    loading = null;
    if (!l) return;
    const lines = l.buf.lines.slice(1);
    const frames = lines.map((x) => FRAME.exec(x)).filter((m): m is RegExpExecArray => m !== null);
    if (
      frames.length === 0 &&
      !lines.some((x) => x.trim() === "Failure/Error:" || x.trim().startsWith("Failure/Error: "))
    )
      return;
    const own = frames.find((f) => sink.path(f[1]!) === l.file) ?? null;
    const ex = lines.map((x) => EXCEPTION.exec(x)).find((m) => m !== null)?.[1] ?? null;
    const at = ex ? lines.findIndex((x) => EXCEPTION.exec(x)?.[1] === ex) : -1;
    const message =
      at >= 0
        ? lines
            .slice(at + 1, at + 21)
            .map((x) => x.trim())
            .filter((x, i, all) => x !== "" && !all.slice(0, i + 1).some((y) => y.startsWith("# ")))
            .join("\n")
        : "";
    sink.failure({
      category: ex === "SyntaxError" ? "syntax" : ex === "LoadError" ? "import" : "build",
      test: null,
      file: l.file,
      line: own ? Number(own[2]) : null,
      errorType: ex,
      message: message || l.buf.lines[0]!,
      stack: l.buf.text(),
      start: l.buf.start,
      end: l.buf.end,
    });
  }

  function close(): void {
    if (block && loose && !block.buf.lines.some((l) => /^\s+Failure\/Error:/.test(l))) block = null;
    if (block && blocks.length < 1000) blocks.push(block);
    block = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      recent[seen++ & 63] = text;
      if (loading) {
        if (
          text.startsWith("An error occurred ") ||
          FINISHED.test(text) ||
          COUNTS.test(text) ||
          FAILURES.test(text) ||
          text.startsWith("Run options:") ||
          text === "No examples found." ||
          loading.buf.lines.length >= 200
        )
          closeLoading();
        else {
          loading.buf.push(text, lineNo);
          return true;
        }
      }
      const le = text.startsWith("An error occurred while loading ") ? LOAD_ERROR.exec(text) : null;
      if (le) {
        loading = { file: sink.path(le[1]!), buf: new BlockBuffer() };
        loading.buf.push(text, lineNo);
        return true;
      }
      if (section === null && text.endsWith(")") && text.includes(" (FAILED - ")) {
        const m = /^( *)(\S.*) \(FAILED - (\d+)\)$/.exec(text);
        if (m && marked.size < 1000) {
          // The groups above it are the nearest lines with less indentation (the documentation formatter
          // indents each level by two spaces).
          const parts = [m[2]!];
          let indent = m[1]!.length;
          for (let back = 2; back <= 64 && back <= seen && indent > 0; back++) {
            const l = recent[(seen - back) & 63]!;
            const i = l.length - l.trimStart().length;
            if (l.trim() === "" || i >= indent) continue;
            // The command line above the run: the levels read so far are all there is (an undescribed group).
            if (i === 0 && COMMAND.test(l)) {
              indent = 0;
              break;
            }
            if (i % 2 !== 0 || / \((?:FAILED - \d+|PENDING: .*)\)$/.test(l)) break;
            parts.unshift(l.trim());
            indent = i;
          }
          if (indent === 0) marked.set(Number(m[3]), { description: fullDescription(parts), lineNo });
          return true;
        }
      }
      if (section === null && candidate) {
        if (text.trim() === "") return false;
        const c = candidate;
        candidate = null;
        if (/^\s+Failure\/Error:/.test(text)) {
          section = "failures";
          ownHeading = true;
          loose = true;
          proseLeft = 0;
          if (blockNumbers.size < 10_000) blockNumbers.add(c.number);
          block = { description: c.description, buf: new BlockBuffer() };
          block.buf.push(c.text, c.lineNo);
          block.buf.push(text, lineNo);
          return true;
        }
      }
      if (first && text.trim() !== "") {
        first = false;
        const e = text.includes(") ") ? LOOSE_ENTRY.exec(text) : null;
        if (e) candidate = { number: Number(e[1]), description: e[2]!.trimEnd(), text, lineNo };
        // A paste that starts inside a block's body, at RSpec's `Failure/Error:` line: the section is open, the
        // block's number and description cut away (it names nothing; the numbered blocks below it do).
        else if (/^ {2,8}Failure\/Error:/.test(text)) {
          section = "failures";
          ownHeading = true;
          loose = true;
          proseLeft = 0;
          return true;
        }
      }
      if (section === null && text.includes("rspec")) {
        const c = COMMAND.exec(text);
        if (c) runFile = commandFile(c[1]!);
      }
      if (section === null && (text.startsWith("rspec ./") || text.startsWith("crystal spec ./"))) {
        const r = RERUN.exec(text);
        if (r) {
          if (looseRerun.size < 10_000)
            looseRerun.set(r[3]!.trimEnd(), {
              file: sink.path(r[1]!),
              lineNo,
              line: r[2] ? Number(r[2]) : null,
            });
          return true;
        }
      }
      // Quick reject: outside its sections RSpec's lines start with F (Failures, Finished, Failed examples), P or a digit (`*`/`_`: markdown bold).
      if (section === null) {
        const c0 = text.charCodeAt(0);
        if (c0 !== 70 && c0 !== 80 && c0 !== 42 && c0 !== 95 && !(c0 >= 48 && c0 <= 57)) return false;
      }
      if (FAILURES.test(text)) {
        ownHeading = true;
        close();
        section = "failures";
        proseLeft = 3;
        loose = false;
        return true;
      }
      if (PENDING.test(text)) {
        close();
        section = "pending";
        return true;
      }
      const underFinished = afterFinished;
      if (text.trim() !== "") afterFinished = false;
      if (FINISHED.test(text)) {
        close();
        section = null;
        afterFinished = true;
        return true;
      }
      const c = COUNTS.exec(text);
      if (c) {
        close();
        section = null;
        const failed = Number(c[2]) + Number(c[3] ?? 0);
        const pending = Number(c[4] ?? 0);
        const summary = {
          passed: Number(c[1]) - failed - pending,
          failed,
          skipped: pending,
          error: Number(c[5] ?? 0),
        };
        if (underFinished) {
          finishedCounts++;
          failureCount = failed;
          sink.summary(summary);
        } else if (finishedCounts === 0) {
          failureCount = failed;
          if (heldCounts.length < 1_000) heldCounts.push({ summary, failed });
        }
        if (underFinished && runs.length < 1_000) runs.push({ blocksBefore: blocks.length, failed });
        return true;
      }
      if (text === "Failed examples:") {
        ownHeading = true;
        close();
        section = "rerun";
        return true;
      }
      if (section === "rerun") {
        const r = RERUN.exec(text);
        if (r) {
          if (fileOf.size < 10_000)
            fileOf.set(r[3]!.trimEnd(), { file: sink.path(r[1]!), lineNo, line: r[2] ? Number(r[2]) : null });
          return true;
        }
        if (text.trim() === "") return true;
        section = null;
        return false;
      }
      if (section === "failures" || section === "pending") {
        // A markdown task list made of the section (`- [ ]  1) Group example`, `- [x]  2) …`: a comment tracking
        // the failures, e.g. a CI bot's aggregate): the box is the paste's, the numbered entry RSpec's.
        const box = text.charCodeAt(1) === 32 ? TASK_BOX.exec(text) : null;
        const e = box
          ? LOOSE_ENTRY.exec(text.slice(box[0].length))
          : (loose ? LOOSE_ENTRY : ENTRY).exec(text);
        if (e) {
          close();
          proseLeft = 0;
          if (section === "failures") {
            if (blockNumbers.size < 10_000) blockNumbers.add(Number(e[1]));
            block = { description: e[2]!.trimEnd(), buf: new BlockBuffer() };
            block.buf.push(text, lineNo);
          }
          return true;
        }
        if (text.trim() === "" || text.startsWith("   ")) {
          block?.buf.push(text, lineNo);
          return true;
        }
        // A markdown fence the reporter put inside the block (a paste): not RSpec's, not the block's end.
        if (block && /^```[\w-]*$/.test(text)) return true;
        // A frame of the block that lost its indentation with the fence (`` # ./spec/x_spec.rb:25:in … ``).
        if (block && FRAME.test(text)) {
          block.buf.push(text, lineNo);
          return true;
        }
        if (section === "failures" && !block && blocks.length === 0 && proseLeft > 0) {
          proseLeft--;
          loose = true;
          return false;
        }
        close();
        section = null;
      }
      return false;
    },
    end(): void {
      if (failureCount !== 0 && !ownHeading)
        for (const [d, r] of looseRerun) if (!fileOf.has(d)) fileOf.set(d, r);
      closeLoading();
      close();
      if (finishedCounts === 0) for (const h of heldCounts) sink.summary(h.summary);
      // A test's output can print RSpec-like text (`Failures:` then `  1) Group example`). RSpec names every failed
      // example in its re-run list: with more blocks than the count line's failures, a block that the list does
      // not name is output, not a failure. Each run is checked against its own count line (a log of two runs, a
      // retry, holds two sections and two counts); blocks after the last count line belong to a run cut before its
      // count, which says nothing about them.
      const named = (b: Block) =>
        fileOf.has(b.description) || fileOf.has(b.description.replace(/ FIXED$/, ""));
      const kept: Block[] = [];
      let from = 0;
      // Count lines only outside `Finished in` (a paste of the count line alone): the last one counts for all blocks.
      const checked =
        runs.length > 0 || failureCount === null
          ? runs
          : [{ blocksBefore: blocks.length, failed: failureCount }];
      for (const r of checked) {
        const run = blocks.slice(from, r.blocksBefore);
        from = r.blocksBefore;
        kept.push(...(fileOf.size > 0 && run.length > r.failed ? run.filter(named) : run));
      }
      kept.push(...blocks.slice(from));
      for (const b of kept) {
        const lines = b.buf.lines.slice(1);
        // A pending example that passed is listed as `N) Group example FIXED` with `Expected pending '…' to
        // fail. No error was raised.`: the marker is not part of the example's description.
        if (
          b.description.endsWith(" FIXED") &&
          lines.some((l) => /^\s*Expected pending .* to fail\./.test(l))
        )
          b.description = b.description.slice(0, -" FIXED".length);
        // RSpec prints the backtrace at the block's own indentation and the exception's message deeper: a
        // frame-like line of the message (`       # ./lib/x.rb:3`) is text, not a frame.
        const indentOf = (l: string) => l.length - l.trimStart().length;
        const frameLines = lines.filter((l) => FRAME.test(l));
        const base = Math.min(...frameLines.map(indentOf));
        const frames = frameLines
          .filter((l) => indentOf(l) === base)
          .map((l) => FRAME.exec(l))
          .filter((m): m is RegExpExecArray => m !== null);
        // An installed gem's frame (`…/gems/rspec-core-3.1.0/lib/…`), not a repository directory called `gems`.
        const inRepo = frames.filter((f) => !/\/gems\/[^/]+-\d[^/]*\/|^\/usr\//.test(f[1]!));
        const rerun = fileOf.get(b.description);
        // With no frame in the repository, a spec file inside an installed gem (a distribution's package check runs
        // the gem's own specs from where it is installed) is still the spec the example is in; RSpec's own gems hold none.
        const specFrame =
          inRepo.find((f) => /_spec\.rb$/.test(f[1]!)) ??
          frames.find((f) => /_spec\.rb$/.test(f[1]!) && !/\/gems\/rspec(?:-[a-z]+)?-\d/.test(f[1]!));
        const frameFile = (f: RegExpExecArray) =>
          underTopDir(inRepo.includes(f) ? sink.path(f[1]!) : inGem(sink.path(f[1]!)), "spec");
        const specFile = rerun?.file ?? (specFrame ? frameFile(specFrame) : null);
        const id = specFile ? `${specFile} > ${b.description}` : b.description;
        const where = inRepo[0] ?? specFrame ?? frames[0];
        let errorType: string | null = null;
        const message: string[] = [];
        let seenFailureLine = false;
        for (const l of lines) {
          const t = l.trim();
          if (FRAME.test(l)) break;
          if (t.startsWith("Failure/Error:")) {
            seenFailureLine = true;
            continue;
          }
          const ex = EXCEPTION.exec(l);
          if (ex && seenFailureLine && errorType === null) {
            errorType = ex[1]!;
            message.length = 0;
            continue;
          }
          if (seenFailureLine && t !== "" && message.length < 20) message.push(t);
        }
        // RSpec's matcher failure; a Crystal spec's (`_spec.cr`) is its own, unnamed in the log.
        if (!errorType && /^expected\b/.test(message[0] ?? "") && !/\.cr$/.test(specFile ?? ""))
          errorType = "RSpec::Expectations::ExpectationNotMetError";
        sink.failure({
          category: "test",
          test: id,
          file: where ? frameFile(where) : specFile,
          line: where ? Number(where[2]) : null,
          errorType,
          // No `Failure/Error:` (a pending example that passed, `aggregate_failures`): RSpec's own first line says what failed.
          message:
            message.join("\n") ||
            lines.map((l) => l.trim()).find((t) => t !== "" && !FRAME.test(t) && !t.startsWith("#")) ||
            b.description,
          stack: b.buf.text(),
          start: b.buf.start,
          end: b.buf.end,
        });
        sink.test(id, "failed", specFile);
      }
      // Examples named only in the re-run list (the failure details cut from the log).
      const described = new Set(kept.map((b) => b.description.replace(/ FIXED$/, "")));
      // Examples marked `(FAILED - n)` by the documentation formatter whose details and re-run line were cut
      // (a log that stops before `Failures:`, or inside it: the blocks after the cut); not in a run whose count
      // line says nothing failed, nor when the re-run list (which names every failed example) was read.
      if (fileOf.size === 0 && failureCount !== 0) {
        for (const [n, e] of [...marked].sort((a, b) => a[0] - b[0])) {
          if (blockNumbers.has(n) || described.has(e.description)) continue;
          const id = runFile ? `${sink.path(runFile)} > ${e.description}` : e.description;
          sink.failure({
            category: "test",
            test: id,
            message: e.description,
            start: e.lineNo,
            end: e.lineNo,
          });
          sink.test(id, "failed");
        }
      }
      for (const [description, r] of fileOf) {
        if (described.has(description)) continue;
        const id = `${r.file} > ${description}`;
        sink.failure({
          category: "test",
          test: id,
          file: r.file,
          line: r.line,
          message: description,
          start: r.lineNo,
          end: r.lineNo,
        });
        sink.test(id, "failed", r.file);
      }
    },
  };
}

/** A path inside an installed gem (`…/gems/little-kettle-1.1.2/spec/x_spec.rb`) from the gem's directory on. */
function inGem(path: string): string {
  const i = path.lastIndexOf("gems/");
  if (i < 0) return path;
  const m = /^gems\/[\w.-]+?-\d[\w.]*\//.exec(path.slice(i));
  return m ? path.slice(i + m[0].length) : path;
}

/**
 * An example's full description from the documentation formatter's levels (outermost first), joined as RSpec
 * joins them: with a space, except a `#method`, `.method` or `::Name` group right under a described class or
 * module (`Inventory` + `#add` → `Inventory#add`). The formatter prints a class and a string alike, so a level
 * that reads as a constant path is taken for the class.
 */
export function fullDescription(levels: readonly string[]): string {
  let out = levels[0] ?? "";
  for (let i = 1; i < levels.length; i++) {
    const joined =
      i < levels.length - 1 &&
      /^[A-Z]\w*(?:::[A-Z]\w*)*$/.test(levels[i - 1]!) &&
      /^(?:#|::|\.)/.test(levels[i]!);
    out += (joined ? "" : " ") + levels[i];
  }
  return out;
}

export const rspecFormat: FormatDefinition = {
  name: "rspec",
  description: "RSpec progress and documentation formatters (Failures: blocks, re-run list, counts)",
  create: createRspecParser,
};
