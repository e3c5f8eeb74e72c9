/**
 * `go test -json` (test2json): one JSON event per line with Action run/output/pass/fail/skip per
 * package and test; the output events of a failed test carry its messages or panic. Build errors
 * arrive as `build-output`/`build-fail` events (Go 1.24+) or as plain lines (older Go, read by the go parser).
 */
import { BlockBuffer, type FormatDefinition, own, type ParserSink } from "../parser.ts";
import { GoFailures, goFailureFromOutput } from "./go-output.ts";

interface Event {
  Action?: string;
  Package?: string;
  ImportPath?: string;
  Test?: string;
  Output?: string;
}

/**
 * A test's `run`, `pass` or `skip` event as test2json writes it (`Time`, `Action`, `Package`, `Test`, and `Elapsed`
 * on a result), its strings without escapes or control characters: most events of a long run. A line of this shape
 * is valid JSON, and the match holds what `JSON.parse` would give, so the parser reads it from the match instead
 * of building the object; any other line (more fields, another order, an escape) goes through `JSON.parse` as before.
 * A string character is anything from U+0020 on but `"` and `\\` (the ranges below).
 */
const TEST_EVENT =
  /^\{"Time":"[ !#-[\]-\uffff]*","Action":"(run|pass|skip)","Package":"([ !#-[\]-\uffff]*)","Test":"([ !#-[\]-\uffff]+)"(?:,"Elapsed":(?:0|[1-9]\d*)(?:\.\d+)?)?\}$/;

const PACKAGE = '"Package":"';
const TEST = '"Test":"';

/**
 * A plain string field of a test2json event, or null when it is absent or escaped (then JSON.parse decides).
 * `marker` is the field's `"Name":"` (a constant: no new string per event).
 */
function field(text: string, marker: string): string | null {
  const at = text.indexOf(marker);
  if (at === -1) return null;
  const from = at + marker.length;
  const to = text.indexOf('"', from);
  if (to === -1) return null;
  const value = text.slice(from, to);
  return value.includes("\\") ? null : value;
}

/** The text lines of buffered raw `output` events. */
function decodeOutput(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (const l of raw) {
    try {
      const e = JSON.parse(l) as Event;
      for (const line of (e.Output ?? "").replace(/\n$/, "").split("\n")) out.push(line);
    } catch {
      out.push(l);
    }
  }
  return out;
}

/**
 * A line only a failing test prints: gotest.tools' `file_test.go:106: assertion failed`, testify's `Error Trace:`
 * header. (A bare `file_test.go:12: text` is t.Log as much as t.Error: not a failure by itself.)
 */
const FAILED_ASSERTION = /^\s*(?:\S+\.go:\d+: assertion failed\b|Error Trace:\s)/;

const COMPILE = /^((?:\.\.?\/)?[\w./-]+\.go):(\d+):(\d+): (.*)$/;

