/**
 * Mocha's spec reporter: nested describe titles, `✔ test` / `N) test` / `- test` listing, the
 * `N passing` / `N failing` / `N pending` counts and the numbered failure blocks after them.
 */
import {
  BlockBuffer,
  popToIndent,
  dedent,
  errorLine,
  type FormatDefinition,
  jsFrameLocation,
  type ParserSink,
} from "../parser.ts";
import { machineTestFile } from "./jest.ts";

const PASS = /^(\s+)(?:✔|✓|√) (.+?)(?: \(\d+ms\))?$/;
const FAIL = /^(\s+)(\d+)\) (.+)$/;
const PENDING = /^(\s+)- (.+)$/;
const COUNT = /^\s+(\d+) (passing|failing|pending)(?: \(.+\))?$/;
const PASSING_AT_MARGIN = /^(\d+) passing(?: \(.+\))?$/;
const TITLE = /^(\s+)(\S.*)$/;
/**
 * Old mocha's failure entry with its titles joined on the number line (`1) Cart totals adds tax:`), at an indent a
 * paste or a CI's web view shifted (0 to 4 spaces): read as a loose block, on the same evidence (an error, a frame).
 */
const LOOSE_ONE_LINE = /^( {0,4})(\d+)\) (\S.*:)\s*$/;
/** Mocha's own timeout error, which carries no stack. */
const MOCHA_TIMEOUT =
  /^Error: Timeout of \d+ms exceeded\. For async tests and hooks, ensure "done\(\)" is called; if returning a Promise, ensure it resolves\./;
