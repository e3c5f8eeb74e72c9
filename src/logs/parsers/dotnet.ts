/**
 * `dotnet test` (VSTest console logger, every .NET version since 2016): `Failed Ns.Class.Method [12 ms]`
 * / `Passed …` / `Skipped …` result lines, the indented `Error Message:` / `Stack Trace:` / `Standard Output
 * Messages:` blocks, and the `Failed!  - Failed: 1, Passed: 3, …` / `Total tests: N` count lines; and TRX
 * reports (`<UnitTestResult testName=… outcome="Failed">` with `<ErrorInfo>`, the class from
 * `<TestDefinitions>`). Ids are `Ns.Class.Method` plus the displayed arguments (docs/test-ids.md).
 */
import { REPORT_XML_OPTIONS, xmlStream } from "./xml-stream.ts";
import { XMLParser } from "fast-xml-parser";
import { BlockBuffer, type FormatDefinition, type ParserSink } from "../parser.ts";

const START =
  /^(?:Starting test execution, please wait\.\.\.|Test run for .+ \(.+\)$|A total of \d+ test files? matched|NUnit Adapter [\d.]+: Test execution started|\[xUnit\.net [\d:.]+\] )/;
const RESULT =
  /^ {0,2}(Passed|Failed|Skipped|Not Run) {1,3}(\S.*?)(?: \[(?:< )?[\d.,]+ ?(?:ms|s|m|h)(?: [\d.,]+ ?(?:ms|s))?\])?$/;
/** VSTest 16.x's console logger marks a result with a sign instead of a word: `  X name [134ms]`, `  √ name [2ms]`. */
const MARKED = /^ {2}(X|√|✓|!) (\S.*?) \[(?:< )?[\d.,]+ ?(?:ms|s|m|h)(?: [\d.,]+ ?(?:ms|s))?\]$/;
/** Any frame's method, with or without its source (a paste may cut the line after the method). */
const FRAME_METHOD = /^\s*at ([\w.`<>+]+)\(/;
const SECTION =
  /^ {0,4}(Error Message|Stack Trace|Standard Output Messages|Standard Error Messages|Debug Trace|Additional Information|Results \(\d+\)):$/;
const FRAME = /^\s*at (.+?)\(.*?\)(?: in (.+?):line (\d+))?$/;
/** xUnit's own runner prints a frame's source before its method: `/src/T/CartTests.cs(21,0): at Shop.T.CartTests.Adds()`. */
const XUNIT_FRAME = /^\s*(.+?\.(?:cs|fs|vb))\((\d+),\d+\): at (.+?)\(/;
/**
 * xUnit.net's runner lines (`[xUnit.net 00:05:23.48]     Ns.Class.Method(x: 1) [FAIL]`, printed by `dotnet test`
 * before VSTest's own `Failed` line, or alone): the result at four spaces, its message, `Stack Trace:` and
 * frames deeper.
 */
const XUNIT_LINE = /^\[xUnit\.net [\d:.]+\] (.*)$/;
const XUNIT_FAIL = /^ {4}(\S.*?) \[FAIL\]$/;
/**
 * Microsoft.Testing.Platform's terminal reporter (`dotnet test` on MTP, an MSTest/xUnit v3/TUnit app run alone):
 * `failed Name (args) (6s 220ms)` (also `passed`, `skipped`, `failed (canceled)`), the message, `Expected`/`Actual`
 * and `Stack Trace:` indented below, frames `at Ns.Class.Method() in /src/T.cs:280`; then `Test run summary: Failed! -
 * x.dll (net8.0|x64)` with `  total:`/`  failed:`/`  succeeded:`/`  skipped:` lines.
 */
const MTP_RESULT =
  /^ {0,2}(passed|skipped|failed(?: \([a-z ]+\))?) (\S.*?) \((?:\d+d )?(?:\d+h )?(?:\d+m )?(?:\d+s )?\d+ms\)$/;
const MTP_FRAME = /^\s*at (.+?)\(.*?\) in (.+?):(\d+)$/;
const MTP_SUMMARY = /^Test run summary: /;
const MTP_COUNT = /^ {2}(total|failed|succeeded|skipped): (\d+)$/;
const MODERN_SUMMARY =
  /^(?:Failed|Passed)!\s+- Failed:\s+(\d+), Passed:\s+(\d+), Skipped:\s+(\d+), Total:\s+(\d+)/;
const OLD_SUMMARY = /^Total tests: (\d+)\. Passed: (\d+)\. Failed: (\d+)\. Skipped: (\d+)\./;

/** The first frame inside the repository (not System.* / Microsoft.* / NUnit / Xunit internals) with a source line. */
export function locate(
  lines: readonly string[],
  sink: ParserSink,
): { file: string; line: number; method: string } | null {
  for (const l of lines) {
    const x = XUNIT_FRAME.exec(l);
    const f = x ? ([l, x[3]!, x[1]!, x[2]!] as const) : FRAME.exec(l);
    if (!f?.[2]) continue;
    if (/^(?:System|Microsoft|NUnit|Xunit|xunit|FluentAssertions|Shouldly)\./.test(f[1]!)) continue;
    return { file: sink.path(f[2]!), line: Number(f[3]), method: f[1]!.trim() };
  }
  return null;
}

/** A display name without its class (MSTest, NUnit print `Method` or `Method(1,2)`) gets the class from its frame. */
function qualify(name: string, frameMethod: string | null): string {
  const head = name.split("(", 1)[0]!;
  if (head.includes(".") || !frameMethod) return name;
  const m = /^(.*)\.([\w`<>]+)$/.exec(frameMethod);
  return m && m[2] === head ? `${m[1]}.${name}` : name;
}

