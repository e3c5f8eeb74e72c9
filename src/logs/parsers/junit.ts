/**
 * JUnit XML (Maven Surefire, pytest --junitxml, vitest/jest-junit, gotestsum, …), read as a stream:
 * each `<testcase>` element is cut out of the text as it completes and parsed on its own with
 * fast-xml-parser, so a report of any size is read in bounded memory. Surefire's rerun markers
 * (`flakyFailure`/`flakyError` in a passing test, `rerunFailure`/`rerunError` in a failing one) and
 * testcases repeated by retries mark the test flaky.
 */
import { MAX_XML_ATTRIBUTES, overAttributed, REPORT_XML_OPTIONS, xmlStream } from "./xml-stream.ts";
import { XMLParser } from "fast-xml-parser";
import type { FailureCategory, TestOutcome } from "../failure.ts";
import { categoryOfError, type FailureDraft, type FormatDefinition, type ParserSink } from "../parser.ts";
import { sourcePath } from "./java-frames.ts";
import { rejoinTitles, titlesInFrames } from "./playwright-titles.ts";
import { summarizePanic } from "./rust-panic.ts";

// A directory or file name after the first may hold single spaces (`tests/deep dir/test_x.py:5: AssertionError`).
const PY_LOCATION =
  /^([^\s:/]*(?:\/(?:[^\s:/]| (?=[^\s:/]))+?)*?\.py):(\d+):(?: (\w+(?:Error|Exception)\w*))?/;
const PHP_FRAME = /^((?:[A-Za-z]:)?[^\s:/]*(?:\/(?:[^\s:/]| (?=[^\s:/]))+?)*?\.php):(\d+)$/;
const MAX_ELEMENT = 256 * 1024;
const xml = new XMLParser({
  ...REPORT_XML_OPTIONS,
  isArray: (_name: string, _path: unknown, _leaf: boolean, isAttribute: boolean) => !isAttribute,
  processEntities: true,
  htmlEntities: true,
});

type Node = Record<string, unknown>;

/** A C/C++ program's `file:line: message` report of a failed check (a relative source path). */
const C_REPORT = /^((?!\/)[\w./-]+\.(?:c|cc|cpp|cxx|h|hpp)):(\d+):(?:\d+:)? (\S.*)$/;

/** The attributes this parser reads; past MAX_XML_ATTRIBUTES of a tag only these are kept (wave 20). */
const KNOWN_ATTRIBUTES = new Set([
  "name",
  "classname",
  "class",
  "file",
  "line",
  "time",
  "status",
  "result",
  "package",
  "tests",
  "failures",
  "errors",
]);

function attrs(openTag: string): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  const re = /([\w:.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
  for (let m = re.exec(openTag); m; m = re.exec(openTag)) {
    if (++n > MAX_XML_ATTRIBUTES && (!KNOWN_ATTRIBUTES.has(m[1]!) || m[1]! in out)) continue;
    out[m[1]!] = decode(m[3] ?? m[4] ?? "");
  }
  return out;
}

function decode(s: string): string {
  return s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&amp;/g, "&");
}

function textOf(node: unknown): string {
  if (node === undefined || node === null) return "";
  if (typeof node === "string") return node;
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (typeof node === "object") {
    const n = node as Node;
    return typeof n["#text"] === "string"
      ? (n["#text"] as string)
      : Array.isArray(n["#text"])
        ? textOf(n["#text"])
        : "";
  }
  return String(node);
}

function first(node: Node, key: string): Node | null {
  const v = node[key];
  if (Array.isArray(v) && v.length > 0) return (typeof v[0] === "object" ? v[0] : { "#text": v[0] }) as Node;
  return null;
}

/** pytest's classname `tests.test_calc.TestDivZero` + name `test_zero` → `tests/test_calc.py::TestDivZero::test_zero`. */
/** A Java test method as the XML names it: `name{String, String}[3]` (Surefire 2) → `name(String, String)[3]`, `name()` → `name`. */
function javaMethod(m: string): string {
  return m.replace(/^([\w$]+)\{(.*)\}(\[\d+\])?$/, "$1($2)$3").replace(/\(\)$/, "");
}

