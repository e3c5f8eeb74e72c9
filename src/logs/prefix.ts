/**
 * Line prefixes that a log carries on every line of a stretch and that no format parser reads: a package
 * build service's elapsed time (`[   26s] `), a build tool's level wrapping another tool's output
 * (`[INFO] --- FAIL: TestX`), docker-compose's service column (`web_1  | `), turborepo's task column
 * (`@acme/web:test: `), a clock (`[12:03:44] `, or Jenkins timestamper's bare `12:03:44 `), a markdown quote (`> `),
 * a quote around a clock (`> 12:03:44 `, a Jenkins console pasted as a quote), and a Nix build's derivation name
 * (`pytest-mpl> `), Docker BuildKit's step and clock (`#98 55.71 `), concurrently's column inside turborepo's
 * (`@acme/web:test: [test:e2e  ] `), mock's build log (`DEBUG: `), and a web view's line numbers (`642\t`, before any of these). The rule: a prefix of one of these shapes that opens at least RUN consecutive
 * lines is framing, and the parsers see those lines without it. The shape, not the exact text, is
 * compared (`[   26s] ` then `[   27s] `), except docker-compose's and turborepo's, whose name must repeat.
 *
 * A parser that reads a prefix itself (Surefire reads Maven's `[INFO]`/`[ERROR]`) declares its shape and is
 * offered the line as printed, before the others.
 */

/**
 * The shapes: `elapsed` `[  26s] `, `level` `[INFO] `, `clock` `[12:03:44] `, `quote` `> `, `service:name` `web_1  | `,
 * `nix:name` `pytest-mpl> `.
 */
export type PrefixShape = string;

export interface Prefix {
  shape: PrefixShape;
  /** Characters the prefix takes at the start of the line. */
  length: number;
}

/** Consecutive lines that must open with the same shape before it counts as framing. */
export const RUN = 3;

const LEVELS = new Set(["INFO", "ERROR", "WARNING", "WARN", "DEBUG", "TRACE", "FATAL", "NOTICE"]);
const ELAPSED = /^\[ *\d+(?:\.\d+)?s\] ?/;
const CLOCK = /^\[(?:\d{4}-\d\d-\d\d[T ])?\d\d:\d\d:\d\d(?:[.,]\d+)?Z?\] ?/;
/** autopkgtest's elapsed seconds, bare: `148s ` (the line's text may be empty). */
const AUTOPKGTEST = /^\d{1,6}s(?: |$)/;
/** Jenkins timestamper's default: `12:04:11 ` before each line, no brackets. */
const BARE_CLOCK = /^\d\d:\d\d:\d\d(?:[.,]\d{1,6})?(?: |$)/;
const SERVICE = /^([A-Za-z0-9][\w.-]{0,62}?)(?:[_-]\d+)? *\| ?/;
/** turborepo: an npm package name (lowercase, maybe scoped), its task (`test`, `dev:test`), a colon. */
const TURBO = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][a-z0-9._-]*:[a-z0-9][\w.-]*(?::[\w.-]+)*:)(?: |$)/;

/**
 * A workspace runner's package column (lerna `--stream`, `npm run --workspaces` wrappers, nx/rush/wireit-style
 * prefixers): a package name and `: ` (`@acme/web: `, `kettle-core: `). A scoped name, or an unscoped one with a hyphen:
 * a single word before a colon is a tool's message (`error: `, `go: `, `remote: `, `hint: `).
 */
const WORKSPACE = /^(@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*|[a-z0-9][a-z0-9_.]*-[a-z0-9_.-]*):(?: |$)/;
/**
 * Ant's task column: the task's name in brackets, right-aligned to column 11 and a space (`     [exec] `, `    [junit] `), before
 * each line a task prints (a test runner Ant's `exec` or `junit` task ran). Only the padded form: at column 0 a
 * bracketed word is a tool's own (`[gw0]`, `[info]`).
 */
const ANT_TASK = /^ {1,8}\[([A-Za-z][\w.-]{0,8})\](?: |$)/;
/** Docker BuildKit's plain progress: the step and the seconds since it started, `#98 55.71 ` (`#7 0.123 `). */
const BUILDKIT = /^#\d{1,5} +\d{1,6}\.\d{1,3} /;
/** concurrently's column inside a turborepo task's (`[test:e2e  ] `): a name, padded inside the brackets. */
const CONCURRENTLY = /^\[[\w.:@/-]{1,40} *\] /;