export function createDotnetParser(sink: ParserSink) {
  let active = false;
  let block: {
    name: string;
    buf: BlockBuffer;
    section: string | null;
    message: string[];
    stack: string[];
  } | null = null;
  let summaryRead = false;
  /**
   * A `Failed   Ns.Class.Method` line seen before any run header (an entry pasted alone): VSTest's once the next
   * line is one of its sections (`Error Message:`), and read from there as if the header had been seen.
   */
  let pasted: { text: string; lineNo: number } | null = null;
  let total: { total: number; passed: number; failed: number; skipped: number } | null = null;

  /** MTP results: failures wait for the end, when the summary or a frame of their own confirms the format. */
  let mtp: { name: string; buf: BlockBuffer } | null = null;
  const mtpFailures: { name: string; buf: BlockBuffer }[] = [];
  let mtpSummary: { failed: number; passed: number; skipped: number } | null = null;
  let mtpCounts = false;

  function closeMtp(): void {
    if (mtp && mtpFailures.length < 1000) mtpFailures.push(mtp);
    mtp = null;
  }

  function finishMtp(): void {
    closeMtp();
    if (mtpSummary) sink.summary(mtpSummary);
    for (const f of mtpFailures) {
      const lines = f.buf.lines.slice(1);
      const frames = lines
        .map((l) => MTP_FRAME.exec(l) ?? FRAME.exec(l))
        .filter((m): m is RegExpExecArray => m !== null);
      if (!mtpSummary && frames.length === 0) continue;
      const inRepo = frames.find(
        (m) => m[2] && !/^(?:System|Microsoft|NUnit|Xunit|xunit)\./.test(m[1]!.trim()),
      );
      const head = f.name.split("(", 1)[0]!.trim();
      const own = frames.map((m) => m[1]!.trim()).find((m) => m.endsWith(`.${head}`));
      const cls = !head.includes(".") && own ? own.slice(0, -head.length - 1) : null;
      const id = cls ? `${cls}.${f.name}` : f.name;
      // A deterministic build's source root `/_/` is the repository's root.
      const file = inRepo?.[2] ? sink.path(inRepo[2].replace(/^\/_\//, "")) : null;
      const message = lines
        .filter((l) => l.trim() !== "" && !/^\s*at /.test(l) && !/^\s*Stack Trace:$/.test(l))
        .map((l) => l.trim());
      const typed = /^([\w.]+(?:Exception|Error)): (.*)$/.exec(message[0] ?? "");
      sink.failure({
        category: "test",
        test: id,
        file,
        line: inRepo?.[3] ? Number(inRepo[3]) : null,
        errorType: typed ? typed[1]! : null,
        message: (typed ? [typed[2]!, ...message.slice(1)] : message).join("\n") || "failed",
        stack: f.buf.text(),
        start: f.buf.start,
        end: f.buf.end,
      });
      sink.test(id, "failed");
    }
  }

  function flush(): void {
    if (!block) return;
    const b = block;
    block = null;
    let loc = locate(b.stack, sink);
    // MSTest and NUnit print the bare method: a frame of that method names its class, even one cut after `()`.
    const head = b.name.split("(", 1)[0]!;
    let named = b.stack.map((l) => FRAME_METHOD.exec(l)?.[1]).find((m) => m?.endsWith(`.${head}`));
    // xUnit's runner prints a bare method too (`EmptyRequestLoggedAsInformation [FAIL]`); an async test's own frame is
    // its state machine's (`Ns.Class.<Method>d__0.MoveNext()`), which names the method. That frame is the test's own
    // even in a Microsoft.* or System.* namespace (the repository's own tests), so it also places the failure.
    if (!named && !head.includes(".")) {
      for (const l of b.stack) {
        const x = XUNIT_FRAME.exec(l);
        const f = x ? ([l, x[3]!, x[1]!, x[2]!] as const) : FRAME.exec(l);
        if (!f) continue;
        const method = f[1]!.trim().replace(/\.<([\w`]+)>d__\d+\.MoveNext$/, ".$1");
        if (!method.endsWith(`.${head}`)) continue;
        named = method;
        if (!loc && f[2]) loc = { file: sink.path(f[2]), line: Number(f[3]), method };
        break;
      }
    }
    const id = qualify(
      b.name,
      loc?.method.endsWith(`.${head}`) ? loc.method : (named ?? loc?.method ?? null),
    );
    const first = b.message[0] ?? "";
    const typed = /^(?:Test method \S+ threw exception:\s*)?([\w.]+(?:Exception|Error)): (.*)$/s.exec(
      b.message.join("\n"),
    );
    sink.failure({
      category: "test",
      test: id,
      file: loc?.file ?? null,
      line: loc?.line ?? null,
      errorType: typed ? typed[1]! : null,
      message: (typed ? typed[2]! : b.message.join("\n")).trim() || first || "Failed",
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
    sink.test(id, "failed");
  }

  return {
    line(text: string, lineNo: number): boolean {
      const xu = text.startsWith("[xUnit.net ") ? XUNIT_LINE.exec(text) : null;
      if (xu) {
        active = true;
        const body = xu[1]!;
        const fail = XUNIT_FAIL.exec(body);
        if (fail) {
          flush();
          block = {
            name: fail[1]!.trim(),
            buf: new BlockBuffer(150, 12_000),
            section: "Error Message",
            message: [],
            stack: [],
          };
          block.buf.push(text, lineNo);
          return true;
        }
        if (block && /^ {6}/.test(body)) {
          block.buf.push(text, lineNo);
          const sec = /^ {6}(Stack Trace|Output):$/.exec(body);
          if (sec) block.section = sec[1] === "Output" ? "Standard Output Messages" : "Stack Trace";
          else if (block.section === "Error Message" && block.message.length < 30)
            block.message.push(body.trim());
          else if (block.section === "Stack Trace" && block.stack.length < 60) block.stack.push(body);
          return true;
        }
        flush();
        return true;
      }
      const mr = text.charCodeAt(0) === 32 || text.charCodeAt(0) > 96 ? MTP_RESULT.exec(text) : null;
      if (mr) {
        closeMtp();
        if (mr[1]!.startsWith("failed")) {
          mtp = { name: mr[2]!.trim(), buf: new BlockBuffer(150, 12_000) };
          mtp.buf.push(text, lineNo);
        } else sink.test(mr[2]!.trim(), mr[1] === "passed" ? "passed" : "skipped");
        return true;
      }
      if (mtp) {
        if (text.trim() === "" || /^\s/.test(text)) {
          mtp.buf.push(text, lineNo);
          return true;
        }
        closeMtp();
      }
      if (MTP_SUMMARY.test(text)) {
        mtpSummary ??= { failed: 0, passed: 0, skipped: 0 };
        mtpCounts = true;
        return true;
      }
      if (mtpCounts) {
        const c = MTP_COUNT.exec(text);
        if (c && mtpSummary) {
          const n = Number(c[2]);
          if (c[1] === "failed") mtpSummary.failed += n;
          else if (c[1] === "succeeded") mtpSummary.passed += n;
          else if (c[1] === "skipped") mtpSummary.skipped += n;
          return true;
        }
        if (/^ {2}duration: /.test(text)) return true;
        mtpCounts = false;
      }
      if (START.test(text)) {
        active = true;
        return true;
      }
      const ms = MODERN_SUMMARY.exec(text);
      if (ms) {
        flush();
        summaryRead = true;
        sink.summary({ failed: Number(ms[1]), passed: Number(ms[2]), skipped: Number(ms[3]) });
        return true;
      }
      const os = OLD_SUMMARY.exec(text);
      if (os) {
        flush();
        summaryRead = true;
        sink.summary({ passed: Number(os[2]), failed: Number(os[3]), skipped: Number(os[4]) });
        return true;
      }
      if (!active) {
        const p = pasted;
        pasted = null;
        if (p && SECTION.test(text)) {
          active = true;
          this.line(p.text, p.lineNo);
          return this.line(text, lineNo);
        }
        if (/^ {0,2}Failed /.test(text) && RESULT.test(text)) pasted = { text, lineNo };
        return false;
      }
      // `Total tests: 2` then `Passed: 1` / `Failed: 1` lines (.NET 5+ without the one-line summary).
      const tt = /^Total tests: (\d+)$/.exec(text);
      if (tt) {
        flush();
        total = { total: Number(tt[1]), passed: 0, failed: 0, skipped: 0 };
        return true;
      }
      const count = total ? /^\s+(Passed|Failed|Skipped): (\d+)$/.exec(text) : null;
      if (count && total) {
        total[count[1]!.toLowerCase() as "passed" | "failed" | "skipped"] = Number(count[2]);
        return true;
      }
      if (total && /^\s*Total time:/.test(text)) {
        if (!summaryRead)
          sink.summary({ passed: total.passed, failed: total.failed, skipped: total.skipped });
        total = null;
        return true;
      }
      const mk = RESULT.exec(text) ? null : MARKED.exec(text);
      const r = mk
        ? ([text, mk[1] === "X" ? "Failed" : mk[1] === "!" ? "Skipped" : "Passed", mk[2]!] as const)
        : RESULT.exec(text);
      if (r) {
        flush();
        const name = r[2]!.trim();
        if (r[1] === "Failed") {
          block = { name, buf: new BlockBuffer(150, 12_000), section: null, message: [], stack: [] };
          block.buf.push(text, lineNo);
        } else sink.test(name, r[1] === "Passed" ? "passed" : "skipped");
        return true;
      }
      if (block) {
        const s = SECTION.exec(text);
        if (s) {
          block.section = s[1]!;
          block.buf.push(text, lineNo);
          return true;
        }
        if (text.trim() === "" || /^\s/.test(text)) {
          block.buf.push(text, lineNo);
          if (block.section === "Error Message" && text.trim() !== "" && block.message.length < 30)
            block.message.push(text.trim());
          if (block.section === "Stack Trace" && block.stack.length < 60) block.stack.push(text);
          return true;
        }
        flush();
      }
      return false;
    },
    end(): void {
      // A `Failed   Name` line that ends the log with nothing below it (no section, not even a blank line) is
      // where a paste was cut: its name may be cut too (`Failed   Issue_32_EncodedLengt`), so it names no test.
      if (block && block.section === null && block.buf.lines.length === 1) block = null;
      flush();
      finishMtp();
    },
  };
}

const trxXml = new XMLParser(REPORT_XML_OPTIONS);

/**
 * TRX, read as a stream: each `<UnitTestResult>` element is cut out as it completes; the class of each test
 * comes from `<TestDefinitions>`, which follows the results, so results are held (bounded) until the end.
 */
export function createTrxParser(sink: ParserSink) {
  let startLine = 0;
  /**
   * True while reading `<UnitTestResult>` elements that no `<TestRun>` wraps (a report pasted in part): the fragment
   * starts at a line that opens with `<UnitTestResult` or `<Results>` and ends at the first line between elements
   * that is not XML.
   */
  let fragment = false;
  const doc = xmlStream({
    startAt: (text) => {
      const at = text.indexOf("<TestRun");
      if (at !== -1 && /<TestRun[\s>]/.test(text)) return at;
      const lone = /^\s*<(?:UnitTestResult[\s>]|Results>)/.exec(text);
      if (!lone) return -1;
      fragment = true;
      return text.indexOf("<");
    },
    onLine: (text, lineNo) => {
      if (startLine === 0 && /<UnitTestResult[\s>]/.test(text)) startLine = lineNo;
    },
    scan,
    endsAt: (text) => text.includes("</TestRun>"),
  });
  const results: {
    testId: string;
    name: string;
    outcome: string;
    message: string;
    stack: string;
    start: number;
    end: number;
  }[] = [];
  const classes = new Map<string, string>();

  function scan(lineNo: number): void {
    for (;;) {
      const r = doc.text.search(/<UnitTestResult[\s>]|<UnitTest[\s>]/);
      if (r === -1) {
        doc.text = doc.text.slice(Math.max(0, doc.text.length - 64));
        return;
      }
      const isResult = doc.text.startsWith("<UnitTestResult", r);
      const closeTag = isResult ? "</UnitTestResult>" : "</UnitTest>";
      const openEnd = doc.text.indexOf(">", r);
      if (openEnd === -1) {
        doc.text = doc.text.slice(r);
        return;
      }
      const selfClosing = doc.text[openEnd - 1] === "/";
      const close = selfClosing ? openEnd + 1 : doc.text.indexOf(closeTag, openEnd);
      if (close === -1) {
        doc.text = doc.text.slice(r);
        if (doc.text.length > 512 * 1024) doc.text = doc.text.slice(0, 256 * 1024); // a runaway element: keep its head
        if (startLine === 0) startLine = lineNo;
        return;
      }
      const end = selfClosing ? close : close + closeTag.length;
      const element = doc.text.slice(r, end);
      doc.text = doc.text.slice(end);
      let node: Record<string, unknown>;
      try {
        node = trxXml.parse(element) as Record<string, unknown>;
      } catch {
        startLine = 0;
        continue;
      }
      if (isResult) {
        const u = node["UnitTestResult"] as Record<string, unknown>;
        const err = ((u["Output"] as Record<string, unknown> | undefined)?.["ErrorInfo"] ?? {}) as Record<
          string,
          unknown
        >;
        const text = (v: unknown) =>
          typeof v === "string"
            ? v
            : typeof v === "object" && v
              ? String((v as Record<string, unknown>)["#text"] ?? "")
              : "";
        if (results.length < 100_000)
          results.push({
            testId: String(u["testId"] ?? ""),
            name: String(u["testName"] ?? ""),
            outcome: String(u["outcome"] ?? ""),
            message: text(err["Message"]).trim(),
            stack: text(err["StackTrace"]),
            start: startLine || lineNo,
            end: lineNo,
          });
      } else {
        const t = node["UnitTest"] as Record<string, unknown>;
        const m = t["TestMethod"] as Record<string, unknown> | undefined;
        if (m && classes.size < 100_000) classes.set(String(t["id"] ?? ""), String(m["className"] ?? ""));
      }
      startLine = 0;
    }
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (
        fragment &&
        doc.inDoc &&
        text.trim() !== "" &&
        !text.trimStart().startsWith("<") &&
        doc.text.search(/<UnitTest(?:Result)?[\s>]/) === -1
      ) {
        doc.reset();
        fragment = false;
      }
      return doc.line(text, lineNo);
    },
    more: doc.more,
    end(): void {
      let passed = 0;
      let failed = 0;
      let skipped = 0;
      for (const r of results) {
        // xUnit's testName is already `Ns.Class.Method(args)`; MSTest's and NUnit's is the method alone.
        const cls = classes.get(r.testId) ?? "";
        const id = cls && !r.name.startsWith(`${cls}.`) ? `${cls}.${r.name}` : r.name;
        // TRX outcomes: a test that ran past its timeout failed; one that passed while the run was aborted passed.
        const outcome =
          r.outcome === "Passed" || r.outcome === "PassedButRunAborted"
            ? "passed"
            : r.outcome === "Failed" || r.outcome === "Error" || r.outcome === "Timeout"
              ? "failed"
              : "skipped";
        if (outcome === "passed") passed++;
        else if (outcome === "failed") failed++;
        else skipped++;
        sink.test(id, outcome);
        if (outcome !== "failed") continue;
        const lines = r.stack.split("\n");
        const loc = locate(lines, sink);
        // MSTest wraps an unexpected exception: `Test method X threw exception: \nSystem.NullReferenceException: …`.
        const typed = /^(?:Test method \S+ threw exception:\s*)?([\w.]+(?:Exception|Error)) ?: (.*)$/s.exec(
          r.message,
        );
        sink.failure({
          category: "test",
          test: id,
          file: loc?.file ?? null,
          line: loc?.line ?? null,
          errorType: typed ? typed[1]! : null,
          message: typed ? typed[2]! : r.message || "Failed",
          stack: r.stack || null,
          start: r.start,
          end: r.end,
        });
      }
      if (results.length > 0) sink.summary({ passed, failed, skipped });
      results.length = 0;
      doc.reset();
    },
  };
}

export const dotnetFormat: FormatDefinition = {
  name: "dotnet",
  description:
    "dotnet test console output (VSTest console logger: Failed/Passed lines, Error Message, Stack Trace)",
  create: createDotnetParser,
};

export const trxFormat: FormatDefinition = {
  name: "trx",
  description: "Visual Studio TRX test results (dotnet test --logger trx)",
  create: createTrxParser,
  // A fresh parser looks only at lines where a document can start (`startAt`).
  wakesOn: [/<TestRun/, /^\s*<(?:UnitTestResult|Results>)/],
};
