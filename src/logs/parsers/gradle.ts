/**
 * Gradle's test logging: `pkg.ClassTest > method() FAILED` (JUnit 4/5, TestNG, Spock), nested
 * `ClassTest > method(String) > [3] eu, EU FAILED` for parameterized invocations, the indented exception
 * (`java.lang.AssertionError at ClassTest.java:9` in the short form, or a full stack trace) and the
 * `N tests completed, M failed, K skipped` count line. Ids are `Class.method` as the JUnit XML names the
 * test (docs/test-ids.md): no `()`, a parameterized invocation as `method(String)[3]`.
 */
import { BlockBuffer, categoryOfError, type FormatDefinition, type ParserSink } from "../parser.ts";
import { summarizeJava } from "./java-frames.ts";

// `[\w$.]+` already takes a nested class's `$Inner`: a separate `(?:\$[\w$]+)*` after it could split a run of
// `$` in exponentially many ways on a line that does not match.
const RESULT = /^([\w$.]+) > (.+) (FAILED|PASSED|SKIPPED)$/;
/**
 * TestNG under Gradle names the suite and the test of its XML first (`Gradle suite > Gradle test >
 * pkg.ClassTest.method FAILED`, or any names a testng.xml gives, spaces allowed): the last segment is the
 * fully qualified method, the segments before it are names, not classes.
 */
const SUITE_RESULT =
  /^[^>]+(?: > [^>]+)* > ((?:[a-z_$][\w$]*\.)*[A-Z_$][\w$]*)\.([\w$]+(?:\(.*\))?(?:\[\d+\])?) (FAILED|PASSED|SKIPPED)$/;
const COUNTS = /^(\d+) tests? completed(?:, (\d+) failed)?(?:, (\d+) skipped)?$/;
/**
 * The list some builds' test listeners print before the count line (OpenSearch's and Elasticsearch's Gradle
 * plugins): `Tests with failures:`, then ` - pkg.ClassTest.method` per failed test, a randomized or YAML suite's
 * parameters kept as printed (`test {p0=bulk/10_basic/Array of objects}`). Taken only when the count line that
 * closes it counts failures.
 */
const LISTED = /^ - ((?:[a-z_$][\w$]*\.)*[A-Z_$][\w$]*\.[\w$]+(?: \{[^{}]*\}|\[\d+\])?)$/;

/**
 * `method()` → `method`; `method(String) > [3] eu, EU` → `method(String)[3]`; a display name that is the
 * full `pkg.Class.method(…)[n]` id wins and gives the class its package.
 */
function methodOf(rest: string, cls: string): { cls: string; method: string } {
  const parts = rest.split(" > ");
  const last = parts[parts.length - 1]!;
  const full = new RegExp(
    `^((?:[\\w$]+\\.)*${cls.replace(/[.$]/g, "\\$&")})\\.([\\w$]+(?:\\(.*\\))?(?:\\[\\d+\\])?)$`,
  ).exec(last);
  if (full) return { cls: full[1]!, method: full[2]!.replace(/\(\)$/, "") };
  const invocation = /^\[(\d+)\]/.exec(last);
  if (invocation && parts.length >= 2)
    return { cls, method: `${parts[parts.length - 2]!}[${invocation[1]}]` };
  return { cls, method: last.replace(/\(\)$/, "") };
}