function pytestNodeId(classname: string, name: string): string {
  if (!classname) return name.includes("/") || name.endsWith(".py") ? name : `${name.replace(/\./g, "/")}.py`;
  const parts = classname.split(".");
  const firstClass = parts.findIndex((p) => /^[A-Z]/.test(p));
  const modParts = firstClass === -1 ? parts : parts.slice(0, firstClass);
  const classParts = firstClass === -1 ? [] : parts.slice(firstClass);
  return [`${modParts.join("/")}.py`, ...classParts, name].join("::");
}

const KINDS = ["failure", "error", "skipped", "flakyFailure", "flakyError", "rerunFailure", "rerunError"];

/**
 * Attribute names fast-xml-parser refuses (it throws) or renames (its guard against prototype pollution): a
 * testcase naming one is not simple (`readTestcase`).
 */
const GUARDED_NAMES = new Set([
  "__proto__",
  "constructor",
  "prototype",
  "hasOwnProperty",
  "toString",
  "valueOf",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
]);
/** One attribute of a simple testcase: a plain name, `=` with no space around it, a quoted value of no markup. */
const SIMPLE_ATTRIBUTE = /[ \t\n]+([A-Za-z_][\w.:-]*)=(?:"([^"&<>\r]*)"|'([^'&<>\r]*)')/y;
/**
 * What may follow a simple testcase's attributes: the tag's end, or an end tag after nothing but white space (jest's
 * and vitest's reporters write a passing test so), which fast-xml-parser keeps as the element's text.
 */
const SIMPLE_END = /[ \t\n]*(?:\/>|>([ \t\n]*)<\/testcase>)$/y;
/** A simple testcase's outcome elements: none (shared, read only). */
const NO_OUTCOME: Readonly<Record<string, Node | null>> = Object.freeze(
  Object.fromEntries(KINDS.map((k) => [k, null])),
);

/**
 * The attributes of a testcase element that holds nothing (`<testcase name="a" time="0"/>`, or an end tag after
 * its start tag and white space), written plainly (no entity, no duplicate, at most MAX_XML_ATTRIBUTES), or null. Such an
 * element — nearly every one of a large report — reads as fast-xml-parser reads it, with no parser run
 * (test/unit/logs/junit-simple.test.ts compares the two): that run cost a one-line report of 40 000 testcases most
 * of its 2 s.
 */
function simpleTestcase(text: string): Record<string, string> | null {
  if (!text.startsWith("<testcase")) return null;
  const out: Record<string, string> = {};
  let at = "<testcase".length;
  let n = 0;
  for (;;) {
    SIMPLE_ATTRIBUTE.lastIndex = at;
    const m = SIMPLE_ATTRIBUTE.exec(text);
    if (!m) break;
    const key = m[1]!;
    if (GUARDED_NAMES.has(key) || Object.hasOwn(out, key) || ++n > MAX_XML_ATTRIBUTES) return null;
    out[key] = m[2] ?? m[3]!;
    at = SIMPLE_ATTRIBUTE.lastIndex;
  }
  // With no attribute fast-xml-parser reads the element as text (`{"#text": ""}`): not simple.
  if (n === 0) return null;
  SIMPLE_END.lastIndex = at;
  const end = SIMPLE_END.exec(text);
  if (!end) return null;
  if (end[1]) out["#text"] = end[1];
  return out;
}

/**
 * A testcase element read: its parsed node (null when fast-xml-parser was not run or failed), its string
 * attributes, and its child elements of each kind of outcome. `simple` says it held nothing (`simpleTestcase`);
 * `fast: false` reads it with fast-xml-parser whatever it is (for the tests that compare the two).
 */
export function readTestcase(
  text: string,
  fast = true,
): {
  node: Node | null;
  a: Record<string, string>;
  present: Readonly<Record<string, Node | null>>;
  simple: boolean;
} {
  const simple = fast ? simpleTestcase(text) : null;
  if (simple) return { node: null, a: simple, present: NO_OUTCOME, simple: true };
  const present: Record<string, Node | null> = {};
  let node: Node | null = null;
  try {
    // An element of more attributes than any runner writes is read by the regular expressions alone (wave 20).
    const parsed = overAttributed(text) ? null : (xml.parse(text) as Node);
    node = parsed && first(parsed, "testcase");
  } catch {
    node = null;
  }
  const openTag = /^<testcase\b[^>]*>/.exec(text)?.[0] ?? text.slice(0, 2000);
  const a = node
    ? (Object.fromEntries(Object.entries(node).filter(([, v]) => typeof v === "string")) as Record<
        string,
        string
      >)
    : attrs(openTag);
  if (node) for (const k of KINDS) present[k] = first(node, k);
  else for (const k of KINDS) present[k] = new RegExp(`<${k}\\b`).test(text) ? { "#text": "" } : null;
  return { node, a, present, simple: false };
}