export function createGoJsonParser(sink: ParserSink) {
  const outputs = new Map<string, BlockBuffer>();
  const failed: { key: string; pkg: string; test: string }[] = [];
  const held = new GoFailures();
  const builds = new Map<string, BlockBuffer>();

  function bufferOf(map: Map<string, BlockBuffer>, key: string): BlockBuffer | null {
    let b = map.get(key);
    if (!b && map.size < 5_000) {
      b = new BlockBuffer(200, 48_000);
      map.set(key, b);
    }
    return b ?? null;
  }

  function finishPackage(pkg: string, packageFailed = false): void {
    // A panic in a goroutine kills the test binary: older test2json leaves the test that was running with no
    // `fail` event (only the package fails), and the panic is in that test's output. It is a failed test.
    if (packageFailed) {
      for (const [key, buf] of outputs) {
        if (!key.startsWith(`${pkg}\u0000`)) continue;
        const test = key.slice(pkg.length + 1);
        if (failed.some((f) => f.key === key)) continue;
        if (!decodeOutput(buf.lines).some((l) => /^panic: /.test(l))) continue;
        sink.test(`${pkg}.${test}`, "failed");
        if (failed.length < 5_000) failed.push({ key, pkg, test });
      }
    }
    const names = new Set(failed.filter((f) => f.pkg === pkg).map((f) => f.test));
    for (const f of failed.filter((x) => x.pkg === pkg)) {
      const buf = outputs.get(f.key);
      const lines = decodeOutput(buf?.lines ?? []);
      const hasOwnOutput = lines.some((l) => !/^\s*(?:=== |--- )/.test(l) && l.trim() !== "");
      if (!hasOwnOutput && [...names].some((n) => n.startsWith(`${f.test}/`))) continue;
      const draft = goFailureFromOutput(`${pkg}.${f.test}`, lines, sink, {
        start: buf?.start || 1,
        end: buf?.end || 1,
      });
      if (draft) held.hold(pkg, draft, sink);
    }
    for (let i = failed.length - 1; i >= 0; i--) if (failed[i]!.pkg === pkg) failed.splice(i, 1);
    for (const key of [...outputs.keys()]) if (key.startsWith(`${pkg}\u0000`)) outputs.delete(key);
  }

  /** A passing or skipped test: its output is not needed any more. */
  function testResult(pkg: string, test: string, outcome: "passed" | "skipped"): void {
    sink.test(`${pkg}.${test}`, outcome);
    outputs.delete(`${pkg}\u0000${test}`);
  }

  /** The package of the last event read by its shape (`TEST_EVENT`), already told to `held`. */
  let lastPackage: string | null = null;

  return {
    line(text: string, lineNo: number): boolean {
      if (
        text.charCodeAt(0) !== 123 ||
        !(text.startsWith('{"Time"') || text.startsWith('{"Action"') || text.startsWith('{"ImportPath"'))
      ) {
        return false;
      }
      // Fast path for the most frequent event: a test's output line is kept raw and decoded only
      // if the test fails (most output belongs to passing tests and is thrown away).
      if (text.includes('"Action":"output"')) {
        const pkg = field(text, PACKAGE);
        const test = field(text, TEST);
        if (pkg !== null && test !== null) {
          bufferOf(outputs, `${pkg}\u0000${test}`)?.push(text, lineNo);
          return true;
        }
      }
      const t = TEST_EVENT.exec(text);
      if (t) {
        const pkg = t[2]!;
        // The package set keeps its own copy: a match is a slice of the chunk the line was read in.
        if (pkg !== lastPackage) {
          lastPackage = own(pkg);
          held.see(lastPackage);
        }
        if (t[1] !== "run") testResult(pkg, t[3]!, t[1] === "pass" ? "passed" : "skipped");
        return true;
      }
      let e: Event;
      try {
        e = JSON.parse(text) as Event;
      } catch {
        return false;
      }
      if (typeof e.Action !== "string") return false;
      if (e.Action === "build-output" && e.ImportPath) {
        const b = bufferOf(builds, e.ImportPath);
        for (const l of (e.Output ?? "").split("\n")) if (l) b?.push(l, lineNo);
        return true;
      }
      if (e.Action === "build-fail" && e.ImportPath) {
        const b = builds.get(e.ImportPath);
        for (const l of b?.lines ?? []) {
          const m = COMPILE.exec(l);
          if (m) {
            sink.failure({
              category: "build",
              file: sink.path(m[1]!),
              line: Number(m[2]),
              column: Number(m[3]),
              errorType: "compile",
              message: m[4]!,
              stack: b!.text(),
              start: b!.start,
              end: b!.end,
            });
          }
        }
        builds.delete(e.ImportPath);
        return true;
      }
      const pkg = e.Package ?? "";
      held.see(pkg);
      if (!e.Test) {
        if (e.Action === "pass" || e.Action === "fail" || e.Action === "skip")
          finishPackage(pkg, e.Action === "fail");
        return true;
      }
      // `run`, `pause`, `cont` events change nothing: the key and id are built for the others only.
      switch (e.Action) {
        case "output":
          bufferOf(outputs, `${pkg}\u0000${e.Test}`)?.push(text, lineNo);
          break;
        case "pass":
          testResult(pkg, e.Test, "passed");
          break;
        case "skip":
          testResult(pkg, e.Test, "skipped");
          break;
        case "fail": {
          const key = `${pkg}\u0000${e.Test}`;
          sink.test(`${pkg}.${e.Test}`, "failed");
          if (failed.length < 5_000) failed.push({ key, pkg, test: e.Test });
          break;
        }
      }
      return true;
    },
    end(): void {
      // A stream cut before a test's `fail` event (a paste, a killed job): the test's own output already
      // printed its result line `--- FAIL: Name (0.00s)`, or an assertion library's failure line, so it failed.
      for (const [key, buf] of outputs) {
        if (failed.some((f) => f.key === key)) continue;
        const at = key.indexOf("\u0000");
        const pkg = key.slice(0, at);
        const test = key.slice(at + 1);
        const result = `--- FAIL: ${test} (`;
        if (
          !decodeOutput(buf.lines).some((l) => l.trimStart().startsWith(result) || FAILED_ASSERTION.test(l))
        )
          continue;
        sink.test(`${pkg}.${test}`, "failed");
        if (failed.length < 5_000) failed.push({ key, pkg, test });
      }
      for (const pkg of new Set(failed.map((f) => f.pkg))) finishPackage(pkg);
      held.flush(sink);
    },
  };
}

export const goJsonFormat: FormatDefinition = {
  name: "go-json",
  description: "go test -json (test2json events)",
  create: createGoJsonParser,
  // Every other line is left at the first test of `line`.
  wakesOn: /^\{"(?:Time|Action|ImportPath)"/,
};
