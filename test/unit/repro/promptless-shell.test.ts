/**
 * A shell block typed without prompts (```` ```bash ```` of `yarn add x` then `node -e "…"`) whose output is
 * another block of the report (ortexx/ip-cidr#47's form), and an error message with a path cut out of it
 * (`(...)/node_modules/x/index.js`). Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { messagesAgree } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { promptlessPrograms } from "../../../src/repro/shell-session.ts";

const f = "```";

describe("a prompt-less shell block of commands", () => {
  it("reads each `node -e`/`python3 -c` program as code, the installs and `cd` as commands", () => {
    const runs = promptlessPrograms(
      [
        "npm install left-pad --save",
        "cd demo",
        `node -e "console.log(require('left-pad')('a', 3))"`,
        "python3 -c 'print(1)'",
      ].join("\n"),
    );
    expect(runs.map((r) => [r.runtime, r.code])).toEqual([
      ["node", "console.log(require('left-pad')('a', 3))"],
      ["python", "print(1)"],
    ]);
    expect(runs.every((r) => r.output.length === 0 && r.errorText === null)).toBe(true);
  });

  it("reads nothing when a line is not a command (it could be output), or when no program is run", () => {
    expect(promptlessPrograms(`node -e "console.log(1)"\n1`)).toEqual([]);
    expect(promptlessPrograms("npm install left-pad\nnode app.js")).toEqual([]);
    expect(promptlessPrograms("yarn add x")).toEqual([]);
  });

  it("makes the program a code block of the report, the next block its output", () => {
    const report = [
      "Steps:",
      `${f}bash`,
      "yarn add some-lib --save",
      `node -e "require('some-lib')"`,
      f,
      "",
      "Output:",
      `${f}`,
      "Error [ERR_REQUIRE_ESM]: require() of ES Module (...)/node_modules/some-lib/index.js from (...)/[eval] not supported.",
      f,
    ].join("\n");
    const code = parseReport(report).blocks.filter((b) => b.kind === "code");
    expect(code.map((b) => [b.language, b.runValue])).toEqual([["javascript", "require('some-lib')"]]);
    expect(code[0]!.shellRun).toBeNull();
  });

  it("leaves a block with prompts to the session reader (no second code block)", () => {
    const report = [`${f}console`, `$ node -e "console.log(2)"`, "2", f].join("\n");
    expect(parseReport(report).blocks.filter((b) => b.kind === "code" && !b.shellRun)).toEqual([]);
  });
});

describe("a reported message with text cut out", () => {
  const reported =
    "require() of ES Module (...)/node_modules/some-lib/index.js from (...)/[eval] not supported.";

  it("agrees with the run's message holding every piece in order; `[eval]` is the reproduction's own file", () => {
    expect(
      messagesAgree(
        reported,
        "require() of ES Module /workspace/node_modules/some-lib/index.js from /workspace/reproduction.cjs not supported.\nInstead change the require of index.js.",
      ),
    ).toBe(true);
  });

  it("does not agree when a piece is missing or out of order, or when little is left after the cuts", () => {
    expect(
      messagesAgree(
        reported,
        "require() of ES Module /workspace/node_modules/some-lib/index.js from /workspace/reproduction.cjs is supported.",
      ),
    ).toBe(false);
    expect(
      messagesAgree("not supported ... require() of ES Module", "require() of ES Module x not supported"),
    ).toBe(false);
    expect(messagesAgree("bad … x", "bad input: x")).toBe(false);
    expect(messagesAgree("[eval] is broken", "/workspace/other.cjs is broken")).toBe(false);
  });
});
