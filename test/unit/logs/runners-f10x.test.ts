/**
 * Runner shapes added on branch f10x (misses of the hold30 corpus, tainted once scored). Each log is written here
 * for a small kiln library of our own, in the runners' byte layout; each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("unittest: a log rendered as markdown (rules turned into headings)", () => {
  it("`## FAIL: test_x (m.C)` is a header; `# ` and `---` close its block; a cut name is no test", () => {
    const log = [
      "Creating test database for alias 'default'...",
      "# ....F....F..",
      "## FAIL: test_glaze (kiln.tests.GlazeTests)",
      "",
      "Traceback (most recent call last):",
      '  File "/home/me/env/lib/python2.6/site-packages/kiln/tests.py", line 14, in test_glaze',
      "    self.assertEqual(glaze(), 'shiny')",
      "AssertionError: u'' != 'shiny'",
      "# ",
      "## ERROR: test_fire (kiln.tests.FireTests)",
      "",
      "Traceback (most recent call last):",
      '  File "/home/me/env/lib/python2.6/site-packages/kiln/tests.py", line 40, in test_fire',
      "    fire(900)",
      "ValueError: too cold",
      "",
      "---",
      "",
      "Ran 14 tests in 0.100s",
      "## FAIL: test_default_sets_html_for_",
    ];
    expect(found(log.join("\n"))).toEqual([
      ["kiln.tests.GlazeTests.test_glaze", "kiln/tests.py", 14],
      ["kiln.tests.FireTests.test_fire", "kiln/tests.py", 40],
    ]);
  });

  it("a module that failed to import, as a markdown heading, is one failure (no import error beside it)", () => {
    const log = [
      "kiln (unittest.loader._FailedTest) ... ERROR",
      "# ",
      "## ERROR: kiln (unittest.loader._FailedTest)",
      "",
      "ImportError: Failed to import test module: kiln",
      "Traceback (most recent call last):",
      '  File "/usr/lib/python3.5/unittest/loader.py", line 369, in _get_module_from_name',
      "    __import__(name)",
      '  File "/build/kiln/kiln.py", line 3, in <module>',
      "    from packaging.version import parse",
      "ImportError: No module named 'packaging'",
      "",
      "---",
      "",
      "Ran 1 test in 0.000s",
      "",
      "FAILED (errors=1)",
    ];
    expect(parseLog(log.join("\n")).failures.map((f) => f.test)).toEqual([
      "unittest.loader._FailedTest.kiln",
    ]);
  });

  it("must not fire: a markdown heading that merely mentions FAIL is no header", () => {
    const log = ["## FAIL: what to do when the kiln cracks", "", "Open the lid.", "---"];
    expect(found(log.join("\n"))).toEqual([]);
  });
});
