/**
 * Issue 12, hold18: a template's "Node Version: v12.3.1" is the runtime's number, not a bare release of the
 * package; and a fragment that stops on a name it never defines, where the report shows a base `Error`, is a
 * fragment stopped short (a question), not the same type with another message. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { matchRun } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { findBareVersions } from "../../../src/repro/versions.ts";
import { run } from "./observed-run.ts";

describe("a runtime's version in an environment list", () => {
  it("is not a bare release", () => {
    expect(findBareVersions(" - OS: Windows 10\n - Node Version: v12.3.1\n")).toEqual([]);
    expect(findBareVersions("Python version: 3.11.4\nnpm version 9.8.1")).toEqual([]);
  });

  it("still reads a package's bare version, and one after a name that only ends in `node`", () => {
    expect(findBareVersions(" - Library Version: 4.3.0\n - Node Version: v18.1.0")).toEqual(["4.3.0"]);
    expect(findBareVersions("foo-node version 1.2.3")).toEqual(["1.2.3"]);
  });
});

describe("a fragment stopped on its own undefined name, a base Error reported", () => {
  const f = "```";
  const e = reportedExpectations(
    parseReport(
      `Parsing fails with \`Error: Parse Error: expected ' ' OR new line got: 'a'.\`\n\n${f}js\nconst csv = require('fast-csv');\ncsv.parseFile(p).on('data', (r) => rows.push(r));\n${f}\n`,
    ),
  );
  const stopped = (type: string, message: string) =>
    matchRun(
      e.actual,
      run({
        exitCode: 1,
        stderr: `/workspace/r.js:2\n${type}: ${message}\n    at Object.<anonymous> (/workspace/r.js:2:1)\n`,
        exception: { type, message },
      }),
    );

  it("asks where the name comes from", () => {
    expect(e.actual.kind).toBe("exception");
    const m = stopped("ReferenceError", "rows is not defined");
    expect(m.kind).toBe("needs");
    expect(m.detail).toMatch(/`rows`, which it never defines/);
  });

  it("still compares another Error subclass with the reported message", () => {
    expect(stopped("TypeError", "x.on is not a function").kind).toBe("different-failure");
  });
});
