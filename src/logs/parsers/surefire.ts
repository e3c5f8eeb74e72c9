/**
 * Maven Surefire and Failsafe console output (2.x and 3.x): `Running <class>` / `Tests run: … in <class>`
 * per class, the failure detail blocks (`method  Time elapsed: … <<< FAILURE!`,
 * `method(pkg.Class)  …` for JUnit 4, `pkg.Class.method -- Time elapsed: …` in 3.x) with their
 * stack traces, the `Results:` recap (`Failures:` / `Errors:` / `Flakes:` with
 * `  Class.method:23 message` entries) and the closing `Tests run: N, Failures: F, …` count line.
 * Ids are `pkg.Class.method` (docs/test-ids.md); Surefire 2's `name{String, String}[3]` is written
 * `name(String, String)[3]` as Surefire 3 and the XML report write it.
 */
import { BlockBuffer, categoryOfError, type FormatDefinition, type ParserSink } from "../parser.ts";
import { sourcePath, summarizeJava } from "./java-frames.ts";

// `Error: ` / `Warning: ` is how GitHub's log view shows Maven's `[ERROR]` / `[WARNING]` lines.
const PREFIX = /^(?:\[(?:INFO|ERROR|WARNING|WARN|DEBUG)\]|Error: |Warning: ) ?/;
const TESTS_BANNER = /^\s*T E S T S\s*$/;
const RUNNING = /^Running ([\w$.]+)$/;
// `… - in pkg.Class` (2.19+), `… -- in pkg.Class` (3.x); older versions name the class only on `Running`.
const CLASS_RESULT =
  /^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: \d+)?, Time elapsed: [^-]*?(?:-{1,2} in ([\w$.]+))?$/;
