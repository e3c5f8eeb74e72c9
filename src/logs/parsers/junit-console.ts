/**
 * The JUnit Platform Console Launcher (`java -jar junit-platform-console-standalone.jar execute …`, and builds that run
 * it: Gradle's old `junitPlatformTest`, an exec plugin): its default `--details=tree` output, then the summary.
 *
 * - The tree, printed once the run is over: `╷`, then `├─ JUnit Jupiter ✔`, `│  └─ CalcTest ✔`,
 *   `│     ├─ adds() ✔`, `│     └─ subtracts() ✘ expected: <1> but was: <2>` (the ASCII theme: `.`, `+-- x [OK]`,
 *   `'-- y [X] message`). Depth 0 is the engine, then the class (nested classes below it), the method, a
 *   parameterized method's `[n] …` invocations. `↷` is skipped, `■` aborted (an assumption failed).
 * - `Failures (N):` with one entry per failure: `  JUnit Jupiter:CalcTest:subtracts()` (the display names from the
 *   engine down, joined with `:`), `    MethodSource [className = 'pkg.CalcTest', methodName = 'subtracts',
 *   methodParameterTypes = '']` (`ClassSource [className = …]` for a class whose `@BeforeAll` failed; JUnit 5.0's
 *   `JavaMethodSource [javaClass = …, javaMethodName = …]`), `    => exception: message`, the frames indented seven
 *   spaces without `at `, `[...]`, `Caused by:`/`Suppressed:`.
 * - The count table: `[         4 tests successful      ]`, `[         1 tests failed          ]`, and the same for
 *   containers.
 *
 * The id is the JUnit XML one (docs/test-ids.md): `pkg.Class.method`, nested classes joined with `$`, a method with
 * parameters `method(int, String)` (simple type names), a parameterized invocation `[n]` after it; a class-level
 * failure is the class. The failure entry's source names the class in full; the tree's passing tests of the same
 * class take its package from it (the tree prints simple names only). Everything is held until the count table and
 * reported as it says: a table with no failed test or container reports no failure, whatever the tests printed
 * before it. A log cut before the table keeps the failure entries that reached their `=>` line.
 */
import { categoryOfError, type FormatDefinition, own, type ParserSink } from "../parser.ts";
import { summarizeJava } from "./java-frames.ts";

type Outcome = "passed" | "failed" | "skipped";

interface Theme {
  unit: number;
  entry: RegExp;
  status: RegExp;
  icons: Record<string, Outcome>;
}

// The prefix's alternatives start with different characters, so the prefix is read one way only.
const UNICODE: Theme = {
  unit: 3,
  entry: /^((?:│ {2}| {3})*)(?:├─|└─) (\S.*)$/,
  status: /^(.+?) (✔|■|✘|↷)(?= |$)/,
  icons: { "✔": "passed", "■": "skipped", "✘": "failed", "↷": "skipped" },
};
const ASCII: Theme = {
  unit: 2,
  entry: /^((?:\| | {2})*)(?:\+--|'--) (\S.*)$/,
  status: /^(.+?) (\[OK\]|\[A\]|\[X\]|\[S\])(?= |$)/,
  icons: { "[OK]": "passed", "[A]": "skipped", "[X]": "failed", "[S]": "skipped" },
};

const FAILURES = /^Failures \((\d+)\):$/;
const HEADER = /^ {2}(\S.*)$/;
const METHOD_SOURCE =
  /^ {4}(?:Java)?MethodSource \[(?:className|javaClass) = '([^']*)', (?:methodName|javaMethodName) = '([^']*)', (?:methodParameterTypes|javaMethodParameterTypes) = '([^']*)'\]$/;
