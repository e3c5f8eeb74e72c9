/**
 * A commander program the report runs with arguments but never parses: the snippet declares its options and
 * stops, and the report shows `node cli.js --x` failing. A reader adds the `parse` call every such program
 * ends with. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const complete = (md: string) => {
  const report = parseReport(md);
  return completeProgram(report, reportedExpectations(report).invocation);
};
const report = (
  code: string,
  run = "Running `node cli.js --colr red` prints `error: unknown option '--colr'`.",
) => `# the option name in the error is right but the hint is missing\n\n${f}js\n${code}\n${f}\n\n${run}\n`;

describe("a commander program declared but never parsed", () => {
  it("gets the parse call when the report runs it with arguments", () => {
    const p = complete(
      report(
        "const { program: cli } = require('commander');\ncli.option('-c, --colour <name>', 'colour to use')",
      ),
    );
    expect(p?.args).toEqual(["--colr", "red"]);
    expect(p?.files[p.entry]).toMatch(/\ncli\.parse\(process\.argv\);\n$/);
    expect(p?.completions.join(" ")).toContain("added `cli.parse(process.argv)`");
  });

  it("works for `new Command()` and for an ES import", () => {
    const a = complete(
      report(
        "const { Command } = require('commander');\nconst app = new Command();\napp.option('-c, --colour <name>');",
      ),
    );
    expect(a?.files[a.entry]).toContain("app.parse(process.argv);");
    const b = complete(
      report("import { program } from 'commander';\nprogram.option('-c, --colour <name>');"),
    );
    expect(b?.files[b.entry]).toContain("program.parse(process.argv);");
  });

  it("adds nothing when the snippet parses, is run without arguments, or is not commander's", () => {
    const parsed = complete(
      report(
        "const { program } = require('commander');\nprogram.option('-c, --colour <name>');\nprogram.parse();",
      ),
    );
    expect(parsed?.files[parsed.entry]?.match(/\.parse\(/g)).toHaveLength(1);
    const noArgs = complete(
      report(
        "const { program } = require('commander');\nprogram.option('-c, --colour <name>');",
        "It prints `error: unknown option` at start.",
      ),
    );
    expect(noArgs?.files[noArgs.entry]).not.toContain(".parse(");
    const other = complete(
      report("const program = require('my-cli-kit');\nprogram.option('-c, --colour <name>');"),
    );
    expect(other?.files[other.entry]).not.toContain(".parse(");
  });
});