const NODE_ASSERTION = /^(?:Uncaught )?AssertionError(?: \[ERR_ASSERTION\])?: \S/;
const indentOf = (s: string): number => s.length - s.trimStart().length;
/** A frame of mocha's BDD/TDD interface (`describe` running its body: `Object.create (…/mocha/lib/interfaces/common.js)`). */
const MOCHA_INTERFACE_FRAME = /^\s+at .*[\\/]node_modules[\\/]mocha[\\/]lib[\\/]interfaces[\\/]/;
/** Node's module loader running a file's top level: ESM's `ModuleJob.run`, CommonJS's `Module._compile`. */
const LOADER_FRAME =
  /^\s+at (?:async )?(?:ModuleJob\.run|Module\._compile) \((?:node:internal\/modules\/|internal\/modules\/|module\.js:)/;
/** A file's top-level frame: no function (`at file:///x/a.js:17:1`), or CommonJS's `Object.<anonymous>`. */
const TOP_LEVEL_FRAME =
  /^\s+at (?:Object\.<anonymous> \()?(?:file:\/\/)?((?:[A-Za-z]:)?[^\s():]+):(\d+):(\d+)\)?\s*$/;

export function createMochaParser(sink: ParserSink) {
  const listing: { indent: number; title: string }[] = [];
  let failingSection = false;
  let blankRun = 0;
  /**
   * The failure section's blank lines reached its end mark: the section ends at the next line unless that line is the
   * next numbered entry (`  3) ` after `  2) `, within `N failing`): an entry whose error has no stack (`Uncaught
   * AssertionError: …` and no `at` frame) prints its empty stack as a blank line of its own, two blanks in a row.
   */
  let endingAfter: number | null = null;
  /** The number of the failure section's last entry. */
  let lastEntry = 0;
  let seenCounts = false;
  /**
   * Mocha's epilogue prints `N passing` first, always (`0 passing` too), then `N pending`, then `N failing`: a
   * `failing` count with no `passing` count right above it (only blank lines and the other counts between) is a
   * test's own output (a test printing a report), not mocha's; its numbered entries are read as loose blocks.
   */
  let passingAbove = false;
  let block: {
    titles: string[];
    titleDone: boolean;
    buf: BlockBuffer;
    indent: number;
    /** The message began: no more title lines. */
    body?: boolean;
    /** Lines of `buf` up to the last title line (blank lines between titles when double-spaced). */
    titleLines?: number;
  } | null = null;
  /**
   * Every line followed by a blank one (CircleCI's step output pasted from its web view): seen as a blank line
   * between mocha's count lines, which it prints one under the other. Its failure list's blank lines are doubled.
   */
  let doubleSpaced = false;
  let blanksAfterCount = -1;
  /** Listing lines are only trusted once a mocha marker shows up; until then they are buffered. */
  const listed: { id: string; outcome: "passed" | "failed" | "skipped" }[] = [];
  /** The spec tree's id of each failed test by its number (`1) title` under its describes). */
  const failedByNumber = new Map<string, string>();
  /** The same entries' titles apart (a title may itself hold ` > `: `subCount > 9`, so the id is not split back). */
  const failedTitlesByNumber = new Map<string, string[]>();
  /**
   * Each numbered entry's describe levels the listing lost above it (a paste drops the first line's indentation, so
   * its top describe at the left margin is not read): the entry's indent says how many it has.
   */
  const missingLevels = new Map<string, number>();
  /** Where each numbered spec-tree entry was listed, and the ids a failure block reported. */
  const listedAt = new Map<string, { line: number; text: string }>();
  const reported = new Set<string>();
  const reportedNumbers = new Set<string>();
  /** The last `N failing` count: numbered entries become failures without details only under it, at most N. */
  let failingCount = 0;
  /**
   * A failure block seen without mocha's counts (a paste that starts at it, or a runner that prints its own
   * total, like `6 tests failed.`): kept only when its title ends with `:` and an error and an `at` frame follow.
   */
  let loose: {
    titles: string[];
    titleDone: boolean;
    buf: BlockBuffer;
    error: boolean;
    frame: boolean;
    /**
     * The error is node's `AssertionError` (`assert.deepEqual`'s `[…] deepEqual […]`), whose stack mocha may print
     * empty (every frame mocha's own, filtered): it stands for the frame, as mocha's timeout message does.
     */
    assertion?: boolean;
    /** Opened at an indent other than mocha's 2 (a paste or a reporter that shifted it): one-line titles only. */
    oneLine?: boolean;
    /** The number line's indent: the entry's error and frames sit deeper. */
    indent: number;
  } | null = null;

  function endLoose(): void {
    const l = loose;
    loose = null;
    if (!l?.titleDone || !l.error || !(l.frame || l.assertion)) return;
    // Old mocha's one-line entry (`1) Suite test:`) opened at another indent than 2 is read only with its titles whole
    // on the number line.
    if (l.oneLine && l.titles.length !== 1) return;
    block = { titles: l.titles, titleDone: true, buf: l.buf, indent: 2 };
    flush();
  }

  function flush(): void {
    if (!block) return;
    const b = block;
    block = null;
    // Old mocha joins the titles with spaces on one line (`1) Suite inner test:`): the spec tree's entry of the
    // same number, its titles joined the same way, gives the describes apart.
    let id = b.titles.join(" > ");
    const num = /^ {2}(\d+)\) /.exec(b.buf.lines[0] ?? "")?.[1];
    const listedId = num === undefined ? undefined : failedByNumber.get(num);
    if (b.titles.length === 1 && listedId) {
      const spaced = (failedTitlesByNumber.get(num!) ?? [listedId]).join(" ");
      if (spaced === b.titles[0]) id = listedId;
      // One top describe lost from the listing: the failure's joined titles spell it before the listed ones.
      else if (missingLevels.get(num!) === 1 && b.titles[0]!.endsWith(` ${spaced}`)) {
        const top = b.titles[0]!.slice(0, -spaced.length - 1).trim();
        if (top !== "") id = `${top} > ${listedId}`;
      }
    }
    const body = dedent(b.buf.lines.slice(b.titleLines ?? b.titles.length)).filter((l) => l.trim() !== "");
    let errorType: string | null = null;
    const messageLines: string[] = [];
    for (const l of body) {
      if (/^\s*at /.test(l) || /^\s*\+ expected - actual/.test(l)) break;
      if (!errorType) {
        const e = errorLine(l.trim());
        if (e) {
          errorType = e.type;
          messageLines.push(e.message);
          continue;
        }
      }
      messageLines.push(l.trim());
    }
    const loc = jsFrameLocation(body, sink);
    const hook = /^"(before|after)( all| each)?" hook/.exec(b.titles[b.titles.length - 1] ?? "");
    sink.failure({
      category: "test",
      test: id,
      file: loc?.file ?? null,
      line: loc?.line ?? null,
      column: loc?.column ?? null,
      errorType,
      message: messageLines.join("\n").trim() || id,
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
    sink.test(id, hook ? "error" : "failed");
    reported.add(id);
    if (num !== undefined) reportedNumbers.add(num);
  }

  /**
   * A paste cut after the counts (`5 failing` and nothing after it, or only some of the blocks): a test the spec
   * tree numbered as failed is still a failure, without details.
   */
  function listedWithoutBlocks(): void {
    if (!seenCounts || failingCount === 0) return;
    let room = failingCount - reportedNumbers.size;
    for (const [num, id] of failedByNumber) {
      if (reported.has(id) || reportedNumbers.has(num)) continue;
      if (room-- <= 0) break;
      const at = listedAt.get(num);
      reported.add(id);
      sink.failure({
        category: "test",
        test: id,
        file: null,
        line: null,
        column: null,
        errorType: null,
        message: `${id} (the log has no failure details for it)`,
        stack: at?.text ?? "",
        start: at?.line ?? 0,
        end: at?.line ?? 0,
      });
    }
  }

  /** A line while a loose block is open; false when it ended the block (the line is then read as usual). */
  function looseLine(text: string, lineNo: number): boolean {
    const l = loose!;
    const t = text.trim();
    if (
      /^ {2}\d+\) /.test(text) ||
      (l.oneLine && LOOSE_ONE_LINE.test(text)) ||
      COUNT.test(text) ||
      (l.frame && t !== "" && text.charCodeAt(0) !== 32) ||
      (l.oneLine && t !== "" && indentOf(text) <= l.indent) ||
      l.buf.lines.length > 200
    ) {
      endLoose();
      return false;
    }
    l.buf.push(text, lineNo);
    if (t === "") return true;
    if (!l.titleDone) {
      // Title lines come right after the number, deeper, the last one ending with `:`.
      if (!/^ {5}/.test(text) || PASS.test(text) || l.buf.lines.filter((x) => x.trim() !== "").length > 4) {
        loose = null;
        return true;
      }
      l.titleDone = t.endsWith(":");
      l.titles.push(t.replace(/:$/, ""));
      return true;
    }
    // `Uncaught AssertionError: …`: mocha's own words for an error thrown outside the test's promise chain.
    if (!l.error && errorLine(t.replace(/^Uncaught /, ""))) {
      l.error = true;
      // Mocha's own timeout message stands for the frame it has none of.
      if (MOCHA_TIMEOUT.test(t)) l.frame = true;
      // Only for old mocha's one-line entry pasted off mocha's indent: at mocha's own indent, a block with no frame
      // stays no failure (a listing that looks like one).
      if (l.oneLine && NODE_ASSERTION.test(t)) l.assertion = true;
    } else if (l.error && /^at \S/.test(t)) l.frame = true;
    return true;
  }

  /**
   * An error at the left margin with its stack (`TypeError: …` then `    at …` frames): kept until the stack ends, to
   * see whether it is a spec file that failed to load.
   */
  let marginError: { text: string; frames: string[]; start: number; end: number } | null = null;
  /**
   * A spec file that threw while mocha loaded it, before any test ran (a `describe` body's TypeError): mocha prints
   * the error and its stack and stops. The stack runs through mocha's interface (`describe` calling its body) and its
   * outermost frame outside node_modules is the file's top level, called by node's module loader. The failure is the
   * file's (no test id), placed at the stack's first frame in that file. An error of a test's body (mocha's runner
   * frames, no loader) or of an application (no mocha interface frame) is not this.
   */
  function endMarginError(): void {
    const e = marginError;
    marginError = null;
    if (!e || e.frames.length < 2 || !e.frames.some((l) => MOCHA_INTERFACE_FRAME.test(l))) return;
    const loader = e.frames.findIndex((l) => LOADER_FRAME.test(l));
    if (loader < 1) return;
    const top = TOP_LEVEL_FRAME.exec(e.frames[loader - 1]!);
    if (!top || /node_modules[\\/]/.test(top[1]!) || top[1]!.startsWith("node:")) return;
    const outer = jsFrameLocation([e.frames[loader - 1]!, ...e.frames], sink);
    if (!outer) return;
    const file = machineTestFile(outer.file);
    const at = jsFrameLocation(e.frames, sink, (f) => f === outer.file) ?? outer;
    const err = errorLine(e.text)!;
    sink.failure({
      category: "import",
      test: null,
      file,
      line: at.line,
      column: at.column,
      errorType: err.type,
      message: err.message,
      stack: [e.text, ...e.frames.map((l) => l.trim())].join("\n"),
      start: e.start,
      end: e.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (marginError) {
        if (/^\s+at \S/.test(text) && marginError.frames.length < 100) {
          marginError.frames.push(text);
          marginError.end = lineNo;
        } else endMarginError();
      }
      if (!marginError && !block && !loose && /^[A-Za-z]/.test(text) && text.length < 2000 && errorLine(text))
        marginError = { text, frames: [], start: lineNo, end: lineNo };
      if (blanksAfterCount >= 0 && text.trim() === "") blanksAfterCount++;
      const counted = text.charCodeAt(0) === 32 ? COUNT.exec(text) : null;
      // A paste's first line may have lost its indentation (`113 passing (41s)` at the margin).
      if (counted?.[2] === "passing" || (!counted && PASSING_AT_MARGIN.test(text))) passingAbove = true;
      else if (!counted && text.trim() !== "") passingAbove = false;
      if (loose && !failingSection) {
        if (looseLine(text, lineNo)) return false;
      }
      if (!failingSection && !seenCounts && !loose) {
        const o = LOOSE_ONE_LINE.exec(text);
        if (o && o[1]!.length !== 2) {
          loose = {
            titles: [o[3]!.replace(/:$/, "")],
            titleDone: true,
            buf: new BlockBuffer(),
            error: false,
            frame: false,
            oneLine: true,
            indent: o[1]!.length,
          };
          loose.buf.push(text, lineNo);
          return false;
        }
      }
      // Before the failure details, every mocha line this parser reads is indented.
      if (!failingSection && text.charCodeAt(0) !== 32) return false;
      const c = counted;
      if (c?.[2] === "failing" && !passingAbove && !failingSection) return false;
      if (c) {
        if (blanksAfterCount > 0) doubleSpaced = true;
        blanksAfterCount = 0;
        endLoose();
        if (!seenCounts) for (const t of listed) sink.test(t.id, t.outcome);
        listed.length = 0;
        seenCounts = true;
        sink.summary(
          c[2] === "passing"
            ? { passed: Number(c[1]), failed: 0 }
            : c[2] === "failing"
              ? { failed: Number(c[1]) }
              : { skipped: Number(c[1]), failed: 0 },
        );
        if (c[2] === "failing") {
          failingSection = true;
          failingCount = Number(c[1]);
        }
        return true;
      }
      if (failingSection) {
        // Mocha ends its failure details with two blank lines; whatever follows is another tool's.
        blankRun = text.trim() === "" ? blankRun + 1 : 0;
        if (endingAfter !== null && blankRun === 0) {
          const next = /^ {2}(\d+)\) /.exec(text);
          const continues =
            next !== null && Number(next[1]) === endingAfter + 1 && endingAfter < failingCount;
          endingAfter = null;
          if (!continues) {
            failingSection = false;
            return this.line(text, lineNo);
          }
        }
        if (endingAfter === null && blankRun >= (doubleSpaced ? 5 : 2)) {
          flush();
          endingAfter = lastEntry;
          return true;
        }
        if (endingAfter !== null) return false;
        const f = /^ {2}(\d+)\) (.+)$/.exec(text);
        if (f) {
          flush();
          lastEntry = Number(f[1]);
          block = {
            titles: [f[2]!.trim()],
            titleDone: f[2]!.trimEnd().endsWith(":"),
            buf: new BlockBuffer(),
            indent: 2,
          };
          if (block.titleDone) block.titles[0] = block.titles[0]!.replace(/:$/, "");
          block.buf.push(text, lineNo);
          return true;
        }
        if (block) {
          block.buf.push(text, lineNo);
          const t = text.trim();
          if (t === "" || block.body) return true;
          // Mocha puts the `:` after the last title only, and indents each title after the first by two more than the
          // one before (7, 9, … spaces; the message comes at 5): a title line after one that ended with `:` shows
          // that colon was the title's own (`describe('with real redis:')`).
          if (block.titleDone && /^ {7}/.test(text) && !/^at /.test(t) && !errorLine(t)) {
            block.titles[block.titles.length - 1] += ":";
            block.titleDone = false;
          }
          if (!block.titleDone) {
            block.titleDone = t.endsWith(":");
            block.titles.push(t.replace(/:$/, ""));
            block.titleLines = block.buf.lines.length;
          } else block.body = true;
          return true;
        }
        return text.trim() === "";
      }
      // The listing before the counts.
      const p = PASS.exec(text) ?? null;
      const f = p ? null : FAIL.exec(text);
      const s = p || f ? null : PENDING.exec(text);
      const m = p ?? f ?? s;
      if (m) {
        const indent = m[1]!.length;
        popToIndent(listing, indent);
        const title = (p ? p[2] : f ? f[3] : s![2])!;
        const id = [...listing.map((x) => x.title), title].join(" > ");
        listed.push({ id, outcome: p ? "passed" : f ? "failed" : "skipped" });
        if (f && failedByNumber.size < 10_000) {
          failedByNumber.set(f[2]!, id);
          failedTitlesByNumber.set(f[2]!, [...listing.map((x) => x.title), title]);
          listedAt.set(f[2]!, { line: lineNo, text });
          // Mocha indents a root describe by 2 and each level below by 2 more: an entry at 4 + 2k under k levels
          // (all deeper than 2) has lost only its top describe.
          const levels = listing.length;
          if (indent === 4 + 2 * levels && listing.every((x, i) => x.indent === 4 + 2 * i))
            missingLevels.set(f[2]!, 1);
          else missingLevels.delete(f[2]!);
        }
        // A numbered title at the left margin may open a failure block that has no counts before it.
        if (f && indent === 2 && !seenCounts) {
          endLoose();
          const t = f[3]!.trimEnd();
          loose = {
            titles: [t.replace(/:$/, "")],
            titleDone: t.endsWith(":"),
            buf: new BlockBuffer(),
            error: false,
            frame: false,
            indent: 2,
          };
          loose.buf.push(text, lineNo);
        }
        if (listed.length > 10_000) listed.shift();
        return false;
      }
      const t = TITLE.exec(text);
      if (t && t[1]!.length >= 2 && t[1]!.length % 2 === 0 && text.length < 300) {
        const indent = t[1]!.length;
        popToIndent(listing, indent);
        listing.push({ indent, title: t[2]!.trim() });
      }
      return false;
    },
    end(): void {
      endMarginError();
      endLoose();
      flush();
      listedWithoutBlocks();
    },
  };
}

export const mochaFormat: FormatDefinition = {
  name: "mocha",
  description: "Mocha spec reporter",
  create: createMochaParser,
};