const CLASS_SOURCE = /^ {4}(?:Java)?ClassSource \[(?:className|javaClass) = '([^']*)'/;
const OTHER_SOURCE = /^ {4}\w+Source \[/;
const THROWN = /^ {4}=> (.*)$/;
/** A frame as the summary prints it: seven spaces, no `at `. */
const FRAME = /^ {7}(?:[\w.-]+\/\/?)?[\w$.]+\.[\w$<>]+\([^()]*\)$/;
const ELIDED = /^ +\[\.\.\.\]$/;
const NESTED = /^ {5,}(?:Caused by|Suppressed): /;
const TABLE = /^\[ *(\d+) (containers|tests) (found|skipped|started|aborted|successful|failed) *\]$/;
const DURATION = / \d+ ms$/;
const MAX_DEPTH = 16;
const MAX_NAME = 2_000;

interface Leaf {
  path: string[];
  outcome: Outcome;
  message: string[];
  line: number;
}

interface Entry {
  header: string;
  cls: string | null;
  method: string | null;
  types: string;
  thrown: string[];
  frames: string[];
  start: number;
  end: number;
}

/** `java.lang.String, int[]` → `String, int[]`: the names the method's display name and Surefire's report use. */
function simpleTypes(types: string): string {
  return types
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "")
    .map((t) => t.slice(t.lastIndexOf(".") + 1))
    .join(", ");
}

/** The `[n]` of a parameterized invocation at the end of a description (`…:adds(int, int):[2] 3, 4`). */
function invocationOf(description: string): string {
  const i = description.lastIndexOf(":[");
  if (i < 0) return "";
  const m = /^:\[(\d+)\]/.exec(description.slice(i));
  return m ? `[${m[1]}]` : "";
}

function entryId(e: Entry): string {
  if (e.cls !== null && e.method !== null) {
    const types = simpleTypes(e.types);
    return `${e.cls}.${e.method}${types ? `(${types})` : ""}${invocationOf(e.header)}`;
  }
  if (e.cls !== null) return e.cls;
  // No source printed: the display names below the engine.
  const parts = e.header.split(":");
  return parts
    .slice(parts.length > 1 ? 1 : 0)
    .map((p) => p.replace(/\(\)$/, ""))
    .join(".");
}

