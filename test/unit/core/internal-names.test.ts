/**
 * Retrace's own file names (and the nonce of its report file) never reach text a user reads. The pytest line
 * is byte-exact from a real run (`retrace verify --json` on test/fixtures/repos/py-stats, before this rule);
 * the vitest line is the message of vitest 4's JUnit reporter (node_modules/vitest, `JUNIT report written to`).
 */
import { describe, expect, it } from "vitest";
import { scrubInternalNames } from "../../../src/core/internal-names.ts";

const pytestTail = `tests/test_stats.py:15: AssertionError
----- generated xml file: /workspace/.retrace-report-08a1e6ff51f84325.xml ------
=========================== short test summary info ============================
FAILED tests/test_stats.py::test_median_even - assert 3 == 2.5`;

describe("scrubInternalNames", () => {
  it("drops pytest's 'generated xml file' line and keeps the rest byte for byte", () => {
    expect(scrubInternalNames(pytestTail)).toBe(`tests/test_stats.py:15: AssertionError
=========================== short test summary info ============================
FAILED tests/test_stats.py::test_median_even - assert 3 == 2.5`);
  });

  it.each([
    " JUNIT report written to /workspace/.retrace-report-0123456789abcdef.xml",
    "Test results written to: .retrace-report-0123456789abcdef.json",
  ])("drops a reporter's announcement of Retrace's report: %s", (line) => {
    expect(scrubInternalNames(`before\n${line}\nafter`)).toBe("before\nafter");
  });

  it("keeps a line that says something else about the file, with the path replaced", () => {
    const text =
      "PermissionError: [Errno 13] Permission denied: '/workspace/.retrace-report-0123456789abcdef.xml'\n" +
      '/workspace/.retrace-stdin: 1: Syntax error: "(" unexpected\n' +
      "cat: ./sub/.retrace-installed.json: No such file or directory";
    expect(scrubInternalNames(text)).toBe(
      "PermissionError: [Errno 13] Permission denied: '<retrace file>'\n" +
        '<retrace file>: 1: Syntax error: "(" unexpected\n' +
        "cat: <retrace file>: No such file or directory",
    );
  });

  it("leaves text without Retrace's files alone, including names that only look alike", () => {
    const text =
      "see .retrace/fix-1/pr.md and retrace-report.xml and my.retrace_notes\ngenerated xml file: out.xml";
    expect(scrubInternalNames(text)).toBe(text);
  });
});
