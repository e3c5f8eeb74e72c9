/**
 * Exercism's test-runner result (`results.json`, version 1–3, printed as indented JSON): a top-level `"status"`
 * (`pass`, `fail`, `error`), then `"tests": [` with one object per test, `"name"`, `"status"`, `"message"`. A test with
 * status `fail` or `error` failed. The Go runner reports a package that did not compile as a pseudo-test named
 * `build` whose message is the compiler's `./x_test.go:37:1: message`: no test of the repository, the build failure
 * of that file (placed at that line). Read only when the object opens at the margin (`{`) with its `"status"` before
 * `"tests"`.
 *
 * The id is the entry's `name` as the runner wrote it (the Go runner's `TestX/sub`, what `go test -run` takes).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const FIELD = /^\s*"(name|status|message)": ("(?:[^"\\]|\\.)*"),?\s*$/;
const TOP_STATUS = /^\s{1,8}"status": "(pass|fail|error)",?\s*$/;
const COMPILE = /^(?:\.\/)?([\w./-]+\.\w+):(\d+)(?::(\d+))?: (.*)$/;

function str(json: string): string | null {
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === "string" ? v : null;
  } catch {
    return null;
  }
}

export function createExercismParser(sink: ParserSink) {
  /** `open`: after a margin `{`; `top`: its status read; `tests`: inside its tests array. */
  let state: "none" | "open" | "top" | "tests" = "none";
  let entry: { name?: string; status?: string; message?: string; start: number } | null = null;
  let count = 0;

  function close(lineNo: number): void {
    const e = entry;
    entry = null;
    if (!e?.name || count >= 10_000) return;
    count++;
    const failed = e.status === "fail" || e.status === "error";
    if (e.name === "build" && e.status === "error") {
      const c = COMPILE.exec(e.message?.split("\n", 1)[0] ?? "");
      sink.failure({
        category: "build",
        test: null,
        file: c ? own(sink.path(c[1]!)) : null,
        line: c ? Number(c[2]) : null,
        column: c?.[3] ? Number(c[3]) : null,
        message: own(c ? c[4]! : e.message || "build failed"),
        start: e.start,
        end: lineNo || e.start,
      });
      return;
    }
    const name = own(e.name);
    sink.test(name, failed ? "failed" : e.status === "skip" ? "skipped" : "passed");
    if (failed) {
      sink.failure({
        category: "test",
        test: name,
        message: own(e.message || e.status!),
        start: e.start,
        end: lineNo || e.start,
      });
    }
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (state === "none") {
        if (text === "{") {
          state = "open";
          return false;
        }
        return false;
      }
      if (state === "open") {
        if (/^\s{1,8}"version": \d+,?\s*$/.test(text)) return true;
        const t = TOP_STATUS.exec(text);
        state = t ? "top" : "none";
        return t !== null;
      }
      if (state === "top") {
        if (/^\s*"tests": \[\s*$/.test(text)) {
          state = "tests";
          return true;
        }
        if (/^\s*"(?:version|message)": /.test(text)) return true;
        state = "none";
        return false;
      }
      // tests
      const trimmed = text.trim();
      if (trimmed === "{") {
        entry = { start: lineNo };
        return true;
      }
      if (trimmed === "}," || trimmed === "}") {
        close(lineNo);
        return true;
      }
      if (trimmed === "]" || trimmed === "],") {
        close(lineNo);
        state = "none";
        return true;
      }
      if (entry) {
        const f = FIELD.exec(text);
        if (f) {
          const v = str(f[2]!);
          if (v !== null) entry[f[1] as "name" | "status" | "message"] = v;
        }
        return true;
      }
      state = "none";
      return false;
    },
    end(): void {
      if (state === "tests") close(0);
    },
  };
}

export const exercismFormat: FormatDefinition = {
  name: "exercism",
  description: "Exercism test-runner results.json (indented: status, tests[] with name/status/message)",
  create: createExercismParser,
};
