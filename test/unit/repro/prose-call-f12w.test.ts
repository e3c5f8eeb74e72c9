/**
 * The call a report states in prose alone (issue 12, hold17/hold18 misses): the plan read from the text, the
 * program's own probe of the package's exports (run here on a stub package, with the host's Node), and the verdict
 * its runs decide. The must-not-fire cases come first in each group: a wrong REPRODUCED is the worst error.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AttemptOutcome } from "../../../src/repro/attempt.ts";
import type { ExecutedRun } from "../../../src/repro/execute.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { literalArgs, type ProseCallPlan, readProseCall } from "../../../src/repro/prose-call.ts";
import {
  compareValue,
  isProseCallProgram,
  proseCallClaim,
  proseCallFor,
  proseCallProgram,
  settleProseCall,
} from "../../../src/repro/prose-call-program.ts";

const CHRONO = `# parseDate gets some dates wrong

Here are some date strings that parseDate gets wrong:

"31st march, 2016" comes out as "Tue Mar 01 2016 12:00:00 GMT+0530 (IST)"
"23rd february, 2016" comes out as "Mon Feb 01 2016 12:00:00 GMT+0530 (IST)"
`;

const EACH = `# Magnitude words come back as 0

thousand
million
billion

each of these, given as a single word, returns zero.
`;

function plan(md: string, pkg = "pkg"): ProseCallPlan {
  const title = /^# (.*)$/m.exec(md)![1]!;
  const r = readProseCall(title, md, pkg);
  if (r?.kind !== "plan") throw new Error(`no plan: ${JSON.stringify(r)}`);
  return r.plan;
}

describe("reading the call from prose", () => {
  it("does not fire on a line that says what should happen (the expected side)", () => {
    const md = `# parseDate is wrong\n\n"31st march, 2016" should come out as "Thu Mar 31 2016"\n`;
    expect(readProseCall("parseDate is wrong", md, "chrono-node")).toBeNull();
    const expectedVerb = `# parseDate is wrong\n\n"31st march" is expected, it returns "Mar 31"\n`;
    expect(readProseCall("parseDate is wrong", expectedVerb, "chrono-node")).toBeNull();
  });

  it("does not fire when the inputs are not tied to an outcome", () => {
    const md = `# parseDate gets dates wrong\n\nThe string "31st march, 2016" is a problem for parseDate, and so is "23rd february".\n`;
    expect(readProseCall("parseDate gets dates wrong", md, "chrono-node")).toBeNull();
  });

  it("does not fire when every quoted line is a working case", () => {
    const md = `# conversion\n\n"One Hundred" => 100     // Output as expected\n`;
    expect(readProseCall("conversion", md, "words-to-num")).toBeNull();
  });

  it("does not read inputs inside code fences (those are the report's blocks, not prose)", () => {
    const md = `# parseDate\n\n\`\`\`\n"a" returns "b"\n\`\`\`\n`;
    expect(readProseCall("parseDate", md, "chrono-node")).toBeNull();
  });

  it("pairs quoted inputs with the values the prose says they come out as, and takes the title's camelCase name", () => {
    const p = plan(CHRONO, "chrono-node");
    expect(p.names).toEqual(["parseDate"]);
    expect(p.calls.map((c) => [c.args, c.claimed, c.side])).toEqual([
      ['"31st march, 2016"', "Tue Mar 01 2016 12:00:00 GMT+0530 (IST)", "bad"],
      ['"23rd february, 2016"', "Mon Feb 01 2016 12:00:00 GMT+0530 (IST)", "bad"],
    ]);
  });

  it("reads one-per-line items and 'each … returns zero' as one call per item, claimed 0", () => {
    const p = plan(EACH, "words-to-numbers");
    expect(p.names).toEqual([]);
    expect(p.calls.map((c) => [c.args, c.claimed])).toEqual([
      ['"thousand"', "0"],
      ['"million"', "0"],
      ['"billion"', "0"],
    ]);
  });

  it("uses a whole call written inline as it is, its callee the only name", () => {
    const md = '# wrong\n\nI use `parseDate`, and `chrono.parseDate("next friday", 3)` returns `null`.\n';
    const p = plan(md, "chrono-node");
    expect(p.names).toEqual(["chrono.parseDate"]);
    expect(p.calls).toEqual([
      { label: 'chrono.parseDate("next friday", 3)', args: '"next friday", 3', claimed: "null", side: "bad" },
    ]);
  });

  it("takes a camelCase word on the claim's own line as the name, and keeps a marked working case as 'good'", () => {
    const md =
      '# Invalid email accepted\n\n`invalid@email` comes back as true from isEmail.\n\n"a@b.co" returns true, which is correct\n';
    const p = plan(md, "validator");
    expect(p.names).toEqual(["isEmail"]);
    expect(p.calls.map((c) => [c.label, c.claimed, c.side])).toEqual([
      ['"invalid@email"', "true", "bad"],
      ['"a@b.co"', "true", "good"],
    ]);
  });

  it("asks which input when a member of the package's own name is named with no input", () => {
    const md = "# Titles\n\nA `Case.title` call doesn't uppercase the first word when it is a small word.\n";
    const r = readProseCall("Titles", md, "case");
    expect(r?.kind).toBe("ask");
    expect(r?.kind === "ask" && r.question).toMatch(/`Case\.title`.*which exact input/);
    // Not when the prose quotes an input in a form not read here (a chained call on "…"): the usual question stands.
    const chained = '# email\n\n`yup.string` then `.email()` returns true for "a@b.c".\n';
    expect(readProseCall("email", chained, "yup")).toBeNull();
    // Not for a name that is not the package's own (`array.slice` in a report on another package).
    expect(readProseCall("Titles", md.replace("Case.title", "array.slice"), "case")).toBeNull();
  });

  it("accepts literal arguments only", () => {
    expect(literalArgs('"a", 1, { x: [true, null] }')).toBe(true);
    expect(literalArgs("foo()")).toBe(false);
    expect(literalArgs("a + b")).toBe(false);
    expect(literalArgs("")).toBe(false);
  });

  it("reads hostile 65,536-character reports in linear time", () => {
    const n = 65_000;
    for (const md of [
      `# t\n\nf(${" ".repeat(n)}`,
      `# t\n\n${"`a.b(".repeat(n / 5)}`,
      `# t\n\n${"x\n".repeat(n / 2)}`,
      `# t\n\n${'"x" comes out as "y"\n'.repeat(n / 22)}`,
    ]) {
      // CPU time of this process, not wall time: the machine's other load is not the reader's cost.
      const t0 = process.cpuUsage();
      readProseCall("t", md, "pkg");
      const used = process.cpuUsage(t0);
      expect((used.user + used.system) / 1000).toBeLessThan(2_000);
    }
  });

  it("is never tried for a Python report", () => {
    const md = '# parse wrong\n\nWith Python 3.11, "a" returns "b" from parseThing.\n';
    expect(proseCallFor(parseReport(md), md, "thing")).toBeNull();
  });
});

// The program's own probe, run on a stub package with the host's Node (the sandbox runs the same file).
const work = mkdtempSync(path.join(tmpdir(), "prose-call-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function runOn(p: ProseCallPlan, pkg: string, moduleSource: string): ExecutedRun {
  const dir = mkdtempSync(path.join(work, "case-"));
  mkdirSync(path.join(dir, "node_modules", pkg), { recursive: true });
  writeFileSync(path.join(dir, "node_modules", pkg, "index.js"), moduleSource);
  const program = proseCallProgram(p, pkg);
  expect(isProseCallProgram(program)).toBe(true);
  writeFileSync(path.join(dir, program.entry), program.files[program.entry]!);
  const stdout = execFileSync(process.execPath, [program.entry], { cwd: dir, encoding: "utf8" });
  return {
    exitCode: 0,
    stoppedBy: null,
    stdout,
    stderr: "",
    exception: null,
    durationMs: 1,
    runtimeVersion: "18",
    stdoutTruncated: false,
    stderrTruncated: false,
  };
}

/** An outcome as the stages leave it, with the existing matcher's fold as given. */
function outcomeOf(runs: ExecutedRun[], folded: "REPRODUCED" | "NOT_REPRODUCED" | "PARTIAL"): AttemptOutcome {
  return {
    verdict: folded,
    fold: {
      verdict: folded,
      reproducedRuns: folded === "REPRODUCED" ? runs.length : 0,
      detail: "d",
      questions: [],
    },
    runs,
    versions: [],
    matrix: [],
    matrixSummary: null,
    questions: [],
    reasons: [],
    runtimeVersion: "18",
  };
}

