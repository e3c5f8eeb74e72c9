/**
 * A Java test's assertion failure pasted as its stack alone, with no runner line naming the test (JUnit 5's
 * `org.opentest4j.AssertionFailedError: expected: <1> but was: <2>` and its `at …` frames, copied from an IDE or a
 * CI log's middle). The test is the one the stack itself names: the assertion was thrown by an assertion library
 * (or the test's own `assert`), the first frame outside the libraries is a class named as a test (`…Test`, `…Tests`,
 * `…IT`, `…TestCase`, `…Spec`, `Test…`), and that class's outermost frame of the run, called by the JDK's
 * reflection or a test framework (or the last frame of a paste cut there), is the test method: `pkg.Class.method`,
 * as JUnit XML names it.
 *
 * Never on an ordinary exception (only assertion-failure types), nor on an assertion thrown from application code
 * (its first non-library frame is no test class), nor when a helper of another class calls the test class. A
 * fallback format: a runner's report of the same block or message wins, and a green log keeps nothing from it.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";
import { FRAME, summarizeJava } from "./java-frames.ts";

const ASSERTION =
  /^\s*((?:[a-z_$][\w$]*\.)*(?=[A-Z])[\w$]*(?:AssertionError|AssertionFailedError|ComparisonFailure|MultipleFailuresError))(?::\s?.*)?$/;
/** Assertion libraries and test frameworks: frames the assertion passes through on its way to the test. */
const LIBRARY =
  /^(?:org\.junit|junit|org\.opentest4j|org\.testng|org\.assertj|org\.hamcrest|org\.mockito|com\.google\.common\.truth|kotlin\.test|org\.spockframework|io\.kotest|io\.kotlintest|org\.skyscreamer|net\.javacrumbs)\./;
/** What calls a test method: the JDK's reflection, a test framework, the build tool's worker. */
const CALLER =
  /^(?:java|javax|jdk|sun|kotlin|scala|org\.junit|junit|org\.testng|org\.apache\.maven|org\.gradle|worker\.org\.gradle|org\.spockframework|io\.kotest|io\.kotlintest|org\.spekframework|org\.springframework\.test)\./;
/**
 * Kotlin spec-style frameworks (kotlintest, kotest, Spek) run each test as a lambda: its class is anonymous
 * (`PlaygroundTests$1$10`) and its `invoke` is the test's outermost frame. An anonymous class's frame names a test
 * only when one of these calls it; called by the JDK (a `Runnable` on an executor) it is code inside a test.
 */
const SPEC_RUNNER = /^(?:io\.kotlintest|io\.kotest|org\.spekframework|org\.jetbrains\.spek)\./;
/**
 * The JDK building the assertion reflectively (AssertJ creates opentest4j's error through its constructor): frames
 * above the first frame of the assertion's caller, as a library's own.
 */
const CONSTRUCTION = /^(?:jdk\.internal\.reflect|sun\.reflect|java\.lang\.reflect)\.\w*Constructor\w*$/;
/** Failure types only test libraries throw (not `java.lang.AssertionError`, which an application's `assert` throws). */
const TEST_FAILURE_TYPE =
  /^(?:org\.opentest4j\.\w+|junit\.framework\.\w+|org\.junit\.\w+|org\.junit\.ComparisonFailure|org\.assertj\.[\w.]+)$/;
const TEST_CLASS = /(?:^Test[A-Z_]\w*|(?:Test|Tests|IT|TestCase|Spec))$/;
const MAX_MESSAGE = 20;
const BR = /<br\s*\/?>/i;
/**
 * A frame with no source line: JDK 17 and older call a test method through `NativeMethodAccessorImpl.invoke0(Native Method)`;
 * a method with no line table (Kotlin's generated bridges, `PlaygroundTests$1$10.invoke(Playground.kt)`) names its file alone.
 */
const NO_SOURCE_FRAME =
  /^\s*at (?:[\w.-]+(?:@[\w.+-]+)?\/\/?)?([\w$.]+)\.([\w$<>]+)\((?:Native Method|Unknown Source|[\w$]+\.(?:java|kt|scala|groovy))\)$/;

/**
 * A frame line the paste cut before its class (`\tat ` and nothing more): the stack goes on past the paste, so the
 * frame above it is the outermost one shown, as when the paste ends on a whole frame. A cut frame that still names
 * part of its class (`at org.acme.PourTest.po`) may be the test calling a helper above it, and is no such end.
 */
const CUT_FRAME = /^\s*at\s*$/;