const FRAME_CLASS = /^\s*at (?:[\w.-]+\/\/?)?((?:[\w$]+\.)+)([\w$]+)\.[\w$<>]+\(/;
/** A stack frame with its class, method and place: `at pkg.ClassTest.method(ClassTest.java:95)`. */
const FRAME = /^\s+at (?:[\w.-]+\/\/?)?((?:[\w$]+\.)*[\w$]+)\.([\w$]+)\([\w$.]+:\d+\)$/;

export function createGradleParser(sink: ParserSink) {
  let block: { cls: string; method: string; buf: BlockBuffer } | null = null;
  let module = "";
  /** Simple class names seen with their package in a stack frame (Gradle prints JUnit 5 classes by simple name). */
  const packages = new Map<string, string>();
  const qualified = (cls: string) => (cls.includes(".") ? cls : (packages.get(cls) ?? cls));
  /**
   * A paste that opens inside a failure's stack, its `Class > method FAILED` header cut: the stack's last frame
   * (Gradle filters the runner's frames), taken as that test only when a FAILED header of the same class follows.
   */
  let orphan: { frames: BlockBuffer; last: RegExpExecArray | null; done: boolean } | null = {
    frames: new BlockBuffer(80, 8_000),
    last: null,
    done: false,
  };
  const failedClasses = new Set<string>();
  /**
   * A result line the console wrapped before its outcome (AppVeyor's fixed width: `pkg.ClassTest > method `, then
   * `FAILED` alone on the next line): the header, its trailing space kept, waiting for that word.
   */
  let wrapped: { text: string; lineNo: number } | null = null;
  const failedIds = new Set<string>();
  /** Entries of a `Tests with failures:` list, waiting for the count line after it. */
  let listed: { ids: string[]; lines: string[]; start: number; end: number } | null = null;

  function flush(): void {
    if (!block) return;
    const lines = block.buf.lines.slice(1);
    for (const l of lines) {
      const f = FRAME_CLASS.exec(l);
      if (f && !block.cls.includes(".") && f[2] === block.cls && packages.size < 10_000)
        packages.set(block.cls, `${f[1]}${f[2]}`);
    }
    const cls = qualified(block.cls);
    const id = `${cls}.${block.method}`;
    if (failedClasses.size < 10_000) failedClasses.add(cls);
    failedIds.add(id);
    const j = summarizeJava(lines, cls, sink);
    sink.test(id, "failed");
    // `> Task :awsUtilities:test`: a subproject's sources live under its directory (Gradle's default layout).
    const file = j.location?.file ? (module ? `${module}/${j.location.file}` : j.location.file) : null;
    sink.failure({
      category: categoryOfError(j.errorType, "test"),
      test: id,
      file,
      line: j.location?.line ?? null,
      errorType: j.errorType,
      message: j.message || j.errorType || "FAILED",
      stack: block.buf.text(),
      start: block.buf.start,
      end: block.buf.end,
    });
    block = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (orphan && !orphan.done) {
        if (/^\s+at /.test(text)) {
          orphan.frames.push(text, lineNo);
          orphan.last = FRAME.exec(text);
          return false;
        }
        if (orphan.frames.empty) orphan = null;
        else orphan.done = true;
      }
      if (block) {
        if (/^\s{2,}\S/.test(text)) {
          block.buf.push(text, lineNo);
          return true;
        }
        flush();
      }
      if (listed) {
        const e = LISTED.exec(text);
        if (e && listed.ids.length < 1_000) {
          listed.ids.push(e[1]!);
          listed.lines.push(text);
          listed.end = lineNo;
          return true;
        }
        if (text !== "" && !COUNTS.test(text)) listed = null;
      }
      if (text === "Tests with failures:") {
        listed = { ids: [], lines: [text], start: lineNo, end: lineNo };
        return true;
      }
      if (wrapped) {
        const w = wrapped;
        wrapped = null;
        if (text === "FAILED" || text === "PASSED" || text === "SKIPPED") {
          this.line(`${w.text}${text}`, w.lineNo);
          if (block) block.buf.push(text, lineNo);
          return true;
        }
      }
      if (text.endsWith(" ") && text.includes(" > ") && RESULT.test(`${text}FAILED`)) {
        wrapped = { text, lineNo };
        return false;
      }
      const c0 = text.charCodeAt(0);
      // Quick reject: a Gradle line starts with `> Task` (`:task` before Gradle 5), a class name or a digit (the count line).
      if (
        !(
          c0 === 62 ||
          c0 === 58 ||
          (c0 >= 48 && c0 <= 57) ||
          (c0 >= 65 && c0 <= 90) ||
          (c0 >= 97 && c0 <= 122) ||
          c0 === 95 ||
          c0 === 36
        )
      )
        return false;
      // Gradle 4's plain console names the task without `> Task `: `:core:test`, `:core:test FAILED`.
      const task = /^(?:> Task )?((?::[\w.-]+)*):\w*[tT]est\w*(?: FAILED)?$/.exec(text);
      if (task) {
        module = task[1]!.split(":").filter(Boolean).join("/");
        return true;
      }
      const candidate = text.endsWith("ED") && text.includes(" > ");
      const plain = candidate ? RESULT.exec(text) : null;
      const suite = candidate && !plain ? SUITE_RESULT.exec(text) : null;
      const r = plain ?? (suite ? ([suite[0], suite[1]!, suite[2]!, suite[3]!] as const) : null);
      if (r) {
        const { cls, method } = plain
          ? methodOf(r[2]!, r[1]!)
          : { cls: r[1]!, method: r[2]!.replace(/\(\)$/, "") };
        if (r[3] === "FAILED") {
          block = { cls, method, buf: new BlockBuffer(80, 8_000) };
          block.buf.push(text, lineNo);
        } else sink.test(`${qualified(cls)}.${method}`, r[3] === "PASSED" ? "passed" : "skipped");
        return true;
      }
      const c = COUNTS.exec(text);
      if (c) {
        const failed = Number(c[2] ?? 0);
        const skipped = Number(c[3] ?? 0);
        sink.summary({ passed: Number(c[1]) - failed - skipped, failed, skipped });
        if (listed && failed > 0) {
          for (const id of listed.ids) {
            if (failedIds.has(id)) continue;
            failedIds.add(id);
            sink.test(id, "failed");
            sink.failure({
              category: "test",
              test: id,
              message: "listed under `Tests with failures:`",
              stack: listed.lines.join("\n"),
              start: listed.start,
              end: listed.end,
            });
          }
        }
        listed = null;
        return true;
      }
      return false;
    },
    end(): void {
      flush();
      const last = orphan?.last;
      if (!orphan || !last || !failedClasses.has(last[1]!)) return;
      const id = `${last[1]!}.${last[2]!}`;
      if (failedIds.has(id)) return;
      sink.test(id, "failed");
      sink.failure({
        category: "test",
        test: id,
        message: "FAILED (the log starts inside its stack)",
        stack: orphan.frames.text(),
        start: orphan.frames.start,
        end: orphan.frames.end,
      });
    },
  };
}

export const gradleFormat: FormatDefinition = {
  name: "gradle",
  description: "Gradle test logging (Class > method FAILED lines, exceptions, N tests completed)",
  create: createGradleParser,
};