/**
 * The framing prefix shape a line opens with, or null. Cheap on lines that have none: one char test first.
 * A log copied from a web view that numbers its lines keeps the number and a tab before each (`642\t`); the number
 * is taken with the prefix after it and does not change its shape (the first line of a copy may lack it), or is
 * the shape itself (`lineno`) when nothing else follows.
 */
export function prefixOf(text: string): Prefix | null {
  const c0 = text.charCodeAt(0);
  if (c0 >= 48 && c0 <= 57) {
    let i = 1;
    while (i < 8 && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    if (text.charCodeAt(i) === 9) {
      const rest = framingOf(text.slice(i + 1));
      return rest ? { shape: rest.shape, length: i + 1 + rest.length } : { shape: "lineno", length: i + 1 };
    }
  }
  return framingOf(text);
}

/**
 * A web view's line numbers glued to the text (AppVeyor's console copied: `343`, `34397% tests passed`, `345Total …`):
 * which digits are the number only the next lines can tell, so a line that opens with a digit is a candidate the
 * stripper holds (shape GLUED, no length yet) when it has no other framing.
 */
export function gluedCandidate(text: string): Prefix | null {
  const c0 = text.charCodeAt(0);
  return c0 >= 48 && c0 <= 57 ? { shape: GLUED, length: 0 } : null;
}

/** The shape of a line that opens with digits and no other framing: maybe a glued line number. */
export const GLUED = "glued";
/**
 * What follows a number that is the log's own (a numbered list `1. a`, `2) b`, CTest's progress `3/5 Test #3`, a
 * range `1-3`, a count `1,000`): punctuation that continues it.
 */
const OWN_NUMBER = /^[./):\],-]/;
/** What only a glued number leaves: nothing (an empty line), or a letter or digit right after it. */
const GLUED_MARK = /^(?:$|[\p{L}\d])/u;

/**
 * Ant's task column, right-aligned to column 11 (`   [testng] `), right after the number: a Travis job's copied line
 * numbers glued to an Ant log (`277   [testng] FAILED: x`) leave it, which no numbered list or count does.
 */
function antColumn(rest: string): boolean {
  const m = rest.charCodeAt(0) === 32 ? ANT_TASK.exec(rest) : null;
  return m !== null && m[0].trimEnd().length === 11;
}

/**
 * The line numbers of `lines` if they open with consecutive numbers glued to their text (`343`, `34497%…`, `345Total`),
 * or null: none of them continues its number with punctuation (a list, a progress count), and one of them shows the
 * glue (the number alone, or a letter or digit right after it).
 */
export function gluedNumbers(lines: readonly string[]): number[] | null {
  const first = lines[0]!;
  let digits = 0;
  while (digits < 7 && first.charCodeAt(digits) >= 48 && first.charCodeAt(digits) <= 57) digits++;
  for (let len = 1; len <= digits; len++) {
    if (first.charCodeAt(0) === 48 && len > 1) break;
    const start = Number(first.slice(0, len));
    const rests = lines.map((l, i) => {
      const n = String(start + i);
      return l.startsWith(n) ? l.slice(n.length) : null;
    });
    if (
      rests.every((r) => r !== null && !OWN_NUMBER.test(r)) &&
      rests.some((r) => GLUED_MARK.test(r!) || antColumn(r!))
    )
      return lines.map((_, i) => start + i);
  }
  return null;
}