export function createJunitConsoleParser(sink: ParserSink) {
  let theme: Theme | null = null;
  /** The root line was just seen: the tree starts if the next line is an entry. */
  let rooted: Theme | null = null;
  const stack: { name: string; depth: number }[] = [];
  let prev: { name: string; depth: number; outcome: Outcome | null; message: string[]; line: number } | null =
    null;
  const leaves: Leaf[] = [];
  const engines = new Set<string>();

  let section = false;
  let entry: Entry | null = null;
  /** Where the entry under way is: its message (after `=>`), or its frames. */
  let part: "head" | "message" | "frames" = "head";
  const entries: Entry[] = [];

  const table = new Map<string, number>();

  function closeLeaf(isLeaf: boolean): void {
    if (!prev) return;
    if (isLeaf) {
      // An engine is no test; a class is one only when it failed with no test under it (its `@BeforeAll`).
      const counted = prev.depth >= 2 || (prev.depth === 1 && prev.outcome === "failed");
      if (prev.outcome !== null && counted && leaves.length < 20_000)
        leaves.push({
          path: [...stack.map((s) => s.name), prev.name],
          outcome: prev.outcome,
          message: prev.message,
          line: prev.line,
        });
    } else stack.push({ name: prev.name, depth: prev.depth });
    prev = null;
  }

  function endTree(): void {
    closeLeaf(true);
    stack.length = 0;
    theme = null;
  }

  function treeLine(t: Theme, text: string, lineNo: number): boolean {
    const m = t.entry.exec(text);
    if (!m) return false;
    const depth = m[1]!.length / t.unit;
    if (!Number.isInteger(depth)) return false;
    // Deeper than any engine, class, nested class, method and invocation go: a line of the tree, kept out of the
    // paths, so that a leaf's path (copied per leaf) stays bounded.
    if (depth > MAX_DEPTH) return true;
    const rest = m[2]!;
    const s = t.status.exec(rest);
    const name = (s ? s[1]! : rest).replace(DURATION, "").slice(0, MAX_NAME);
    if (prev) closeLeaf(depth <= prev.depth);
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= depth) stack.pop();
    if (depth === 0) engines.add(own(name));
    const message = s && rest.length > s[0].length + 1 ? [own(rest.slice(s[0].length + 1))] : [];
    prev = { name: own(name), depth, outcome: s ? t.icons[s[2]!]! : null, message, line: lineNo };
    return true;
  }

  function closeEntry(): void {
    if (entry && entry.thrown.length > 0 && entries.length < 1_000) entries.push(entry);
    entry = null;
    part = "head";
  }

  function isHeader(text: string): boolean {
    const h = HEADER.exec(text);
    if (!h) return false;
    if (part === "head" || part === "frames") return true;
    // Inside a message (an exception's own lines are printed as they are), only an engine's name opens an entry.
    const head = h[1]!;
    if (head.startsWith("JUnit ")) return true;
    for (const e of engines) if (head === e || head.startsWith(`${e}:`)) return true;
    return false;
  }

  function sectionLine(text: string, lineNo: number): boolean {
    if (isHeader(text)) {
      closeEntry();
      entry = {
        header: own(HEADER.exec(text)![1]!),
        cls: null,
        method: null,
        types: "",
        thrown: [],
        frames: [],
        start: lineNo,
        end: lineNo,
      };
      return true;
    }
    if (!entry) {
      section = false;
      return false;
    }
    if (part === "head") {
      const ms = METHOD_SOURCE.exec(text);
      if (ms) {
        entry.cls = own(ms[1]!);
        entry.method = own(ms[2]!);
        entry.types = own(ms[3]!);
        entry.end = lineNo;
        return true;
      }
      const cs = CLASS_SOURCE.exec(text);
      if (cs) {
        entry.cls = own(cs[1]!);
        entry.end = lineNo;
        return true;
      }
      if (OTHER_SOURCE.test(text)) {
        entry.end = lineNo;
        return true;
      }
      const th = THROWN.exec(text);
      if (th) {
        entry.thrown.push(own(th[1]!));
        entry.end = lineNo;
        part = "message";
        return true;
      }
      closeEntry();
      section = false;
      return false;
    }
    if (FRAME.test(text) || NESTED.test(text) || ELIDED.test(text)) {
      part = "frames";
      if (entry.frames.length < 60) entry.frames.push(own(text));
      entry.end = lineNo;
      return true;
    }
    if (part === "message" && entry.thrown.length < 40 && !/^Test run finished after /.test(text)) {
      entry.thrown.push(own(text));
      entry.end = lineNo;
      return true;
    }
    closeEntry();
    section = false;
    return false;
  }

  /** The classes a failure entry names in full, by their display path (`JUnit Jupiter:Outer:Inner`). */
  function classPaths(): Map<string, string> {
    const out = new Map<string, string>();
    for (const e of entries) {
      if (e.cls === null) continue;
      const simple = e.cls.slice(e.cls.lastIndexOf(".") + 1).split("$");
      const parts = e.header.split(":");
      if (parts.length < simple.length + 1) continue;
      out.set(parts.slice(0, simple.length + 1).join(":"), e.cls);
    }
    return out;
  }

  function leafId(path: string[], classes: Map<string, string>): string {
    // [engine, class, (nested…), method, ([n] invocation)]
    let end = path.length - 1;
    let invocation = "";
    const inv = /^\[(\d+)\]/.exec(path[end]!);
    if (inv && end >= 2) {
      invocation = `[${inv[1]}]`;
      end--;
    }
    if (end <= 1) return path.slice(1).join("$");
    const method = path[end]!.replace(/\(\)$/, "");
    let cls = path.slice(1, end).join("$");
    for (let k = end; k >= 2; k--) {
      const full = classes.get(path.slice(0, k).join(":"));
      if (full !== undefined) {
        cls = [full, ...path.slice(k, end)].join("$");
        break;
      }
    }
    return `${cls}.${method}${invocation}`;
  }

  function report(): void {
    const failedTests = table.get("tests failed") ?? 0;
    const failedContainers = table.get("containers failed") ?? 0;
    const seenTable = table.has("tests failed");
    const green = seenTable && failedTests === 0 && failedContainers === 0;
    const classes = classPaths();
    const reported = new Map<string, string>();
    if (!green) {
      for (const e of entries) {
        const id = entryId(e);
        const cls = e.cls?.replace(/\$.*$/, "") ?? null;
        const frames = e.frames
          .filter((f) => !ELIDED.test(f))
          .map((f) => (FRAME.test(f) ? `at ${f.trim()}` : f));
        const lines = [...e.thrown, ...frames];
        const j = summarizeJava(lines, cls, sink);
        sink.test(id, "failed", j.location?.file ?? null);
        sink.failure({
          category: categoryOfError(j.errorType, "test"),
          test: id,
          file: j.location?.file ?? null,
          line: j.location?.line ?? null,
          errorType: j.errorType,
          message: j.message || e.thrown.join("\n"),
          stack: [`  ${e.header}`, ...e.thrown, ...e.frames].join("\n"),
          start: e.start,
          end: e.end,
        });
        reported.set(e.header, id);
      }
    }
    for (const l of leaves) {
      const key = l.path.join(":");
      if (reported.has(key)) continue;
      const id = leafId(l.path, classes);
      if (l.outcome !== "failed") {
        sink.test(id, l.outcome);
        continue;
      }
      // A failed tree entry with no entry of its own in `Failures (N):` (a log cut inside that list).
      if (green) continue;
      sink.test(id, "failed");
      sink.failure({
        category: "test",
        test: id,
        message: l.message.join("\n") || `${l.path[l.path.length - 1]} failed`,
        stack: l.message.join("\n") || null,
        start: l.line,
        end: l.line,
      });
    }
    if (seenTable)
      sink.summary({
        passed: table.get("tests successful") ?? 0,
        failed: failedTests,
        skipped: (table.get("tests skipped") ?? 0) + (table.get("tests aborted") ?? 0),
        error: failedContainers,
      });
    leaves.length = 0;
    entries.length = 0;
    engines.clear();
    table.clear();
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (theme) {
        if (treeLine(theme, text, lineNo)) return true;
        // A message's further lines, printed under the entry with the tree's bars.
        if (prev && text !== "" && /^[│| ]/.test(text) && prev.message.length < 40) {
          prev.message.push(own(text.replace(/^[│| ]+/, "")));
          return true;
        }
        endTree();
      }
      if (rooted) {
        const t = rooted;
        rooted = null;
        if (treeLine(t, text, lineNo)) {
          theme = t;
          return true;
        }
      }
      const c0 = text.charCodeAt(0);
      if (text === "╷" || text === ".") {
        rooted = text === "╷" ? UNICODE : ASCII;
        return text === "╷";
      }
      // A tree pasted without its root line: an engine's entry opens it.
      if ((c0 === 0x251c || c0 === 0x2514) && /^[├└]─ JUnit /.test(text) && treeLine(UNICODE, text, lineNo)) {
        theme = UNICODE;
        return true;
      }
      if (section && sectionLine(text, lineNo)) return true;
      if (c0 === 70 /* F */) {
        const f = FAILURES.exec(text);
        if (f) {
          closeEntry();
          section = true;
          return true;
        }
      }
      if (c0 === 91 /* [ */) {
        const t = TABLE.exec(text);
        if (t) {
          closeEntry();
          section = false;
          table.set(`${t[2]} ${t[3]}`, Number(t[1]));
          if (t[2] === "tests" && t[3] === "failed") report();
          return true;
        }
      }
      if (c0 === 84 /* T */ && /^Test run finished after \d+ ms$/.test(text)) {
        closeEntry();
        section = false;
        return true;
      }
      return false;
    },
    end(): void {
      if (theme) endTree();
      closeEntry();
      if (entries.length > 0 || leaves.length > 0 || table.size > 0) report();
    },
  };
}

export const junitConsoleFormat: FormatDefinition = {
  name: "junit-console",
  description:
    "JUnit Platform Console Launcher (the test tree, `Failures (N):` with MethodSource, the count table)",
  create: createJunitConsoleParser,
  // Fresh, only these lines are asked (the tree, `Failures (`, the table, `Test run finished`).
  wakesOn:
    /^(?:╷$|\.$|[├└]─ JUnit |Failures \(\d+\):$|\[ *\d+ (?:containers|tests) |Test run finished after )/,
};