const TOTAL = /^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: (\d+))?$/;
const DETAIL = /^(.+?)\s+(?:-- )?Time elapsed: [\d.,]+ s(?:ec)?\s+<<< (FAILURE|ERROR)!$/;
const RECAP_HEAD = /^(Failures|Errors|Flakes|Failed tests|Tests in error): ?$/;
/** Surefire before 2.19: `  testX(pkg.Class): message`. */
const LEGACY_ENTRY = /^ {2}([\w$]+(?:\[[^\]]*\])?)\(([\w$.]+)\)(?::(\d+))?:? ?(.*)$/;
// `  OrderTest.total:23 msg`; `  SubIT>BaseCases.method:205 » Type msg` names an inherited test by the running class.
// Surefire 2.19+ trims the stack to the test class's frames: `  HttpTest.keepAlive:57->connect:83 msg` (the test's
// line, then the helper it called); the test's own line is the first.
const RECAP_ENTRY =
  /^ {2}([\w$]+(?:\.[\w$]+)*?)(?:>[\w$.]+?)?\.([\w$]+(?:[({[].*?)?)(?::(\d+)(?:->[\w$.]+:\d+)*)?(?: (?:» )?(.*))?$/;
/** A recap entry that names its test's class and line in Surefire's trimmed form, the evidence a headless recap needs. */
const TRIMMED_ENTRY =
  /^ {2}(?:[a-z_][\w$]*\.)*[A-Z][\w$]*\.[\w$]+(?:\[[^\]]*\])?:\d+(?:->[\w$.]+:\d+)*(?: \S|$)/;
const RUN_LINE = /^ {2}Run \d+: /;
/**
 * The conventional names of a class-level lifecycle method (JUnit 5 `@BeforeAll`/`@AfterAll`, JUnit 4
 * `@BeforeClass`/`@AfterClass`, TestNG's and JUnit 3 ports' `setUpClass`, PHPUnit-style `setUpBeforeClass`): a recap entry
 * naming one is the class's failure, not a test's.
 */
const CLASS_HOOK =
  /^(?:before|after)(?:All|Class)$|^(?:setUp|setup|tearDown|teardown)(?:Class|BeforeClass|AfterClass)$/;
/**
 * With `rerunFailingTestsCount`, a recap entry is the test's full name on its own line, its attempts below it
 * (`  Run 1: …`): `pkg.Class.method(pkg.Class)` (Surefire 2, JUnit 4) or `pkg.Class.method` (Surefire 3).
 */
const RERUN_ENTRY = /^((?:[a-z_$][\w$]*\.)+[A-Z][\w$]*)\.([\w$]+(?:\[[^\]]*\])?)(?:\(([\w$.]+)\))?$/;

/** `normalizesRegion{String, String}[3]` (Surefire 2) → `normalizesRegion(String, String)[3]`. */
function methodName(m: string): string {
  return m.replace(/^([\w$]+)\{(.*)\}(\[\d+\])?$/, "$1($2)$3").replace(/\(\)$/, "");
}

/** The class and method of a detail header's name ("" for a class-level error: a failing `@BeforeAll`). */
function splitName(name: string, current: string | null): { cls: string | null; method: string } {
  // Surefire names a class-level error by the class itself (`pkg.CellarTest  Time elapsed … <<< ERROR!`).
  if (name === current || /^(?:[a-z_][\w]*\.)+[A-Z][\w$]*$/.test(name)) return { cls: name, method: "" };
  const junit4 = /^(.+?)\(([\w$.]+)\)$/.exec(name);
  // A class named in lower case (`package_Test`) is still the class when the method part has no dot (Surefire 3's
  // `pkg.Class.method(String)` has one).
  if (
    junit4 &&
    junit4[2]!.includes(".") &&
    (/\.[A-Z][\w$]*$/.test(`.${junit4[2]!.split(".").pop()}`) || /^[\w$]+$/.test(junit4[1]!))
  )
    return { cls: junit4[2]!, method: methodName(junit4[1]!) };
  // A class in the default package has no dots: `testX(FizzBuzzTest)` under `Running FizzBuzzTest`.
  if (junit4 && junit4[2] === current && /^[\w$]+$/.test(junit4[1]!))
    return { cls: junit4[2]!, method: junit4[1]! };
  const head = name.split(/[({[]/, 1)[0]!;
  const dot = head.lastIndexOf(".");
  if (dot > 0 && /^[a-z]/.test(head))
    return { cls: head.slice(0, dot), method: methodName(name.slice(dot + 1)) };
  return { cls: current, method: methodName(name) };
}

interface Detail {
  id: string;
  cls: string | null;
  method: string;
  kind: "FAILURE" | "ERROR";
  buf: BlockBuffer;
}

export function createSurefireParser(sink: ParserSink) {
  let active = false;
  /** The log has Maven's `[INFO]`/`[ERROR]` prefixes (batch mode), so an unprefixed line is a continuation. */
  let prefixed = false;
  let current: string | null = null;
  /** The class between its `Running` line and its `Tests run: … in` line: what is printed there is its output. */
  let running: string | null = null;
  let detail: Detail | null = null;
  const details: Detail[] = [];
  const classes = new Map<string, string>(); // simple name → fully qualified
  let recap: "Failures" | "Errors" | "Flakes" | null = null;
  /** A headless Surefire 2 recap heading (`Tests in error: `) waiting for its first entry. */
  let headless: "Failures" | "Errors" | null = null;
  const recapEntries: {
    cls: string;
    method: string;
    line: number | null;
    message: string;
    kind: string;
    lineNo: number;
    /** The class and method alone, no `:line` and no message: a paste cut inside it when it is the log's last line. */
    bare: boolean;
    /** `Sub>Base.method:N`: the frame, and its line, are in a base class the recap does not name the file of. */
    inherited?: boolean;
  }[] = [];
  /** The last line of the log that is not blank (a recap entry there may be cut mid-name). */
  let lastText = 0;
  /**
   * A paste that starts inside Surefire 2's recap, its heading cut (`  SpecsReaderTest.reads:941 ` as the log's first
   * line, hamcrest's `Expected: … but: …` below it at the margin): trimmed entries held until the run's count line
   * (`Tests run: 699, Failures: 16, …`) follows their block after a blank line, which makes them the recap. Anything
   * else there drops them.
   */
  let cutRecap: { entries: RegExpExecArray[]; messages: string[]; lineNos: number[]; blank: boolean } | null =
    null;

  /** Reads a line while a cut recap is held (see cutRecap); true when the line was one of its entries or messages. */
  function holdCutRecap(raw: string, lineNo: number): boolean {
    const held = cutRecap!;
    if (raw.trim() === "") {
      held.blank = true;
      return true;
    }
    const e = held.blank ? null : TRIMMED_ENTRY.test(raw.trimEnd()) ? RECAP_ENTRY.exec(raw.trimEnd()) : null;
    if (e && held.entries.length < 1_000) {
      held.entries.push(e);
      held.messages.push((e[4] ?? "").trim());
      held.lineNos.push(lineNo);
      return true;
    }
    if (!held.blank) {
      const at = held.messages.length - 1;
      if (held.messages[at]!.length < 2_000) held.messages[at] = `${held.messages[at]}\n${raw.trim()}`.trim();
      return true;
    }
    cutRecap = null;
    const total = TOTAL.exec(raw);
    if (!total || Number(total[2]) + Number(total[3]) === 0) return false;
    const kind = Number(total[2]) === 0 ? "Errors" : "Failures";
    held.entries.forEach((e, i) => {
      recapEntries.push({
        cls: e[1]!,
        method: methodName(e[2]!),
        line: e[3] ? Number(e[3]) : null,
        message: held.messages[i]!,
        kind,
        lineNo: held.lineNos[i]!,
        bare: false,
        inherited: /^ {2}[\w$.]+>/.test(e[0]),
      });
    });
    active = true;
    return false;
  }
  const flaky = new Set<string>();
  /**
   * Classes whose own result line counts a failure or an error (`Tests run: 10, Failures: 0, Errors: 1, … <<<
   * FAILURE!` under `Running pkg.Class`, or `… -- in pkg.Class`). When no detail block and no recap entry names a
   * test of the class (a log cut before Surefire's details and recap), the class is the failure: Surefire's own
   * id for a failure it cannot give a method (a class-level error is reported by the class, docs/test-ids.md).
   */
  const failedClasses: { cls: string; text: string; lineNo: number; errors: boolean; detailed?: boolean }[] =
    [];
  /**
   * The failed class of the last result line, while its detail blocks may follow it: a detail block printed under
   * it is one of its failures, whatever class the block names (TestNG's provider counts the whole run under one
   * `… - in TestSuite` line, its details naming the real classes), so the result line is no failure of its own.
   */
  let lastFailedResult: (typeof failedClasses)[number] | null = null;
  /** A Surefire 2 recap entry (`  testX(pkg.Class):23 message`) as recorded. */
  const legacyEntry = (legacy: RegExpExecArray, kind: string, lineNo: number) => ({
    cls: legacy[2]!,
    method: methodName(legacy[1]!),
    line: legacy[3] ? Number(legacy[3]) : null,
    message: legacy[4] ?? "",
    kind,
    lineNo,
    bare: false,
  });

  const simple = (cls: string) => cls.split(".").pop()!;
  const known = (cls: string) => {
    classes.set(simple(cls), cls);
  };

  /**
   * JUnit 5 `@Nested` tests: Surefire 2 lists them under the outer class (`… in pkg.CalendarTest`, then
   * `keepsEveryBooking  Time elapsed …`), while the stack and the recap name the nested class
   * (`pkg.CalendarTest$WhenBooked.keepsEveryBooking`). The frame of the test method itself decides.
   */
  function nestedClassOf(d: Detail): void {
    if (!d.cls) return;
    const name = d.method.split(/[([]/, 1)[0]!;
    const prefix = `${d.cls}$`;
    for (const l of d.buf.lines) {
      const f = /^\s*at ([\w$.]+)\.([\w$]+)\(/.exec(l);
      if (f && f[2] === name && f[1]!.startsWith(prefix)) {
        d.cls = f[1]!;
        d.id = `${d.cls}.${d.method}`;
        known(d.cls);
        return;
      }
    }
  }

  function closeDetail(): void {
    if (detail && details.length < 1000) details.push(detail);
    detail = null;
  }

  return {
    line(raw: string, lineNo: number): boolean {
      const before = lastText;
      if (raw.trim() !== "") lastText = lineNo;
      if (cutRecap && holdCutRecap(raw, lineNo)) return false;
      if (
        before === 0 &&
        !active &&
        raw.startsWith("  ") &&
        TRIMMED_ENTRY.test(raw.trimEnd()) &&
        !/\.(?:java|kt|scala|groovy|class):\d/.test(raw)
      ) {
        cutRecap = { entries: [], messages: [], lineNos: [], blank: false };
        holdCutRecap(raw, lineNo);
        return false;
      }
      // Surefire 2's recap heading pasted alone, without Maven's prefixes (`Tests in error: `): it opens the recap
      // only when the next line is an entry naming a test method and its fully qualified class, or an entry in the
      // trimmed form that gives the test's line (`  HttpTest.keepAlive:57->connect:83 expected [200]`).
      if (headless !== null && !active) {
        const first = raw.trim() === "" ? null : LEGACY_ENTRY.exec(raw);
        if ((first && /^(?:[a-z_][\w$]*\.)+[A-Z][\w$]*$/.test(first[2]!)) || TRIMMED_ENTRY.test(raw)) {
          active = true;
          recap = headless;
        } else if (raw.trim() !== "") headless = null;
      }
      // Quick reject before any test run was seen: only a Maven-prefixed line or a Surefire line can start one.
      if (!active && !detail) {
        const c0 = raw.charCodeAt(0);
        if (
          c0 !== 91 /* [ */ &&
          c0 !== 69 /* E */ &&
          c0 !== 87 /* W */ &&
          c0 !== 82 /* R */ &&
          c0 !== 84 /* T */ &&
          c0 !== 70 /* F */ &&
          c0 !== 32 &&
          // A detail line (`method(pkg.Class)  Time elapsed: … <<< FAILURE!`) ends with `!`.
          raw.charCodeAt(raw.length - 1) !== 33
        )
          return false;
      }
      const p = PREFIX.exec(raw);
      const text = p ? raw.slice(p[0].length) : raw;
      if (p) prefixed = true;
      if (detail) {
        // A detail block runs to its blank line or the next Maven-prefixed line.
        if (p || text.trim() === "") closeDetail();
        else {
          detail.buf.push(text, lineNo);
          return true;
        }
      }
      if (TESTS_BANNER.test(text)) {
        active = true;
        return true;
      }
      const run = RUNNING.exec(text);
      if (run && (active || p)) {
        active = true;
        current = run[1]!;
        running = current;
        lastFailedResult = null;
        known(current);
        recap = null;
        return true;
      }
      const cr = CLASS_RESULT.exec(text);
      if (cr) {
        active = true;
        const cls = cr[5] ?? running;
        running = null;
        if (cr[5]) {
          current = cr[5];
          known(current);
        }
        const [failures, errors] = [Number(cr[2]), Number(cr[3])];
        lastFailedResult = null;
        if (cls && failures + errors > 0 && failedClasses.length < 1000) {
          lastFailedResult = { cls, text, lineNo, errors: failures === 0 };
          failedClasses.push(lastFailedResult);
        }
        return true;
      }
      // A log cut before the test run still has Maven's recap and count lines.
      if (!active && p && (RECAP_HEAD.test(text) || TOTAL.test(text) || text === "Results:")) active = true;
      // Surefire 2's recap pasted without Maven's prefixes: its heading carries the first entry, a test method
      // and its fully qualified class (`Failed tests:   testX(pkg.Class): message`).
      if (!active && !p && /^(?:Failed tests|Tests in error): ?$/.test(text)) {
        headless = text.startsWith("F") ? "Failures" : "Errors";
        return true;
      }
      if (!active && !p && text.startsWith(text.startsWith("F") ? "Failed tests: " : "Tests in error: ")) {
        const first = LEGACY_ENTRY.exec(`  ${text.replace(/^[^:]+: +/, "")}`);
        if (first && /^(?:[a-z_][\w$]*\.)+[A-Z][\w$]*$/.test(first[2]!)) active = true;
      }
      // A paste that starts at a failure's detail line: the line itself names the test's class in full
      // (`testX(pkg.Class)  Time elapsed: 0.008 sec  <<< FAILURE!`, or `pkg.Class.testX -- Time elapsed …`).
      if (!active && text.endsWith("!")) {
        const d0 = DETAIL.exec(text);
        if (
          d0 &&
          /^(?:[\w$-]+\((?:[a-z_][\w$]*\.)+[A-Za-z_][\w$]*\)|(?:[a-z_][\w$]*\.)+[A-Z][\w$]*\.[\w$]+)$/.test(
            d0[1]!.trim(),
          )
        )
          active = true;
      }
      if (!active) return false;
      const d = text.startsWith("Tests run:") ? null : DETAIL.exec(text);
      if (d) {
        const { cls, method } = splitName(d[1]!.trim(), current);
        // Surefire prints a class's failure details after its `Tests run: … in` line. While the class still runs,
        // a detail-like line naming a class no `Running`/`Tests run` line named is the test's own output.
        if (running !== null && cls?.includes(".") && classes.get(simple(cls)) !== cls) return true;
        if (cls) known(cls);
        if (lastFailedResult) lastFailedResult.detailed = true;
        detail = {
          id: cls ? (method ? `${cls}.${method}` : cls) : method,
          cls,
          method,
          kind: d[2] as "FAILURE" | "ERROR",
          buf: new BlockBuffer(80, 8_000),
        };
        detail.buf.push(text, lineNo);
        return true;
      }
      const total = TOTAL.exec(text);
      if (total) {
        recap = null;
        const [run, failures, errors, skipped] = [1, 2, 3, 4].map((i) => Number(total[i]));
        sink.summary({
          passed: run! - failures! - errors! - skipped!,
          failed: failures!,
          error: errors!,
          skipped: skipped!,
        });
        return true;
      }
      if (text === "Results:" || text === "Results :") {
        recap = null;
        return true;
      }
      // Surefire 2 before 2.19 prints the first entry on the heading itself: `Failed tests:   testX(pkg.Class): msg`.
      const rhe = /^(Failed tests|Tests in error): +(\S.*)$/.exec(text);
      const rh = rhe ?? RECAP_HEAD.exec(text);
      if (rhe) {
        const legacy = LEGACY_ENTRY.exec(`  ${rhe[2]}`);
        if (legacy) {
          recap = rhe[1] === "Failed tests" ? "Failures" : "Errors";
          recapEntries.push(legacyEntry(legacy, recap, lineNo));
          return true;
        }
      }
      if (rh && !rhe) {
        const h = rh[1]!;
        recap =
          h === "Failed tests"
            ? "Failures"
            : h === "Tests in error"
              ? "Errors"
              : (h as "Failures" | "Errors" | "Flakes");
        return true;
      }
      if (recap) {
        if (RUN_LINE.test(text)) return true;
        // A multi-line message (hamcrest's `Expected: … but: …`) continues without Maven's prefix.
        const last = recapEntries[recapEntries.length - 1];
        if (
          !p &&
          prefixed &&
          last &&
          last.lineNo >= lineNo - 20 &&
          text.trim() !== "" &&
          !/^ {2}\S/.test(text)
        ) {
          if (last.message.length < 2_000) last.message = `${last.message}\n${text.trim()}`.trim();
          return true;
        }
        if (/^ {4}/.test(text)) return true;
        const rr = RERUN_ENTRY.exec(text);
        if (rr && (!rr[3] || rr[3] === rr[1])) {
          const method = methodName(rr[2]!);
          if (recap === "Flakes") flaky.add(`${simple(rr[1]!)}.${method.split(/[([]/, 1)[0]}`);
          return true;
        }
        const legacy = LEGACY_ENTRY.exec(text);
        if (legacy) {
          recapEntries.push(legacyEntry(legacy, recap, lineNo));
          return true;
        }
        const e = RECAP_ENTRY.exec(text);
        if (e) {
          const method = methodName(e[2]!);
          if (recap === "Flakes") flaky.add(`${simple(e[1]!)}.${method.split(/[([]/, 1)[0]}`);
          else
            recapEntries.push({
              cls: e[1]!,
              method,
              line: e[3] ? Number(e[3]) : null,
              message: e[4] ?? "",
              kind: recap,
              lineNo,
              bare: e[3] === undefined && e[4] === undefined,
              inherited: /^ {2}[\w$.]+>/.test(e[0]),
            });
          return true;
        }
        if (text.trim() === "") return true;
        recap = null;
      }
      return p !== null && /^(?:-+|\s*)$/.test(text);
    },
    end(): void {
      closeDetail();
      const base = (cls: string | null, method: string) =>
        `${cls ? simple(cls) : ""}.${method.split(/[([]/, 1)[0]}`;
      const covered = new Set<string>();
      // The recap names a failure by the deepest frame in the test class (`OvenTest.light:18`): a hook's
      // frame when a `@BeforeEach`/`@AfterEach`/`@BeforeAll` failed. A recap entry whose frame is in the
      // stack of a detail block of the same class is that detail's failure, not another test.
      const frames = new Set<string>();
      for (const d of details) {
        for (const l of d.buf.lines) {
          const f = /^\s*at (?:[\w.-]+\/\/?)?([\w$.]+)\.([\w$]+)\([\w$]+\.\w+:(\d+)\)$/.exec(l);
          if (f) frames.add(`${simple(f[1]!).replace(/\$.*$/, "")}.${f[2]}:${f[3]}`);
        }
      }
      for (const d of details) {
        nestedClassOf(d);
        const key = base(d.cls, d.method);
        covered.add(key);
        if (flaky.has(key)) {
          sink.test(d.id, "failed");
          sink.test(d.id, "passed");
          continue;
        }
        const lines = d.buf.lines.slice(1);
        const j = summarizeJava(lines, d.cls, sink);
        const recapHit = recapEntries.find((r) => base(r.cls, r.method) === key);
        const location =
          j.location ??
          (recapHit?.line && d.cls
            ? {
                file: sink.path(sourcePath(d.cls, `${simple(d.cls).replace(/\$.*$/, "")}.java`, d.cls)),
                line: recapHit.line,
              }
            : null);
        sink.failure({
          category: categoryOfError(j.errorType, "test"),
          test: d.id,
          file: location?.file ?? null,
          line: location?.line ?? null,
          errorType: j.errorType,
          message: j.message || recapHit?.message || d.kind,
          stack: d.buf.text(),
          start: d.buf.start,
          end: d.buf.end,
        });
        sink.test(d.id, d.kind === "ERROR" ? "error" : "failed");
      }
      // Tests named only in the recap (a detail block cut from the log): the recap's class is a simple name.
      for (const r of recapEntries) {
        const key = base(r.cls, r.method);
        if (covered.has(key) || flaky.has(key)) continue;
        // `[ERROR]   SearchCommandTest.sortByTimestampWhenGroupIdAndArt` ending the log: its name may be cut.
        if (r.bare && r.lineNo === lastText) continue;
        if (r.line !== null && frames.has(`${simple(r.cls).replace(/\$.*$/, "")}.${r.method}:${r.line}`))
          continue;
        // A class-level hook's frame (`CartIT>TestKitSupport.beforeAll:56`, `StockTest.setUpClass:12`): no test ran, the
        // class failed, as its class-level detail block (`pkg.StockTest  Time elapsed … <<< ERROR!`) would name it.
        const hook = CLASS_HOOK.test(r.method);
        if (hook && covered.has(base(r.cls, ""))) continue;
        covered.add(hook ? base(r.cls, "") : key);
        const outer = r.cls.split("$", 1)[0]!;
        const cls = r.cls.includes(".")
          ? r.cls
          : (classes.get(r.cls) ??
            (classes.has(outer) ? `${classes.get(outer)!}${r.cls.slice(outer.length)}` : r.cls));
        const id = hook ? cls : `${cls}.${r.method}`;
        const typed = /^(\w+(?:Error|Exception)?)\s(.*)$/.exec(r.message);
        // An inherited hook's line is in the base class's file, which the recap does not name: no place.
        const line = hook && r.inherited ? null : r.line;
        sink.failure({
          category: "test",
          test: id,
          file: line ? sink.path(sourcePath(cls, `${simple(cls).replace(/\$.*$/, "")}.java`, cls)) : null,
          line,
          errorType: r.kind === "Errors" && typed ? typed[1]! : null,
          message: r.message || r.kind,
          start: r.lineNo,
          end: r.lineNo,
        });
        sink.test(id, r.kind === "Errors" ? "error" : "failed");
      }
      // A class whose result line counts a failure no detail block or recap entry names: the class itself.
      // Any detail or recap entry of the class, its nested classes or its outer class names it (by simple name
      // too: the recap's classes are simple names, and a nested class's tests may be listed under the outer one).
      const outerOf = (c: string) => simple(c).split("$", 1)[0]!;
      const named = (cls: string) =>
        [...details.map((d) => d.cls), ...recapEntries.map((r) => r.cls)].some(
          (c) => c !== null && (c === cls || simple(c) === simple(cls) || outerOf(c) === outerOf(cls)),
        );
      const done = new Set<string>();
      for (const c of failedClasses) {
        if (done.has(c.cls) || c.detailed || named(c.cls)) continue;
        done.add(c.cls);
        sink.failure({
          category: "test",
          test: c.cls,
          message: c.text,
          start: c.lineNo,
          end: c.lineNo,
        });
        sink.test(c.cls, c.errors ? "error" : "failed");
      }
    },
  };
}

export const surefireFormat: FormatDefinition = {
  name: "surefire",
  description: "Maven Surefire / Failsafe console output (detail blocks, Results recap, Tests run counts)",
  create: createSurefireParser,
  // Maven's `[INFO]`/`[ERROR]` levels are Surefire's own framing; for any other tool they are a prefix to strip.
  readsPrefixes: ["level"],
};