interface Trace {
  lines: string[];
  frames: { cls: string; method: string }[];
  start: number;
  end: number;
  /** A cut frame line (CUT_FRAME) came after the last frame: the paste ends there unless another line follows. */
  cutFrame: boolean;
}

export function createJavaStackParser(sink: ParserSink) {
  let trace: Trace | null = null;
  const reported = new Set<string>();

  function finish(cut: boolean): void {
    const t = trace;
    trace = null;
    if (!t || t.frames.length === 0) return;
    let i = 0;
    while (
      i < t.frames.length &&
      (LIBRARY.test(`${t.frames[i]!.cls}.`) || CONSTRUCTION.test(t.frames[i]!.cls))
    )
      i++;
    const isTest = (cls: string) => TEST_CLASS.test(cls.replace(/\$.*$/, "").split(".").pop()!);
    if (!t.frames[i]) return;
    let j = i;
    if (TEST_FAILURE_TYPE.test(ASSERTION.exec(t.lines[0]!)?.[1] ?? "")) {
      // A test library's own failure type: test-named helpers of the test's project (a `TestXRunner` that runs the
      // test's body, a shared check in another test class) may stand between it and the test, which is the frame
      // that reflection or a test framework called. A frame of application code between them gives nothing.
      while (j + 1 < t.frames.length && !CALLER.test(`${t.frames[j + 1]!.cls}.`)) {
        if (!isTest(t.frames[j]!.cls)) return;
        j++;
      }
      if (!isTest(t.frames[j]!.cls)) return;
    } else {
      const outer = t.frames[i]!.cls.replace(/\$.*$/, "");
      if (!isTest(outer)) return;
      while (j + 1 < t.frames.length && t.frames[j + 1]!.cls.replace(/\$.*$/, "") === outer) j++;
    }
    const next = t.frames[j + 1];
    if (next ? !CALLER.test(`${next.cls}.`) : !cut) return;
    const own = t.frames[j]!;
    if (!/^[A-Za-z_]\w*$/.test(own.method)) return;
    if (/\$\d+$/.test(own.cls) && !(next && SPEC_RUNNER.test(`${next.cls}.`))) return;
    const id = `${own.cls}.${own.method}`;
    if (reported.has(id) || reported.size >= 1000) return;
    reported.add(id);
    const summary = summarizeJava(t.lines, own.cls, sink);
    sink.failure({
      category: "test",
      test: id,
      file: summary.location?.file ?? null,
      line: summary.location?.line ?? null,
      errorType: summary.errorType,
      message: summary.message || `${id} failed`,
      stack: t.lines.join("\n"),
      start: t.start,
      end: t.end,
    });
    sink.test(id, "failed");
  }

  function read(text: string, lineNo: number): void {
    if (trace?.cutFrame) {
      // Only blank lines may follow a cut frame for the paste to end on it.
      if (text.trim() === "") return;
      finish(false);
    }
    if (trace) {
      if (trace.frames.length > 0 && CUT_FRAME.test(text)) {
        trace.cutFrame = true;
        return;
      }
      const f = FRAME.exec(text) ?? NO_SOURCE_FRAME.exec(text);
      if (f) {
        if (trace.frames.length < 200) {
          trace.frames.push({ cls: f[1]!, method: f[2]! });
          trace.lines.push(text);
        }
        trace.end = lineNo;
        return;
      }
      // A message of several lines comes before the first frame.
      if (trace.frames.length === 0 && trace.lines.length < MAX_MESSAGE && !ASSERTION.test(text)) {
        trace.lines.push(text);
        trace.end = lineNo;
        return;
      }
      finish(false);
    }
    if (
      text.includes("Assertion") ||
      text.includes("ComparisonFailure") ||
      text.includes("MultipleFailures")
    ) {
      const a = ASSERTION.exec(text);
      if (a) trace = { lines: [text], frames: [], start: lineNo, end: lineNo, cutFrame: false };
    }
  }

  return {
    line(text: string, lineNo: number): boolean {
      // A stack kept in HTML (a bot's comment, a report page) has its lines joined by `<br>`/`<br/>`: each part is a
      // line of the stack.
      if (text.includes("<br") && BR.test(text)) {
        for (const part of text.split(BR)) read(part, lineNo);
      } else read(text, lineNo);
      return false;
    },
    end(): void {
      finish(true);
    },
  };
}

export const javaStackFormat: FormatDefinition = {
  name: "java-stack",
  description: "A Java test's assertion failure shown as its stack alone (the test named by its own frame)",
  create: createJavaStackParser,
  wakesOn:
    /^\s*(?:[\w$]+\.)*[\w$]*(?:AssertionError|AssertionFailedError|ComparisonFailure|MultipleFailuresError)/,
};
