/**
 * How the process ends, stated in words: "the tool exits silently with exit status 0", "it exits with code 2".
 * A zero status alone is no claim (most programs exit 0), and neither is a status the report says it should
 * have. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { matchRun } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations, statedExit } from "../../../src/repro/reported-behaviour.ts";
import { run } from "./observed-run.ts";
import { cpuMs } from "../../support/cpu-time.ts";

const f = "```";
const code = `${f}js\nconst { program } = require('commander');\nprogram.command('build <dir>').action(() => {});\nprogram.parse(process.argv);\n${f}\n`;
const read = (prose: string) =>
  reportedExpectations(parseReport(`# a typo goes unnoticed\n\n${prose}\n\n${code}`));

describe("an exit stated in words", () => {
  it("is the claim: silence and the status", () => {
    const e = read(
      "Given a command that does not exist, the CLI exits silently with exit status 0. Nothing tells the user.",
    );
    expect(e.actual).toMatchObject({ kind: "exit", exitCode: 0, silent: true });
    expect(matchRun(e.actual, run({})).kind).toBe("match");
    // The fixed behaviour: an error message and a failing status.
    expect(matchRun(e.actual, run({ exitCode: 1, stderr: "error: unknown command 'biuld'\n" })).kind).toBe(
      "clean",
    );
    expect(matchRun(e.actual, run({ stdout: "Usage: x\n" })).kind).toBe("clean");
  });

  it("a failing status is a claim; another failure is partial, a clean exit is not a reproduction", () => {
    const e = read("With `--dry` the tool exits with code 3 after writing the files.");
    expect(e.actual).toMatchObject({ kind: "exit", exitCode: 3, silent: false });
    expect(matchRun(e.actual, run({ exitCode: 3, stdout: "wrote 2 files\n" })).kind).toBe("match");
    expect(
      matchRun(
        e.actual,
        run({
          exitCode: 1,
          stderr: "TypeError: x is not a function\n    at y (/workspace/a.cjs:1:1)\n",
          exception: { type: "TypeError", message: "x is not a function" },
        }),
      ).kind,
    ).toBe("different-failure");
    expect(matchRun(e.actual, run({ exitCode: 0 })).kind).toBe("clean");
  });

  it("is no claim when it is what should happen, or only a zero status", () => {
    expect(read("The tool should exit with code 1 when the command is unknown.").actual.kind).not.toBe(
      "exit",
    );
    expect(read("It exits with code 0 and the build is skipped.").actual.kind).not.toBe("exit");
  });

  it("`program.parse(process.argv)` ending the snippet is not echoed", () => {
    const r = parseReport(`# silent\n\nThe CLI exits silently.\n\n${code}`);
    const p = completeProgram(r, reportedExpectations(r).invocation);
    expect(p?.files[p.entry]).toMatch(/^program\.parse\(process\.argv\);$/m);
    expect(p?.files[p.entry]).not.toContain("_echo(");
  });

  it("reads a long run of spaces in linear time", () => {
    const { ms } = cpuMs(() =>
      statedExit(
        `it exits${" ".repeat(30_000)}x and exits silently${" \t".repeat(20_000)}with\nexits ,${" ".repeat(30_000)}`,
      ),
    );
    expect(ms).toBeLessThan(1_000);
  });
});
