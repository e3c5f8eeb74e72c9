/**
 * Classes the hold25 scoring showed wrong (issue 12, f12g), each with counter-examples that keep their reading:
 * the release over a bad transcript, an object quoted without its brackets, a limit the report itself names, the
 * modules a snippet writes itself, the interpreter's own flags on a shell line, a prompt's program run alone.
 */
import { describe, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { annotate } from "../../../src/repro/annotations.ts";
import { completeProgram, pythonModulesWritten } from "../../../src/repro/complete.ts";
import { pinDependencies } from "../../../src/repro/dependencies.ts";
import { runCommand, sandboxEnv } from "../../../src/repro/execute.ts";
import { matchRun, partOfOutput } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { parseShellSession } from "../../../src/repro/shell-session.ts";
import { sideRelease } from "../../../src/repro/two-versions.ts";
import { run } from "./observed-run.ts";

describe("the release written over the bad transcript", () => {
  const sides = (newer: string, older: string) =>
    `# Results changed\n\nAfter upgrading from v1.4.0 to 2.00 the results changed:\n\`\`\`\nconst r = new Range('1.2');\nconsole.log(r);\n\`\`\`\n${newer} prints\n\`\`\`\nRange {\n  lo: 2,\n  hi: 1\n}\n\`\`\`\nwhereas ${older} gave me\n\`\`\`\nRange {\n  lo: 1,\n  hi: 2\n}\n\`\`\`\n`;
  const pinned = (md: string, pkg: string) => {
    const report = parseReport(md);
    const e = reportedExpectations(report);
    const p = completeProgram(report, e.invocation, pkg)!;
    const bad = e.twoVersions?.bad ?? null;
    return pinDependencies(p, report, bad ? sideRelease(bad) : null, pkg).map((x) => x.version);
  };

  it("is the repository package's release, written in full (not the label's major.minor)", () => {
    expect(pinned(sides("2.0.0", "1.4.0"), "tidy-range")).toEqual(["2.0.0"]);
  });

  it("counter-examples: a runtime's release over the transcript pins nothing", () => {
    expect(pinned(sides("Node 18.20.4", "Node 16.20.0"), "tidy-range")).toEqual([null]);
  });
});

describe("an object's members quoted without its brackets", () => {
  const reported = ["  lo: 2,", "  hi: 1,", "  name: 'range',"];
  it("pairs with the run's members, its bracket lines left out: a partial match when some differ", () => {
    const part = partOfOutput(reported, "Range {\n  lo: 1,\n  hi: 1,\n  name: 'range',\n}\n");
    expect(part?.differ).toEqual([["lo: 2,", "lo: 1,"]]);
  });
  it("counter-examples: a claim that quotes the brackets itself, or lines that are not all brackets, do not pair", () => {
    expect(partOfOutput(["Range {", ...reported, "}"], "Range {\n  lo: 1,\n  hi: 1,\n}\n")).toBeNull();
    expect(
      partOfOutput(reported, "Range {\n  lo: 1,\n  hi: 1,\n  name: 'range',\n  extra: 0\n}\n"),
    ).toBeNull();
  });
});

describe("a limit the report itself names", () => {
  const reported = {
    kind: "exception" as const,
    exceptionType: "OSError",
    exceptionMessage: "[Errno 24] Too many open files: '/tmp/tmpab12cd'",
    output: [],
    source: "prose",
  };
  const hit = run({
    exitCode: 1,
    stderr:
      "Traceback (most recent call last):\n  File \"/workspace/reproduction.py\", line 3, in <module>\nOSError: [Errno 24] Too many open files: '/tmp/tmpzz99yy'\n",
    exception: { type: "OSError", message: "[Errno 24] Too many open files: '/tmp/tmpzz99yy'" },
  });

  it("is the behaviour judged, not the sandbox's lack", () => {
    const m = matchRun(reported, hit, [], null, {
      reportText: "It leaks: what it raises is OSError: [Errno 24] Too many open files",
    });
    expect(m.kind).toBe("match");
  });

  it("counter-example: a report that never names it still gets the infrastructure error, saying what to do", () => {
    expect(() =>
      matchRun({ ...reported, exceptionType: "ValueError", exceptionMessage: "bad level" }, hit, [], null, {
        reportText: "It should raise ValueError for a bad compression level.",
      }),
    ).toThrowError(InfrastructureError);
    try {
      matchRun({ ...reported, exceptionType: "ValueError", exceptionMessage: "bad level" }, hit);
    } catch (e) {
      expect((e as InfrastructureError).hint ?? String(e)).toMatch(/raise the cap|limits\.ts/);
    }
  });
});

describe("modules a Python snippet writes itself", () => {
  it("are its own files, never packages to look up", () => {
    expect(
      pythonModulesWritten(
        'with open("helper_mod.py", "w") as fh:\n    fh.write("def f(): pass")\nimport helper_mod\n',
      ),
    ).toEqual(["helper_mod"]);
    expect(pythonModulesWritten('pathlib.Path("pkg/__init__.py").write_text("")\n')).toEqual(["pkg"]);
    const report = parseReport(
      '# stale\n\n```python\nimport subprocess, sys\nwith open("caller.py", "w") as fh:\n    fh.write("from helper_mod import f\\nf()\\n")\nwith open("helper_mod.py", "w") as fh:\n    fh.write("def f(): print(1)")\nsubprocess.run([sys.executable, "caller.py"])\n```\n',
    );
    expect(completeProgram(report)!.dependencies).toEqual([]);
  });

  it("counter-examples: a `.py` it only reads or runs, and a package its written file imports", () => {
    expect(
      pythonModulesWritten('import subprocess, sys\nsubprocess.run([sys.executable, "setup.py"])\n'),
    ).toEqual([]);
    const report = parseReport(
      '# x\n\n```python\nwith open("caller.py", "w") as fh:\n    fh.write("""\\\nimport requests\nprint(requests.get)\n""")\n```\n',
    );
    expect(completeProgram(report)!.dependencies).toEqual(["requests"]);
  });
});

describe("the interpreter's own flags on a shell line", () => {
  const flagsOf = (t: string) => parseShellSession(t).map((r) => r.flags ?? []);

  it("are read, with or without an argument, before -c/-e, -m or the script", () => {
    expect(flagsOf("$ python3 -O -c 'assert False; print(1)'\n1")).toEqual([["-O"]]);
    expect(flagsOf("$ python -W error -c 'import x'\nboom")).toEqual([["-W", "error"]]);
    expect(flagsOf("$ python -X dev x.py\nout")).toEqual([["-X", "dev"]]);
    expect(flagsOf("$ python3 -I -m json.tool a.json\n{}")).toEqual([["-I"]]);
    expect(flagsOf("$ node --no-warnings -e 'console.log(1)'\n1")).toEqual([["--no-warnings"]]);
    expect(flagsOf("$ node --experimental-vm-modules x.mjs\nok")).toEqual([["--experimental-vm-modules"]]);
    expect(flagsOf("$ node --stack-size=100 -e 'f()'\nRangeError: Maximum call stack size exceeded")).toEqual(
      [["--stack-size=100"]],
    );
    expect(flagsOf("$ node -r ./setup.js app.js\nhi")).toEqual([["-r", "./setup.js"]]);
  });

  it("counter-examples: a flag after the code is the program's argument; `python -m pip install` stays an install", () => {
    expect(flagsOf("$ python3 -c 'import sys; print(sys.argv)' -O\n['-c', '-O']")).toEqual([[]]);
    expect(parseShellSession("$ python -m pip install tidy==1.2.0\nok")).toEqual([]);
    expect(flagsOf("$ node -pe '1+1'\n2")).toEqual([[]]);
  });

  it("go to the run's command, are said in the completions, and one that cannot apply is named", () => {
    const md = (line: string) =>
      `# assert skipped\n\n\`\`\`\n$ ${line} -c "assert 1 == 2, 'no'; print('ran')"\nran\n\`\`\`\n`;
    const p = completeProgram(parseReport(md("python3 -O")))!;
    expect(p.interpreterFlags).toEqual(["-O"]);
    expect(runCommand(p, p.entry).join(" ")).toContain("exec python3 '-O' 'reproduction.py'");
    expect(p.completions.join("\n")).toMatch(/options the report types \(`python3 -O`\): `-O`/);
    const q = completeProgram(parseReport(md("python3 -i -O")))!;
    expect(q.interpreterFlags).toEqual(["-O"]);
    expect(q.completions.join("\n")).toMatch(/did not pass `-i` \(it opens an interactive prompt/);
    // No flag typed: the command is unchanged.
    const r = completeProgram(parseReport(md("python3")))!;
    expect(r.interpreterFlags).toBeUndefined();
    expect(runCommand(r, r.entry).join(" ")).toContain("exec python3 'reproduction.py'");
  });
});

describe("a program typed at a prompt", () => {
  it("runs alone: a quoted excerpt of the library's source beside it is context", () => {
    const md =
      "# check skipped\n\nThe constructor only checks under `__debug__`:\n\n```python\nself._items = items\nif __debug__:\n    for k in items:\n        self._check(k)\n```\n\n```\n$ python -O -c \"from wsgiref.headers import Headers; print(bytes(Headers([('A','b')])))\"\nb'A: b\\r\\n\\r\\n'\n```\n";
    const p = completeProgram(parseReport(md))!;
    expect(p.files["reproduction.py"]).not.toContain("self._items");
    expect(p.files["reproduction.py"]).toContain("print(bytes(Headers(");
  });

  it("counter-example: without a prompt's program, the report's code blocks still make the program", () => {
    const md = "# x\n\n```python\nitems = [1]\n```\n\n```python\nprint(items)\n```\n";
    expect(completeProgram(parseReport(md))!.files["reproduction.py"]).toContain("items = [1]");
  });
});

describe("the run's environment", () => {
  it("lets CPython write its bytecode caches, as on the reporter's machine", () => {
    expect(sandboxEnv(null)).not.toHaveProperty("PYTHONDONTWRITEBYTECODE");
    expect(sandboxEnv(null)).toMatchObject({ PYTHONUNBUFFERED: "1", TZ: "UTC" });
  });
});

describe("a comment that says in the first person what the line printed", () => {
  const checks = (v: string) => annotate(v, "javascript").checks.map((c) => [c.role, c.value]);
  it("is the claim when a value follows", () => {
    expect(checks("const r = lib.parse('a.b.c');\nconsole.log(r.domain); // we are getting 'b.c'")).toEqual([
      ["actual", "'b.c'"],
    ]);
    expect(checks("console.log(total); // I see 5000")).toEqual([["actual", "5000"]]);
  });
  it("counter-example: words after it, not a value, state nothing", () => {
    expect(checks("console.log(total); // we get here after the loop")).toEqual([]);
  });
});