describe("the program's probe and the verdict", () => {
  const md = '# parseDate is wrong\n\n"x" comes out as "bad"\n';

  it("never guesses between two names the package gives as different functions", () => {
    const p = plan(md.replace("parseDate is wrong", "parseDate and parseTime are wrong"));
    expect(p.names).toEqual(["parseDate", "parseTime"]);
    const run = runOn(p, "pkg", 'exports.parseDate = () => "bad"; exports.parseTime = () => "bad";');
    const settled = settleProseCall(p, "pkg", outcomeOf([run], "REPRODUCED"));
    expect(settled.verdict).toBe("NEEDS_INFO");
    expect(settled.reasons.join(" ")).toMatch(/does not guess/);
  });

  it("asks when the named function is not exported, naming what is", () => {
    const p = plan(md);
    const run = runOn(p, "pkg", 'exports.other = () => "bad";');
    const settled = settleProseCall(p, "pkg", outcomeOf([run], "REPRODUCED"));
    expect(settled.verdict).toBe("NEEDS_INFO");
    expect(settled.questions[0]).toMatch(/parseDate\("x"\)/);
    expect(settled.reasons.join(" ")).toMatch(/none of them as a function.*other/);
  });

  it("asks, showing the call, when the call throws or returns a Promise", () => {
    const p = plan(md);
    for (const src of [
      'exports.parseDate = () => { throw new TypeError("nope"); };',
      'exports.parseDate = async () => "bad";',
    ]) {
      const settled = settleProseCall(p, "pkg", outcomeOf([runOn(p, "pkg", src)], "PARTIAL"));
      expect(settled.verdict).toBe("NEEDS_INFO");
      expect(settled.questions[0]).toMatch(/Retrace tried `parseDate\("x"\)`/);
    }
  });

  it("asks when the process failed, whatever it printed", () => {
    const p = plan(md);
    const run = { ...runOn(p, "pkg", 'exports.parseDate = () => "bad";'), exitCode: 1 };
    expect(settleProseCall(p, "pkg", outcomeOf([run], "REPRODUCED")).verdict).toBe("NEEDS_INFO");
  });

  it("is NOT_REPRODUCED when the call gives another value, naming both", () => {
    const p = plan(md);
    const settled = settleProseCall(
      p,
      "pkg",
      outcomeOf([runOn(p, "pkg", 'exports.parseDate = () => "good";')], "PARTIAL"),
    );
    expect(settled.verdict).toBe("NOT_REPRODUCED");
    expect(settled.fold?.detail).toMatch(/`parseDate\("x"\)` gives `good`, where the report says `bad`/);
  });

  it("is REPRODUCED only when every claimed value printed and the matcher agrees", () => {
    const p = plan(md);
    const run = runOn(p, "pkg", 'exports.parseDate = (s) => (s === "x" ? "bad" : "?");');
    expect(run.stdout).toContain('"x" => bad');
    expect(proseCallClaim(p).output).toEqual(['"x" => bad']);
    expect(settleProseCall(p, "pkg", outcomeOf([run], "REPRODUCED")).verdict).toBe("REPRODUCED");
    // The matcher disagreeing is never overruled into a REPRODUCED.
    expect(settleProseCall(p, "pkg", outcomeOf([run], "NOT_REPRODUCED")).verdict).toBe("NEEDS_INFO");
  });

  it("binds a member of the package's own name to the package (`Case.title`), with its object as `this`", () => {
    const p = plan('# titles\n\n`Case.title("the end")` returns `the End`\n', "case");
    const src = 'module.exports = { t: (s) => "the End", title(s) { return this.t(s); } };';
    expect(settleProseCall(p, "case", outcomeOf([runOn(p, "case", src)], "REPRODUCED")).verdict).toBe(
      "REPRODUCED",
    );
  });

  it("calls the package's own function when the report names none, and only then", () => {
    const p = plan(EACH, "words-to-numbers");
    const fn = runOn(p, "words-to-numbers", "module.exports = (w) => (w === 'thousand' ? 1000 : 0);");
    const settled = settleProseCall(p, "words-to-numbers", outcomeOf([fn], "PARTIAL"));
    expect(settled.verdict).toBe("NOT_REPRODUCED");
    expect(settled.fold?.detail).toMatch(/wordsToNumbers\("thousand"\)` gives `1000`/);
    const object = runOn(p, "words-to-numbers", "module.exports = { convert: () => 0 };");
    expect(settleProseCall(p, "words-to-numbers", outcomeOf([object], "REPRODUCED")).verdict).toBe(
      "NEEDS_INFO",
    );
  });

  it("never decides on a working case that fails, nor on a date in another time zone", () => {
    const mdGood = '# parseDate\n\n"a" returns "1" as expected\n"b" returns "bad"\n';
    const p = plan(mdGood);
    const run = runOn(p, "pkg", 'exports.parseDate = (s) => (s === "a" ? "2" : "bad");');
    expect(settleProseCall(p, "pkg", outcomeOf([run], "REPRODUCED")).verdict).toBe("NEEDS_INFO");
    expect(
      compareValue("Tue Mar 01 2016 12:00:00 GMT+0530 (IST)", "Tue Mar 01 2016 12:00:00 GMT+0000 (UTC)"),
    ).toBe("zone");
    expect(
      compareValue("Tue Mar 01 2016 12:00:00 GMT+0530 (IST)", "Thu Mar 31 2016 12:00:00 GMT+0000 (UTC)"),
    ).toBe("differs");
  });
});