function framingOf(text: string): Prefix | null {
  const c0 = text.charCodeAt(0);
  if (c0 === 32 /* space */ || c0 === 114 /* r */) {
    const tail = nixTail(text);
    if (tail) return tail;
    // Ant's column is 1 to 8 spaces, then `[`: an indented line whose first other character is not a `[` (a jest
    // `✓` line, a stack frame) is passed over without the expression.
    let i = 1;
    while (c0 === 32 && i < 9 && text.charCodeAt(i) === 32) i++;
    if (c0 === 32 && i < 9 && text.charCodeAt(i) === 91) {
      const m = ANT_TASK.exec(text);
      // Right-aligned to Ant's column (the bracket closes at column 11); Playwright's `    [webkit] › a.spec.ts` is a
      // project label before its separator, not a column.
      if (m && m[0].trimEnd().length === 11 && !text.startsWith("› ", m[0].length))
        return { shape: `ant:${m[1]}`, length: m[0].length };
    }
  }
  if (c0 === 35 /* # */) {
    const m = BUILDKIT.exec(text);
    return m ? { shape: "buildkit", length: m[0].length } : null;
  }
  if (c0 === 91 /* [ */) {
    const close = text.indexOf("]", 1);
    if (close < 2 || close > 40) return null;
    const inner = text.slice(1, close);
    const sp = text.charCodeAt(close + 1) === 32 ? 1 : 0;
    if (LEVELS.has(inner)) return { shape: "level", length: close + 1 + sp };
    let m = ELAPSED.exec(text);
    if (m) return { shape: "elapsed", length: m[0].length };
    m = CLOCK.exec(text);
    if (m) return { shape: "clock", length: m[0].length };
    return null;
  }
  if (c0 === 62 /* > */) {
    const c1 = text.charCodeAt(1);
    if (text.length === 1) return { shape: "quote", length: 1 };
    if (c1 === 32) {
      const c2 = text.charCodeAt(2);
      const clock = c2 === 91 || (c2 >= 48 && c2 <= 57) ? prefixOf(text.slice(2)) : null;
      if (clock?.shape === "clock") return { shape: "quote+clock", length: 2 + clock.length };
      return { shape: "quote", length: 2 };
    }
    return null;
  }
  // autopkgtest (Debian's ci.debian.net): the seconds since the test started, bare, before each line (`148s `).
  if (c0 >= 48 && c0 <= 57) {
    const m = AUTOPKGTEST.exec(text);
    if (m) return { shape: "elapsed", length: m[0].length };
  }
  if (c0 >= 48 && c0 <= 57 && text.charCodeAt(2) === 58 /* : */) {
    const m = BARE_CLOCK.exec(text);
    if (m) return { shape: "clock", length: m[0].length };
  }
  if (c0 === 64 /* @ */ || (c0 >= 97 && c0 <= 122) || (c0 >= 48 && c0 <= 57)) {
    const colon = text.indexOf(":");
    if (colon > 0 && colon < 120 && text.charCodeAt(colon + 1) !== 32) {
      const m = TURBO.exec(text);
      if (m) {
        // turborepo running a task that runs several with concurrently: both columns, one framing.
        const inner = text.charCodeAt(m[0].length) === 91 ? CONCURRENTLY.exec(text.slice(m[0].length)) : null;
        if (inner)
          return { shape: `turbo:${m[1]}${inner[0].trimEnd()}`, length: m[0].length + inner[0].length };
        return { shape: `turbo:${m[1]}`, length: m[0].length };
      }
    }
    const after = text.charCodeAt(colon + 1);
    if (colon > 0 && colon < 120 && (after === 32 || Number.isNaN(after))) {
      const m = WORKSPACE.exec(text);
      if (m) return { shape: `workspace:${m[1]}`, length: m[0].length };
    }
  }
  // mock's build.log (a Fedora Copr/Koji build): Python logging's `DEBUG: ` before each line of the build's output.
  if (c0 === 68 /* D */ && text.startsWith("DEBUG:") && (text.length === 6 || text.charCodeAt(6) === 32))
    return { shape: "mock", length: text.length === 6 ? 6 : 7 };
  // docker-compose: a service name, padding, `|`. Scan the name by hand: most lines fail on their first word.
  if ((c0 >= 97 && c0 <= 122) || (c0 >= 48 && c0 <= 57) || (c0 >= 65 && c0 <= 90)) {
    let i = 1;
    const n = Math.min(text.length, 64);
    while (i < n) {
      const c = text.charCodeAt(i);
      if (
        (c >= 97 && c <= 122) ||
        (c >= 48 && c <= 57) ||
        (c >= 65 && c <= 90) ||
        c === 95 ||
        c === 45 ||
        c === 46
      )
        i++;
      else break;
    }
    // A Nix build's log (`nix build -L`, `nix log`): the derivation's name and `> ` before each line of its builder.
    if (text.charCodeAt(i) === 62 && text.charCodeAt(i + 1) === 32 && i < n) {
      return { shape: `nix:${text.slice(0, i)}`, length: i + 2 };
    }
    if (text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 124) return null;
    while (text.charCodeAt(i) === 32) i++;
    if (text.charCodeAt(i) !== 124) return null;
    const m = SERVICE.exec(text);
    if (!m) return null;
    return { shape: `service:${m[1]}`, length: m[0].length };
  }
  return null;
}

