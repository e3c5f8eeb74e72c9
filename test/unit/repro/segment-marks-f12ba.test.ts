/**
 * A Python snippet in parts its own comments mark `# Succeeds` and `# Fails` (issue 12, hold22): the run must raise
 * at a line of the failing part. Written here for other modules; the must-not-fire cases first.
 */
import { describe, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { foldRuns, matchRun } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { ownRaisingLine, segmentMarks } from "../../../src/repro/segment-marks.ts";
import { run } from "./observed-run.ts";

const fence = "```";
const CODE = [
  "import heapq",
  "",
  "# Works",
  "h = [3, 1]",
  "heapq.heapify(h)",
  "",
  "# Fails",
  "heapq.heappush(h, None)",
].join("\n");

const traceback = (line: string) =>
  `Traceback (most recent call last):\n  File "/workspace/reproduction.py", line 7, in <module>\n    ${line}\nTypeError: '<' not supported between instances of 'NoneType' and 'int'\n`;

describe("segmentMarks", () => {
  it("must not fire: no working mark, two failing marks, a working part after the failing one, an empty part", () => {
    expect(segmentMarks("# Fails\nf(1)\n")).toBeNull();
    expect(segmentMarks("# Works\nf(1)\n# Fails\nf(2)\n# Fails\nf(3)\n")).toBeNull();
    expect(segmentMarks("# Fails\nf(2)\n# Works\nf(1)\n")).toBeNull();
    expect(segmentMarks("# Works\n# Fails\nf(2)\n")).toBeNull();
  });

  it("must not fire: a comment that only mentions failing, or a failing part the same as the working one", () => {
    expect(segmentMarks("# this works\nf(1)\n# this one fails on 3.11\nf(2)\n")).toBeNull();
    expect(segmentMarks("# Works\nf(1)\n# Fails\nf(1)\n")).toBeNull();
  });

  it("reads the parts under the marks, trimmed, blank lines aside", () => {
    expect(segmentMarks(CODE)).toEqual({
      passing: ["h = [3, 1]", "heapq.heapify(h)"],
      failing: ["heapq.heappush(h, None)"],
      passMark: "# Works",
      failMark: "# Fails",
    });
  });
});

describe("ownRaisingLine", () => {
  it("is the last frame of the workspace's file, not a library's", () => {
    const lib = `Traceback (most recent call last):\n  File "/workspace/reproduction.py", line 7, in <module>\n    heapq.heappush(h, None)\n  File "/usr/lib/python3.11/heapq.py", line 9, in x\n    raise TypeError()\nTypeError\n`;
    expect(ownRaisingLine(lib)).toBe("heapq.heappush(h, None)");
    expect(ownRaisingLine("TypeError: x\n")).toBeNull();
  });
});

describe("the claim and its match", () => {
  const report = parseReport(`# heappush accepts None after heapify\n\n${fence}python\n${CODE}\n${fence}\n`);
  const reported = reportedExpectations(report).actual;

  it("must not fire: a report that pastes a traceback keeps the traceback's claim", () => {
    const md = `# x\n\n${fence}python\n${CODE}\n${fence}\n\n${fence}\n${traceback("heapq.heappush(h, None)")}${fence}\n`;
    expect(reportedExpectations(parseReport(md)).actual.segments).toBeUndefined();
  });

  // Corrected (fx1): this test asserted `clean` (NOT_REPRODUCED) for an error in the part the report says works,
  // and `different-failure` for an ImportError at the import: the first is another failure, the second the sandbox.
  it("must not fire: an error raised in the working part is another failure, never NOT_REPRODUCED", () => {
    const m = matchRun(
      reported,
      run({
        exitCode: 1,
        stderr: traceback("heapq.heapify(h)"),
        exception: { type: "TypeError", message: "x" },
      }),
    );
    expect(m.kind).toBe("different-failure");
    expect(foldRuns([m]).verdict).not.toBe("NOT_REPRODUCED");
    expect(foldRuns([m]).verdict).not.toBe("REPRODUCED");
  });

  it("must not fire: a run without an error; an import failing is the sandbox's lack, not a verdict", () => {
    expect(matchRun(reported, run({})).kind).toBe("clean");
    const atImport = matchRun(
      reported,
      run({
        exitCode: 1,
        stderr: traceback("import heapq"),
        exception: { type: "ImportError", message: "x" },
      }),
    );
    expect(atImport.kind).toBe("needs");
  });

  const raisedIn = (md: string, line: number, code: string, type: string, message: string) =>
    matchRun(
      reportedExpectations(parseReport(md)).actual,
      run({
        exitCode: 1,
        stderr: `Traceback (most recent call last):\n  File "/workspace/reproduction.py", line ${line}, in <module>\n    ${code}\n${type}: ${message}\n`,
        exception: { type, message },
      }),
    );

  it("must not fire: a file the report does not include, raised in the failing part (FileNotFoundError)", () => {
    const code =
      'import json\n\n# Works\nprint(json.dumps({"a": 1}))\n\n# Fails\ndata = json.load(open("config.json"))\n';
    const md = `# load fails\n\n${fence}python\n${code}${fence}\n`;
    expect(reportedExpectations(parseReport(md)).actual.segments).toBeDefined();
    const m = raisedIn(
      md,
      7,
      'data = json.load(open("config.json"))',
      "FileNotFoundError",
      "[Errno 2] No such file or directory: 'config.json'",
    );
    expect(m.kind).toBe("needs");
    expect(foldRuns([m]).verdict).not.toBe("REPRODUCED");
  });

  it("must not fire: a module the sandbox lacks, or another environment error, raised in the failing part", () => {
    const code = "import json\n\n# Works\nprint(json.dumps(1))\n\n# Fails\nimport yaml\n";
    const md = `# import fails\n\n${fence}python\n${code}${fence}\n`;
    expect(reportedExpectations(parseReport(md)).actual.segments).toBeDefined();
    const missing = raisedIn(md, 7, "import yaml", "ModuleNotFoundError", "No module named 'yaml'");
    expect(missing.kind).toBe("needs");
    // Corrected (fx4): a limit of the sandbox (its disk) is the sandbox's own lack, an infrastructure error, not a
    // question to the reporter; still never a verdict.
    expect(() => raisedIn(md, 7, "import yaml", "OSError", "[Errno 28] No space left on device")).toThrow(
      InfrastructureError,
    );
    const net = raisedIn(md, 7, "import yaml", "urllib.error.URLError", "<urlopen error timed out>");
    expect(net.kind).toBe("needs");
  });

  it("an error at a line of the failing part, after the working part ran, is the reported behaviour", () => {
    expect(reported.kind).toBe("error-unspecified");
    const m = matchRun(
      reported,
      run({
        exitCode: 1,
        stderr: traceback("heapq.heappush(h, None)"),
        exception: { type: "TypeError", message: "x" },
      }),
    );
    expect(m.kind).toBe("match");
    expect(m.detail).toMatch(/in the part the report marks `# Fails`, after the part it marks `# Works`/);
  });
});
