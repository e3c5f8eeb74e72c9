/**
 * tape's TAP (issue 15, fast-uri): assertions are numbered, tests are `# name` headers. The header is the test
 * id (one result per header: failed when one of its assertions failed, skipped when all were skipped; a repeated
 * header `name#2`); subtests are headers of their own; a `not ok` with tape's YAML diagnostics names its header,
 * the assertion's description and its expected/actual values, at the test file's line; a stream that ends inside
 * a header without its plan (an uncaught error ended the process mid-test) makes that test an `error`, with the
 * error the process printed. Real tape output of a small repository written for this test
 * (test/fixtures/logs-tape/README.md).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readResults } from "../../../src/fix/test-runner/results.ts";
import { parseLog } from "../../../src/logs/index.ts";

const dir = path.resolve("test/fixtures/logs-tape");
const read = (f: string) => readFileSync(path.join(dir, f), "utf8");
/** What a sandbox run of an unrecognised command gives the reader: stdout, then stderr. */
const crashed = `${read("crash.stdout")}\n${read("crash.stderr")}`;
const complete = read("complete.stdout");

describe("tape: the header is the test", () => {
  it("a complete run: one result per header, subtests by their own header, the repeated header numbered", () => {
    expect(readResults("auto", complete)).toEqual([
      { id: "adds", outcome: "passed" },
      { id: "sub one", outcome: "passed" },
      { id: "sub two", outcome: "failed", message: "two parses" },
      { id: "adds#2", outcome: "skipped" },
      { id: "parses", outcome: "passed" },
      { id: "b adds", outcome: "passed" },
    ]);
  });

  it("a failing assertion's failure names its header, with tape's expected and actual, at the test's line", () => {
    const failures = parseLog(complete, { repoRoot: "/workspace" }).failures.filter(
      (f) => f.format === "tap",
    );
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      test: "sub two",
      file: "test/a.test.js",
      line: 10,
      message: "two parses\nexpected: 3\nactual: 2",
    });
  });

  it("a crash mid-test: the test running when the process died is an error, with its error; the others stand", () => {
    const tests = readResults("auto", crashed);
    expect(tests).toEqual([
      { id: "adds", outcome: "passed" },
      { id: "sub one", outcome: "passed" },
      { id: "sub two", outcome: "failed", message: "two parses" },
      { id: "adds#2", outcome: "skipped" },
      {
        id: "parses",
        outcome: "error",
        message: "the test process died in this test, before the TAP plan: empty input cannot be parsed",
      },
    ]);
    const failure = parseLog(crashed, { repoRoot: "/workspace" }).failures.find((f) => f.test === "parses");
    expect(failure).toMatchObject({ errorType: "Error", file: "lib/calc.js", line: 2 });
  });

  it("the ids are the same in the crashed and the complete run (a patch that stops the crash is compared per test)", () => {
    const ids = (text: string) => readResults("auto", text).map((t) => t.id);
    expect(ids(crashed).every((id) => ids(complete).includes(id))).toBe(true);
  });

  it("node:test and mocha TAP keep their ids: no header there is a test", () => {
    const node = [
      "TAP version 13",
      "# Subtest: math",
      "    # Subtest: adds",
      "    ok 1 - adds",
      "    1..1",
      "ok 1 - math",
      "1..1",
      "# tests 1",
      "# pass 1",
    ].join("\n");
    expect(readResults("tap", node).map((t) => t.id)).toEqual(["math > adds", "math"]);
    const mocha = [
      "1..2",
      "ok 1 calc adds",
      "not ok 2 calc divides",
      "  Error: boom",
      "# tests 2",
      "# pass 1",
      "# fail 1",
    ];
    expect(readResults("tap", mocha.join("\n")).map((t) => [t.id, t.outcome])).toEqual([
      ["calc adds", "passed"],
      ["calc divides", "failed"],
    ]);
  });

  it("a stream cut off with no header in progress (no tape headers) is not a crash of any test", () => {
    const text = ["TAP version 13", "ok 1 first", "ok 2 second"].join("\n");
    expect(readResults("tap", text).map((t) => t.outcome)).toEqual(["passed", "passed"]);
  });
});