/**
 * Nix 2.4+ quoting a failed builder's log under its error (`error: builder for '…drv' failed with exit code 1;` then
 * `       last 25 log lines:` and each line as `       > line`): the seven columns of `error: ` and `> `, the line alone
 * `       >` when it was empty; behind `remote: ` when a remote builder ran it.
 */
function nixTail(text: string): Prefix | null {
  const from = text.startsWith("remote: ") ? 8 : 0;
  if (from === 0 && text.charCodeAt(0) !== 32) return null;
  for (let i = from; i < from + 7; i++) if (text.charCodeAt(i) !== 32) return null;
  if (text.charCodeAt(from + 7) !== 62 /* > */) return null;
  const after = text.charCodeAt(from + 8);
  if (after === 32) return { shape: "nix-tail", length: from + 9 };
  return Number.isNaN(after) ? { shape: "nix-tail", length: from + 8 } : null;
}

export interface PrefixStripper {
  /** True when no line is held and no run is in force: a line without a prefix then passes straight on. */
  idle(): boolean;
  /**
   * Takes the next line; returns the lines now decided, in order, each with the prefix to strip (null: none).
   * A line that may open a run is held until the run is confirmed or broken.
   */
  push(text: string, lineNo: number, tag: boolean, out: Decided[]): void;
  /** End of input: the held lines. */
  flush(out: Decided[]): void;
}

export interface Decided {
  text: string;
  lineNo: number;
  prefix: Prefix | null;
  /** Anything the engine carries along with the line (the `##[error]` flag). */
  tag: boolean;
}

/** `glued`: lines may open with glued line numbers (the outermost framing only). */
export function createPrefixStripper(options: { glued?: boolean } = {}): PrefixStripper {
  /** The shape of the run in force (its lines are stripped), or null. */
  let active: PrefixShape | null = null;
  /** In a run of glued line numbers: the number the next line must open with. */
  let nextNumber = 0;
  const held: Decided[] = [];
  let heldShape: PrefixShape | null = null;

  function release(out: Decided[], strip: boolean): void {
    for (const h of held) {
      if (!strip) h.prefix = null;
      out.push(h);
    }
    held.length = 0;
    heldShape = null;
  }

  return {
    idle() {
      return active === null && held.length === 0;
    },
    push(text, lineNo, tag, out) {
      const p = prefixOf(text) ?? (options.glued ? gluedCandidate(text) : null);
      if (active !== null) {
        if (active === GLUED) {
          // Any line of the run opens with its number, whatever follows it (other framing, digits).
          const number = String(nextNumber);
          if (text.startsWith(number)) {
            nextNumber++;
            out.push({ text, lineNo, prefix: { shape: GLUED, length: number.length }, tag });
            return;
          }
        } else if (p && p.shape === active) {
          out.push({ text, lineNo, prefix: p, tag });
          return;
        }
        active = null;
      }
      if (p === null) {
        if (held.length > 0) release(out, false);
        out.push({ text, lineNo, prefix: null, tag });
        return;
      }
      if (held.length > 0 && p.shape !== heldShape) release(out, false);
      heldShape = p.shape;
      held.push({ text, lineNo, prefix: p, tag });
      if (held.length >= RUN && p.shape === GLUED) {
        const numbers = gluedNumbers(held.map((h) => h.text));
        if (numbers === null) {
          // Not consecutive: the oldest line goes on as it is, the others may still open a run.
          const oldest = held.shift()!;
          oldest.prefix = null;
          out.push(oldest);
          return;
        }
        held.forEach((h, i) => {
          h.prefix = { shape: GLUED, length: String(numbers[i]).length };
        });
        active = GLUED;
        nextNumber = numbers[numbers.length - 1]! + 1;
        release(out, true);
      } else if (held.length >= RUN) {
        active = p.shape;
        release(out, true);
      }
    },
    flush(out) {
      release(out, false);
      active = null;
    },
  };
}
