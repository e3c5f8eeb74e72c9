/**
 * What the sandbox itself lacks (issue 12, rv23 / fx4): a module of Python's standard library its Python was built
 * without, or a limit of the sandbox (its disk, its file handles), is an infrastructure error saying what to do,
 * never NEEDS_INFO asking the reporter. What the report leaves out (a file, a module of its own or a package's, a
 * network service) stays the question to ask; a library's real failure stays a failure.
 */
import { describe, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { foldRuns, matchRun } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { run } from "./observed-run.ts";

const fence = "```";
const marked = (failing: string) =>
  reportedExpectations(
    parseReport(
      `# t\n\n${fence}python\nimport json\n\n# Works\nprint(json.dumps(1))\n\n# Fails\n${failing}\n${fence}\n`,
    ),
  ).actual;
const error = (failing: string, type: string, message: string) =>
  matchRun(
    marked(failing),
    run({
      exitCode: 1,
      stderr: `Traceback (most recent call last):\n  File "/workspace/reproduction.py", line 7, in <module>\n    ${failing}\n${type}: ${message}\n`,
      exception: { type, message },
    }),
  );
const unspecified = reportedExpectations(
  parseReport("# t\n\nIt throws.\n\n```python\nimport tkinter\n```\n"),
).actual;

describe("the sandbox's own lack is an infrastructure error", () => {
  it("must not ask the reporter: a standard-library module the sandbox's Python lacks", () => {
    expect(() => error("import sqlite3", "ModuleNotFoundError", "No module named '_sqlite3'")).toThrow(
      InfrastructureError,
    );
    expect(() => error("import readline", "ModuleNotFoundError", "No module named 'readline'")).toThrow(
      /standard library/,
    );
    expect(() =>
      matchRun(
        unspecified,
        run({
          exitCode: 1,
          stderr: "Traceback (most recent call last):\nModuleNotFoundError: No module named '_sqlite3'\n",
          exception: { type: "ModuleNotFoundError", message: "No module named '_sqlite3'" },
        }),
      ),
    ).toThrow(InfrastructureError);
  });

  it("must not ask the reporter: the sandbox's disk or file handles running out", () => {
    expect(() =>
      error("open('x', 'w').write('a' * 10**9)", "OSError", "[Errno 28] No space left on device"),
    ).toThrow(/limit of the sandbox/);
    expect(() =>
      error("fs = [open('x') for _ in range(10**6)]", "OSError", "[Errno 24] Too many open files"),
    ).toThrow(InfrastructureError);
  });

  it("counter-examples: what the report leaves out is still the question to the reporter", () => {
    // A module of another platform or of a display: the reporter's machine, not the sandbox's lack.
    for (const [line, mod] of [
      ["import ntpath; ntpath._getfinalpathname('x')", "nt"],
      ["import tkinter", "_tkinter"],
    ] as const)
      expect(error(line, "ModuleNotFoundError", `No module named '${mod}'`).kind).toBe("needs");
    const pkg = error("import yaml", "ModuleNotFoundError", "No module named 'yaml'");
    expect(pkg.kind).toBe("needs");
    expect(pkg.question).toMatch(/published package/);
    const file = error(
      "open('config.json')",
      "FileNotFoundError",
      "[Errno 2] No such file or directory: 'config.json'",
    );
    expect(file.kind).toBe("needs");
    const cannot = error("from lib import thing", "ImportError", "cannot import name 'thing' from 'lib'");
    expect(foldRuns([cannot]).verdict).toBe("NEEDS_INFO");
  });

  it("counter-example: a library's own failure in the failing part stays the reported behaviour", () => {
    const m = error(
      "json.loads('{')",
      "json.decoder.JSONDecodeError",
      "Expecting property name enclosed in double quotes",
    );
    expect(m.kind).toBe("match");
  });
});