export function createJunitParser(sink: ParserSink) {
  /**
   * True while reading `<testcase>` elements that no `<testsuite>` wraps (a report pasted in part, or cut): such a
   * fragment starts at a line that opens with `<testcase` and ends at the first line between elements that is not XML.
   */
  let fragment = false;
  const doc = xmlStream({
    startAt: (text) => {
      const at = text.indexOf("<test");
      if (at === -1) return -1;
      if (text.includes("<testsuite")) return text.search(/<testsuites?[\s>]/);
      const lone = /^\s*<testcase[\s>]/.exec(text);
      if (!lone) return -1;
      fragment = true;
      suite = {};
      return lone[0].length - "<testcase ".length;
    },
    scan,
  });
  let suite: Record<string, string> = {};
  let wrapped = false;
  /** The root's name (`bun test` for bun's reporter) and the names of the open testsuites, outermost first. */
  let rootName = "";
  const suitePath: string[] = [];
  /** Testcases of the current suite reported failing or in error (to compare with its declared counts). */
  let failingSeen = 0;
  /** The current `<testcase>` element, cut when it is too large to keep whole. */
  let element: { head: string; tail: string; cut: boolean; start: number } | null = null;
  /**
   * A tag begun and not yet closed (`<testsuite name="a"` and the lines after it), kept in pieces: searching the
   * whole of it for `>` on every line (it grew by a line at a time) was quadratic up to MAX_ELEMENT, and a log of
   * short lines after such a tag was refused for time (wave 20). Each piece is searched once; joined when `>` comes.
   */
  let begunTag: string[] | null = null;
  let begunLength = 0;

  /**
   * Playwright names a spec by its path inside testDir; the path from the repository shows only in a
   * failure's stack. Its suite's results are held until the suite ends, then named with that path.
   */
  const playwrightFiles = new Map<string, string>();
  let held: { classname: string; call: (s: ParserSink, rename: (id: string) => string) => void }[] = [];
  function deferred(classname: string): Pick<ParserSink, "test" | "failure"> {
    return {
      test: (id, outcome, file) => {
        if (held.length < 100_000)
          held.push({
            classname,
            call: (s, rename) => s.test(rename(id), outcome, file ? rename(file) : file),
          });
        else sink.test(id, outcome, file);
      },
      failure: (d: FailureDraft) => {
        held.push({
          classname,
          call: (s, rename) => s.failure({ ...d, test: d.test ? rename(d.test) : d.test }),
        });
      },
    };
  }
  /** Titles holding ` › ` that a failure's code frame shows as one string literal (see titlesInFrames). */
  const playwrightTitles = new Set<string>();
  function flushDeferred(): void {
    const list = held;
    held = [];
    for (const h of list) {
      const full = playwrightFiles.get(h.classname);
      h.call(sink, (x) => {
        if (x !== h.classname && !x.startsWith(`${h.classname} > `)) return x;
        const rest =
          x.length > h.classname.length
            ? rejoinTitles(x.slice(h.classname.length + 3), playwrightTitles)
            : "";
        return `${full ?? h.classname}${rest ? ` > ${rest}` : ""}`;
      });
    }
  }

  function handleTestcase(text: string, start: number, end: number): void {
    const { node, a, present, simple } = readTestcase(text);
    // A simple element holds no `<` but its own tags' (no failure or error in it).
    if (!simple && /<(?:failure|error)[\s>/]/.test(text)) failingSeen++;
    const name = a["name"] ?? "";
    const classname = a["classname"] ?? a["class"] ?? "";
    const isPytest = suite["name"] === "pytest";
    const fileAttr = a["file"] ?? suite["file"] ?? null;
    // Rust libtest's formatter (`<testsuite name="test" package="test">`): the module path (`tests`,
    // `tests::inner`) is the classname; `crate`/`integration` stand for none.
    const isRust =
      suite["package"] === "test" && suite["name"] === "test" && /^[A-Za-z_]\w*(?:::\w+)*$/.test(classname);
    // Playwright's: the spec file relative to its testDir, and `describe › test` as the name.
    // A JavaScript spec file as classname (Playwright, vitest, jest-junit): Playwright writes it relative to its
    // testDir, so its path from the repository is taken from a failure's stack frame when one shows it.
    const isPlaywright = /\.[cm]?[jt]sx?$/.test(classname) && !isPytest;
    // PHPUnit writes the PHP class (`class="Ns\\MoneyTest"`) beside a dotted classname: its id is `Class::method`.
    const phpClass =
      a["class"] && (a["class"].includes("\\") || /\.php$/.test(fileAttr ?? "")) ? a["class"] : null;
    const isJava = !isPytest && !isRust && !phpClass && /^(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*$/.test(classname);
    // mocha's xunit reporter (`<testsuite name="Mocha Tests">`): the suite's full title as classname, the
    // test's own title as name; the id is mocha's `describe > test` (docs/test-ids.md), as its spec output gives it.
    // mocha 11 also writes each test's `file` (chai's suite): still mocha's report.
    const isMocha = suite["name"] === "Mocha Tests";
    // GoogleTest's XML (`status`/`result` on each testcase): its full name `Suite.Test`, the classname holding a
    // parameterized suite's `Prefix/` (`Counts/RingSumTest` + `SumsWhatWasPushed/0`), not a path.
    const isGtest = a["status"] !== undefined && a["result"] !== undefined;
    // bun's reporter nests a testsuite per file and per describe: the id is `file > describe … > test`.
    const isBun = rootName === "bun test" && suitePath.length > 0;
    let id: string;
    if (isBun) id = [...suitePath, name].join(" > ");
    else if (isGtest) id = classname ? `${classname}.${name}` : name;
    else if (isPytest) id = pytestNodeId(classname, name);
    else if (isMocha) id = classname ? `${classname} > ${name}` : name;
    else if (isRust) id = /^(crate|integration)$/.test(classname) ? name : `${classname}::${name}`;
    else if (classname && (/[/\\]/.test(classname) || /\.[cm]?[jt]sx?$|\.py$/.test(classname)))
      id = `${classname} > ${name.replace(/ › /g, " > ")}`;
    else if (phpClass) id = `${phpClass}::${name}`;
    else if (isJava) id = `${classname}.${javaMethod(name)}`;
    // A classname that only repeats the name (CTest's `--output-junit`: `classname="level_half" name="level_half"`)
    // names no class: the id is the name, as a testcase with no classname.
    else id = classname && classname !== name ? `${classname}.${name}` : name;

    const problem = present["failure"] ?? present["error"];
    const flaky = !problem && (present["flakyFailure"] || present["flakyError"]);
    const outcome: TestOutcome = present["failure"]
      ? "failed"
      : present["error"]
        ? "error"
        : present["skipped"] || (isGtest && a["status"] === "notrun")
          ? "skipped"
          : "passed";
    const file = fileAttr
      ? sink.path(fileAttr)
      : isPytest
        ? sink.path(id.split("::")[0]!)
        : /[/\\]/.test(classname)
          ? sink.path(classname)
          : null;
    const out = isPlaywright ? deferred(classname) : sink;
    if (flaky) out.test(id, "failed", file);
    out.test(id, outcome, file);
    if (!problem) return;
    let panicLoc: { file: string; line: number; column: number | null } | null = null;
    let message = problem["message"] as string | undefined;
    const type = (problem["type"] as string | undefined) ?? null;
    let body = textOf(problem).trim();
    if (!body && node) {
      // Rust libtest (and some others) leave <failure> empty and print the panic to the test's output.
      const out = [
        textOf(first(node, "system-out") ?? undefined),
        textOf(first(node, "system-err") ?? undefined),
      ]
        .join("\n")
        .trim();
      if (out) {
        body = out;
        const panic = summarizePanic(out.split("\n"), sink);
        if (panic.message && !message) message = panic.message;
        if (panic.file) panicLoc = { file: panic.file, line: panic.line ?? 0, column: panic.column };
        // A C/C++ test program's own report in its output (CTest's JUnit keeps the test's output only):
        // `tests/level_half.c:6: expected 60 cm, got 0` is the failure's place and message.
        const c = panic.file
          ? null
          : out
              .split("\n")
              .map((l) => C_REPORT.exec(l.trim()))
              .find((m) => m !== null);
        if (c) {
          panicLoc = { file: sink.path(c[1]!), line: Number(c[2]), column: null };
          if (!message) message = c[3]!;
        }
      }
    }
    const lines = body.split("\n");
    let errorType = type;
    // pytest puts the exception in the message ("AssertionError: assert 0 == 3"); collection errors in the body.
    const fromMessage = message
      ? /^((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))\b:? ?/.exec(message)
      : null;
    if (!errorType && fromMessage) errorType = fromMessage[1]!;
    if (!errorType || errorType === "collection failure") {
      const e = lines.map((l) => /^E\s+(\w+(?:Error|Exception)):/.exec(l)).find((m) => m);
      if (e) errorType = e[1]!;
    }
    let loc: { file: string; line: number; column: number | null } | null = panicLoc;
    // An exception's message can hold frame-like lines (`\tat pkg.Compiler.compile(Compiler.java:12)`): the body
    // repeats the `message` attribute before the real stack, so lines inside that repeat are no frames.
    const messageLines = (message ?? "").split("\n");
    const firstMessageLine = messageLines[0]!.trim();
    const messageAt =
      messageLines.length > 1 && firstMessageLine !== ""
        ? lines.findIndex((l) => l.trim().endsWith(firstMessageLine))
        : -1;
    const inMessage = (i: number) => messageAt >= 0 && i >= messageAt && i < messageAt + messageLines.length;
    for (const [i, l] of lines.entries()) {
      const php = phpClass ? PHP_FRAME.exec(l.trim()) : null;
      if (php && !loc && !/(?:^|\/)vendor\//.test(sink.path(php[1]!)))
        loc = { file: sink.path(php[1]!), line: Number(php[2]), column: null };
      const py = PY_LOCATION.exec(l);
      if (py && (!py[1]!.startsWith("/") || !loc)) {
        loc = { file: sink.path(py[1]!), line: Number(py[2]), column: null };
        if (py[3] && !type) errorType = py[3];
      }
      const cpp = isGtest && !loc ? /^(\S.*?\.(?:cc|cpp|cxx|c|h|hpp)):(\d+)$/.exec(l.trim()) : null;
      if (cpp) loc = { file: sink.path(cpp[1]!), line: Number(cpp[2]), column: null };
      const vi = /^\s*❯ (\S+?):(\d+):(\d+)$/.exec(l);
      if (vi && !loc) loc = { file: sink.path(vi[1]!), line: Number(vi[2]), column: Number(vi[3]) };
      // A class loader prefix: `java.base/`, or `app//` (JDK 9+ for the application class loader).
      const java =
        /^\s*at (?:[\w.-]+\/\/?)?([\w$.]+)\.[\w$<>]+\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)$/.exec(l);
      if (java && !loc && !inMessage(i)) {
        // Java frames name the class, not the file: report the package path of the first frame outside the frameworks.
        const cls = java[1]!.replace(/\$.*$/, "");
        const pkg = cls.includes(".") ? cls.slice(0, cls.lastIndexOf(".")).replace(/\./g, "/") : "";
        const framework =
          /^(?:java|javax|jdk|sun|org\.junit|org\.opentest4j|org\.testng|org\.apache\.maven|kotlin|scala)\./.test(
            cls,
          );
        if (!framework)
          loc = {
            file: isJava
              ? sink.path(sourcePath(cls, java[2]!, classname))
              : pkg
                ? `${pkg}/${java[2]!}`
                : java[2]!,
            line: Number(java[3]),
            column: null,
          };
      }
      const js = /^\s*at (?:.*? \()?([^\s()]+?):(\d+):(\d+)\)?$/.exec(l);
      if (js && !loc && !js[1]!.startsWith("node:") && !js[1]!.includes("node_modules")) {
        loc = { file: sink.path(js[1]!), line: Number(js[2]), column: Number(js[3]) };
      }
    }
    const collection = message === "collection failure";
    let category: FailureCategory = categoryOfError(errorType, collection ? "import" : "test");
    if (collection && category === "test") category = "import";
    if (isPlaywright) {
      titlesInFrames(lines, playwrightTitles);
      // The spec file's path from the repository: the stack frame that ends with the reported file name.
      for (const l of lines) {
        const m = /([^\s()]+):\d+:\d+\)?$/.exec(l);
        const p = m ? sink.path(m[1]!.replace(/^file:\/\//, "")) : "";
        if (p.endsWith(`/${classname}`) && !p.includes("node_modules/")) {
          playwrightFiles.set(classname, p);
          break;
        }
      }
    }
    out.failure({
      category,
      test: id,
      file: loc?.file ?? file,
      line: loc?.line ?? (a["line"] ? Number(a["line"]) : null),
      column: loc?.column ?? null,
      errorType,
      message:
        (collection ? lines.find((l) => /^E\s+/.test(l))?.replace(/^E\s+/, "") : message) ??
        // PHPUnit's body: the test's name, then the message up to a blank line, then the frames.
        (phpClass && lines[0]?.startsWith(`${phpClass}::`)
          ? lines
              .slice(1, lines.indexOf("", 1) === -1 ? undefined : lines.indexOf("", 1))
              .join("\n")
              .replace(errorType ? `${errorType}: ` : "\u0000", "")
          : undefined) ??
        lines[0] ??
        outcome,
      stack: body || null,
      start,
      end,
    });
  }

  /** Consumes complete elements from the doc.text. */
  function scan(lineNo: number): void {
    for (;;) {
      if (element) {
        const close = doc.text.indexOf("</testcase>");
        if (close === -1) {
          if (element.head.length + doc.text.length > MAX_ELEMENT) {
            // Keep the head and a tail window; the middle of a huge failure body is dropped.
            if (!element.cut)
              element.head += doc.text.slice(0, Math.max(0, MAX_ELEMENT - element.head.length));
            element.cut = true;
            element.tail = (element.tail + doc.text).slice(-4096);
          } else element.head += doc.text;
          doc.text = "";
          return;
        }
        const rest = doc.text.slice(0, close + "</testcase>".length);
        doc.text = doc.text.slice(close + "</testcase>".length);
        const text = element.cut
          ? `${element.head}\n…\n${closeOpenTags(element.head)}</testcase>`
          : element.head + rest;
        handleTestcase(text, element.start, lineNo);
        element = null;
        continue;
      }
      if (begunTag) {
        if (doc.text.indexOf(">") === -1) {
          begunTag.push(doc.text);
          begunLength += doc.text.length;
          doc.text = "";
          if (begunLength > MAX_ELEMENT) begunTag = null;
          return;
        }
        doc.text = begunTag.join("") + doc.text;
        begunTag = null;
      }
      const lt = doc.text.indexOf("<");
      if (lt === -1) {
        doc.text = "";
        return;
      }
      const gt = doc.text.indexOf(">", lt);
      if (gt === -1) {
        const begun = doc.text.slice(lt);
        doc.text = "";
        if (begun.length <= MAX_ELEMENT) {
          begunTag = [begun];
          begunLength = begun.length;
        }
        return;
      }
      const tag = doc.text.slice(lt, gt + 1);
      doc.text = doc.text.slice(gt + 1);
      if (tag.startsWith("<testcase") && /^<testcase[\s>/]/.test(tag)) {
        if (tag.endsWith("/>")) handleTestcase(tag, lineNo, lineNo);
        else element = { head: tag, tail: "", cut: false, start: lineNo };
        continue;
      }
      if (/^<testsuites[\s>]/.test(tag)) {
        wrapped = true;
        rootName = attrs(tag)["name"] ?? "";
        suitePath.length = 0;
        continue;
      }
      if (/^<testsuite[\s>]/.test(tag)) {
        suite = attrs(tag);
        failingSeen = 0;
        if (!tag.endsWith("/>") && suitePath.length < 100) suitePath.push(suite["name"] ?? "");
        continue;
      }
      if (tag === "</testsuite>") {
        suitePath.pop();
        flushDeferred();
      }
      if (tag === "</testsuites>" || (tag === "</testsuite>" && !wrapped)) {
        doc.reset();
        wrapped = false;
        rootName = "";
        suitePath.length = 0;
        return;
      }
    }
  }

  return {
    line(text: string, lineNo: number): boolean {
      // A fragment ends at the first text between its elements that is not XML (the log goes on).
      if (
        fragment &&
        doc.inDoc &&
        element === null &&
        text.trim() !== "" &&
        !text.trimStart().startsWith("<")
      ) {
        if (doc.text.trim() === "" && begunTag === null) {
          flushDeferred();
          doc.reset();
          fragment = false;
        }
      }
      return doc.line(text, lineNo);
    },
    /** The next piece of an over-long line this parser claimed (a report written without line breaks). */
    more: doc.more,
    end(): void {
      // A report that ends inside a testcase (the runner died writing it: libtest's JUnit writer panics on a
      // message with a newline) while its suite declares more failures than were written: that open testcase
      // is the missing failure.
      const declared = Number(suite["failures"] ?? 0) + Number(suite["errors"] ?? 0);
      // A report cut inside a testcase whose <failure>/<error> had begun: that test failed, with what the cut
      // left of its message (an attribute cut mid-value keeps the part written).
      const open = element && !element.cut ? (/^<testcase\b[^>]*>/.exec(element.head)?.[0] ?? null) : null;
      const cutProblem = element && open ? cutFailure(element.head.slice(open.length) + doc.text) : null;
      if (element && open && cutProblem !== null) {
        handleTestcase(`${open}${cutProblem}</testcase>`, element.start, element.start);
      } else if (element && !element.cut && declared > failingSeen) {
        handleTestcase(
          `${element.head}<failure message="the report ends inside this testcase"/></testcase>`,
          element.start,
          element.start,
        );
      }
      flushDeferred();
      doc.reset();
      element = null;
      begunTag = null;
    },
  };
}

/**
 * The `<failure>`/`<error>` element that a cut report had begun inside a testcase's body, rebuilt whole (message
 * and type from the attributes written, the text written so far as its body), or null when none had begun.
 */
export function cutFailure(body: string): string | null {
  const m = /<(failure|error)([\s>/])/.exec(body);
  if (!m) return null;
  const kind = m[1]!;
  const rest = body.slice(m.index + 1 + kind.length);
  const gt = rest.indexOf(">");
  const tagText = gt === -1 ? rest : rest.slice(0, gt);
  const esc = (v: string) =>
    v
      .replace(/&(?![#\w]+;)/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/"/g, "&quot;");
  const parts: string[] = [];
  for (const key of ["message", "type"]) {
    const whole = new RegExp(`\\b${key}\\s*=\\s*"([^"]*)"`).exec(tagText);
    const cut = whole ? null : new RegExp(`\\b${key}\\s*=\\s*"([^"]*)$`).exec(tagText);
    const v = whole?.[1] ?? cut?.[1];
    if (v !== undefined) parts.push(`${key}="${esc(v.replace(/&[#\w]*$/, ""))}"`);
  }
  const text =
    gt === -1 || rest[gt - 1] === "/"
      ? ""
      : rest
          .slice(gt + 1)
          .replace(/<!\[CDATA\[/, "")
          .replace(/<[^>]*$/, "");
  return `<${kind} ${parts.join(" ")}>${esc(text)}</${kind}>`;
}

/** Closing tags for the elements left open in a cut-off testcase head, innermost first. */
function closeOpenTags(head: string): string {
  const stack: string[] = [];
  const re = /<(\/?)([\w:-]+)[^>]*?(\/?)>/g;
  for (let m = re.exec(head); m; m = re.exec(head)) {
    if (m[3] === "/") continue;
    if (m[1] === "/") stack.pop();
    else stack.push(m[2]!);
  }
  stack.shift(); // the testcase itself is closed by the caller
  return stack
    .reverse()
    .map((t) => `</${t}>`)
    .join("");
}

export const junitFormat: FormatDefinition = {
  name: "junit",
  description:
    "JUnit XML (Surefire, pytest --junitxml, vitest/jest junit reporters), with rerun and flaky markers",
  create: createJunitParser,
  // A fresh parser looks only at lines where a document can start (`startAt`).
  wakesOn: [/<testsuites?[\s>]/, /^\s*<testcase[\s>]/],
};
