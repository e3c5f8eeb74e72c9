/**
 * Report forms of issue 12 through the real pipeline (Docker sandbox, offline runs, no dependencies), with
 * reports written for these tests: comment annotations, two transcripts where the run matches the good one,
 * TypeScript that does not parse, a too-new API on the sandbox's Node (an infrastructure error, also through the
 * CLI: exit 3), and the CLI's size limit.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { renderReproReport } from "../../../src/report/repro-report.ts";
import { runRepro } from "../../../src/repro/run-repro.ts";
import { createLocalReproPorts } from "../../../src/jobs/local-repro.ts";
import { describeDocker } from "../../support/docker.ts";

const f = "```";
const root = path.join(import.meta.dirname, "..", "..", "..");

describeDocker("report forms (real sandbox)", () => {
  const ports = createLocalReproPorts({ runTimeoutMs: 30_000, compareLatest: false });
  const repro = async (markdown: string) =>
    (await runRepro(ReproJobSpec.parse({ kind: "repro", id: "it-forms", markdown, runs: 2 }), ports)).result;

  it("comment annotations are the reported output: REPRODUCED, Observed quotes the output", {
    timeout: 120_000,
  }, async () => {
    const r = await repro(
      `# Sorting strings with numbers is lexicographic\n\n${f}js\nconst xs = ['10', '9', '1'];\nxs.sort(); // => [ '1', '10', '9' ]\nconsole.log(xs.length); // 3\n${f}\n`,
    );
    expect(r.verdict, r.summary).toBe("REPRODUCED");
    expect(r.reported.output).toEqual(["[ '1', '10', '9' ]", "3"]);
    expect(renderReproReport(r)).toMatch(/\| Observed \| printed `\[ '1', '10', '9' \]`, `3`/);
    expect(r.reasons[0]).toMatch(/^Decided by: the reported behaviour is/);
  });

  it("two versions: a run matching the good transcript is NOT_REPRODUCED, said in those words", {
    timeout: 120_000,
  }, async () => {
    const r = await repro(
      `# str.removeprefix missing\n\nOn Python 3.8 it is broken; 3.9 works fine.\n\n${f}pycon\nPython 3.8.10 (default)\n>>> "v1.2".removeprefix("v")\nTraceback (most recent call last):\n  File "<stdin>", line 1, in <module>\nAttributeError: 'str' object has no attribute 'removeprefix'\n${f}\n\n${f}pycon\nPython 3.9.1 (default)\n>>> "v1.2".removeprefix("v")\n'1.2'\n${f}\n`,
    );
    expect(r.verdict, r.summary).toBe("NOT_REPRODUCED");
    expect(r.reported.source).toMatch(/`3.8` transcript/);
    expect(r.differences.join(" ")).toMatch(
      /printed the expected `'1.2'`.*fixed here, or never broken on this runtime/,
    );
  });

  it("an IPython session in a python fence runs as a transcript: its Out[N] value is the claim", {
    timeout: 120_000,
  }, async () => {
    const r = await repro(
      `# json.dumps writes NaN, which is not JSON\n\n${f}python\nIn [1]: import json\n\nIn [2]: json.dumps([float('nan')])\nOut[2]: '[NaN]'\n${f}\n`,
    );
    expect(r.verdict, r.summary).toBe("REPRODUCED");
    expect(r.reported.output).toEqual(["'[NaN]'"]);
  });

  it("an IPython session whose Out[N] value the run does not print is NOT_REPRODUCED", {
    timeout: 120_000,
  }, async () => {
    const r = await repro(
      `# json.dumps writes null for NaN\n\n${f}python\nIn [1]: import json\n\nIn [2]: json.dumps([float('nan')])\nOut[2]: '[null]'\n${f}\n`,
    );
    expect(r.verdict, r.summary).toBe("NOT_REPRODUCED");
  });

  it("an IPython traceback is the reported exception; a run that raises it is REPRODUCED", {
    timeout: 120_000,
  }, async () => {
    const r = await repro(
      `# int() rejects a float string\n\n${f}ipython\nIn [1]: int('2.5')\n---------------------------------------------------------------------------\nValueError                                Traceback (most recent call last)\nCell In[1], line 1\n----> 1 int('2.5')\n\nValueError: invalid literal for int() with base 10: '2.5'\n${f}\n`,
    );
    expect(r.verdict, r.summary).toBe("REPRODUCED");
    expect(r.reported).toMatchObject({ exceptionType: "ValueError" });
  });

  it("TypeScript that does not parse ends in NEEDS_INFO naming the line, not an error exit", {
    timeout: 120_000,
  }, async () => {
    const r = await repro(
      `# Types broken\n\n${f}ts\nconst total: number = [1, 2].reduce((a, b) => a + b, 0;\nconsole.log(total);\n${f}\n\nIt prints \`4\`.\n`,
    );
    expect(r.verdict).toBe("NEEDS_INFO");
    expect(r.questions[0]).toContain("const total: number = [1, 2].reduce((a, b) => a + b, 0;");
  });

  it("an API newer than the sandbox's Node ends the job with an infrastructure error, never a verdict", {
    timeout: 120_000,
  }, async () => {
    const job = runRepro(
      ReproJobSpec.parse({
        kind: "repro",
        id: "it-forms",
        markdown: `# toSorted result is wrong\n\n${f}js\nconsole.log([3, 1, 2].toSorted()); // [ 1, 2, 4 ]\n${f}\n`,
        runs: 2,
      }),
      ports,
    );
    await expect(job).rejects.toBeInstanceOf(InfrastructureError);
    await expect(job).rejects.toThrow(
      /needs Node\.js 20 or later \(the API's release\), and the sandbox ran Node\.js 18\.\d+\.\d+: the code uses `toSorted`, which Node\.js 20 added; here the run stopped on TypeError: .*toSorted is not a function/,
    );
  });

  it("the CLI: a report on CPython 3.12 whose code this 3.11 lacks exits 3 naming both runtimes and what to set", {
    timeout: 120_000,
  }, () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "retrace-rt-"));
    const file = path.join(dir, "report.md");
    writeFileSync(
      file,
      [
        "# b64decode ignores the new option",
        "",
        `${f}python`,
        "import base64",
        "print(base64.b64decode(b'YW Jj', ignorechars=b' '))  # prints b'abc' but should raise",
        f,
        "",
        "### CPython versions tested on:",
        "",
        "3.13",
        "",
      ].join("\n"),
    );
    const res = spawnSync(
      process.execPath,
      [path.join(root, "bin", "retrace.mjs"), "repro", file, "--offline", "--runs", "1"],
      { encoding: "utf8" },
    );
    expect(res.status, res.stdout + res.stderr).toBe(3);
    expect(res.stdout).not.toMatch(/NOT_REPRODUCED|NEEDS_INFO|PARTIAL|REPRODUCED/);
    expect(res.stderr).toMatch(
      /the report needs Python 3\.15 or later \(the API's release\), and the sandbox ran Python 3\.11\.\d+: the code uses `b64decode\(ignorechars=…\)`, which Python 3\.15 added; here the run stopped on TypeError: b64decode\(\) got an unexpected keyword argument 'ignorechars'/,
    );
    expect(res.stderr).toMatch(/sandbox\.image.*RETRACE_SANDBOX_IMAGE/s);
  });

  it("a report naming a newer CPython whose code runs here is judged normally, the versions said", {
    timeout: 120_000,
  }, async () => {
    const r = await repro(
      [
        "# sorted() drops an element",
        "",
        `${f}python`,
        "print(sorted([3, 1, 2]))  # [1, 3]",
        f,
        "",
        "### CPython versions tested on:",
        "",
        "3.13",
        "",
      ].join("\n"),
    );
    expect(r.verdict, r.summary).toBe("NOT_REPRODUCED");
    expect(r.reasons).toContainEqual(
      expect.stringMatching(/^The report names python 3\.13; the sandbox has 3\.11\.\d+\.$/),
    );
  });

  it("the CLI refuses a report over 65,536 characters at once (exit 2)", { timeout: 60_000 }, () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "retrace-big-"));
    const file = path.join(dir, "big.md");
    writeFileSync(file, `# big\n\n${"x".repeat(70_000)}\n`);
    const res = spawnSync(
      process.execPath,
      [path.join(root, "bin", "retrace.mjs"), "repro", file, "--offline"],
      {
        encoding: "utf8",
      },
    );
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/70\d{3} characters long; GitHub caps an issue at 65536/);
  });
});
