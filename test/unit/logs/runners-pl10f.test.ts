/**
 * Runner outputs added on branch pl10f (issue 10, classes seen in real CI logs): Playwright's failure header without
 * its `─` rule, NUnit's console runner, unittest with warnings between results, hspec, RSpec pasted into markdown,
 * pytest's `FAILED [0.31s] …` and an empty-path node id. The logs are written here for a small kettle library of our
 * own, in the runners' byte layout; each rule has a green case where one exists.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("playwright: a numbered header without its rule", () => {
  const block = [
    "[WebServer] GET /kettle/status 200 - - 12.400 ms",
    "·",
    "",
    "  1) [firefox] › e2e/pour.spec.ts:12:1 › pours half a cup when asked twice ",
    "",
    "    Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)",
    "",
    "    Locator: getByRole('status')",
    '    Expected string: "half"',
    '    Received string: "full"',
    "    Call log:",
    "      - expect.toHaveText with timeout 5000ms",
    "",
    "      30 | \tawait page.click('#pour')",
    "    > 31 | \tawait expect(page.getByRole('status')).toHaveText('half')",
    "         | \t                                      ^",
    "      32 | })",
  ];
  it("reads the block with its code frame's line", () => {
    expect(found(block.join("\n"))).toEqual([
      ["e2e/pour.spec.ts > pours half a cup when asked twice", "e2e/pour.spec.ts", 31],
    ]);
  });
  it("reads a block cut inside its call log, placed at its header's line (f10q: no frame, no code frame left)", () => {
    expect(found(block.slice(3, 12).join("\n"))).toEqual([
      ["e2e/pour.spec.ts > pours half a cup when asked twice", "e2e/pour.spec.ts", 12],
    ]);
  });
  it("needs the project and an error line", () => {
    const noProject = block.slice(3).map((l) => l.replace("[firefox] › ", ""));
    expect(found(noProject.join("\n"))).toEqual([]);
    const noError = block.slice(3, 4).concat(["", "    kettle is warm"]);
    expect(found(noError.join("\n"))).toEqual([]);
  });
});

describe("NUnit console runner", () => {
  const red = [
    "Errors, Failures and Warnings",
    "",
    '1) Failed : Kettle.Tests.PourTests.PoursHalf(250,"tea")',
    "  Expected: 250",
    "  But was:  249",
    "",
    "   at Kettle.Tests.PourTests.PoursHalf(Int32 ml, String drink) in /home/runner/work/kettle/kettle/src/Kettle.Tests/PourTests.cs:line 31",
    "",
    "2) Error : Kettle.Tests.LidTests.ClicksShut",
    "System.InvalidOperationException : lid stayed open",
    "   at Kettle.Lid.Close() in /home/runner/work/kettle/kettle/src/Kettle/Lid.cs:line 12",
    "   at Kettle.Tests.LidTests.ClicksShut() in /home/runner/work/kettle/kettle/src/Kettle.Tests/LidTests.cs:line 20",
    "",
    '3) Failed : Kettle.Tests.HeatTests.Heats("cold",2,"Expected: 5")',
    "Multiple failures or warnings in test:",
    "  1)   Temperature",
    "  Expected: 80",
    "  But was:  79",
    "",
    "  2)   Expected: 5",
    "  But was:  4",
    "",
    "4) Warning : Kettle.Tests.HeatTests.Warms",
    "  the element is slow to warm",
    "",
    "Tests Not Run",
    "",
    "1) Ignored : Kettle.Tests.SpoutTests.Drips",
    "no water on this board",
    "",
    "Test Run Summary",
    "  Overall result: Failed",
    "  Test Count: 9, Passed: 5, Failed: 3, Warnings: 1, Inconclusive: 0, Skipped: 1",
    "    Failed Tests - Failures: 2, Errors: 1, Invalid: 0",
  ];
  it("reads the numbered failures with their arguments and frames", () => {
    expect(found(red.join("\n"))).toEqual([
      ['Kettle.Tests.PourTests.PoursHalf(250,"tea")', "src/Kettle.Tests/PourTests.cs", 31],
      ["Kettle.Tests.LidTests.ClicksShut", "src/Kettle/Lid.cs", 12],
      ['Kettle.Tests.HeatTests.Heats("cold",2,"Expected: 5")', null, null],
    ]);
  });
  it("reads a paste without the heading and drops an entry cut in its name", () => {
    const pasted = ["  But was:  3", "", ...red.slice(13, 22), "4) Failed : Kettle.Tests.Sp"];
    expect(found(pasted.join("\n"))).toEqual([
      ['Kettle.Tests.HeatTests.Heats("cold",2,"Expected: 5")', null, null],
    ]);
  });
  it("reports nothing for a green run with an ignored test", () => {
    const green = [
      ...red.slice(26, 31),
      "Test Run Summary",
      "  Overall result: Passed",
      "  Test Count: 6, Passed: 5, Failed: 0, Warnings: 0, Inconclusive: 0, Skipped: 1",
    ];
    const r = parseLog(green.join("\n"));
    expect(r.failures).toEqual([]);
    expect(r.tests.map((t) => [t.id, t.outcome])).toEqual([["Kettle.Tests.SpoutTests.Drips", "skipped"]]);
  });
});

describe("unittest: output between a test's dots and its outcome, a paste from the FAIL header", () => {
  const warned = [
    "test_pours (tests.test_kettle.KettleTests.test_pours)",
    "Pouring half a cup leaves half ... /usr/lib/python3.12/socket.py:88: ResourceWarning: unclosed <socket.socket fd=3>",
    "  self._sock = None",
    "ResourceWarning: Enable tracemalloc to get the object allocation traceback",
    "ERROR",
    "test_boils (tests.test_kettle.KettleTests.test_boils) ... /usr/lib/python3.12/warnings.py:4: DeprecationWarning: old",
    "  warn(msg)",
    "ok",
    "test_lid (tests.test_kettle.KettleTests.test_lid) ... ok",
  ];
  it("takes the outcome printed alone after the warning", () => {
    const r = parseLog(warned.join("\n"));
    expect(r.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["tests.test_kettle.KettleTests.test_pours", "error"],
      ["tests.test_kettle.KettleTests.test_boils", "passed"],
      ["tests.test_kettle.KettleTests.test_lid", "passed"],
    ]);
    expect(found(warned.join("\n"))).toEqual([["tests.test_kettle.KettleTests.test_pours", null, null]]);
  });
  it("is green when the outcome is ok", () => {
    const green = warned.slice(5);
    expect(parseLog(green.join("\n")).failures).toEqual([]);
  });
  const header = [
    "FAIL: test_heats (__main__.HeatTests)",
    "----------------------------------------------------------------------",
    "Traceback (most recent call last):",
    '  File "/opt/py/lib/python3.9/site-packages/kettle/tests/test_heat.py", line 41, in test_heats',
    "    self.assertEqual(k.temp, 80)",
    "AssertionError: 79 != 80",
    "----------------------------------------------------------------------",
  ];
  it("reads a FAIL block whose paste starts at its header", () => {
    expect(found(header.join("\n"))).toEqual([["__main__.HeatTests.test_heats", "tests/test_heat.py", 41]]);
  });
  it("does not read a FAIL: line without the dash rule under it", () => {
    expect(found(["FAIL: test_heats (__main__.HeatTests)", "nothing here"].join("\n"))).toEqual([]);
  });
});

describe("hspec", () => {
  const red = [
    "Kettle.Pour",
    "  pour",
    "    pours half a cup FAILED [1]",
    "    keeps the rest",
    "",
    "Failures:",
    "",
    "  test/Kettle/PourSpec.hs:27:5: ",
    "  1) Kettle.Pour.pour, pours half a cup",
    "       expected: 250",
    "        but got: 249",
    "",
    '  To rerun use: --match "/Kettle.Pour/pour/pours half a cup/"',
    "",
    "  test/Kettle/LidSpec.hs:12: ",
    "  2) Kettle.Lid, clicks shut when the lid is closed",
    '       uncaught exception: ErrorCall (lid stayed open, "  1) not a failure")',
    "",
    "Randomized with seed 1234",
    "",
    "Finished in 0.0040 seconds",
    "6 examples, 2 failures",
  ];
  it("reads each entry at its location line", () => {
    expect(found(red.join("\n"))).toEqual([
      ["Kettle.Pour.pour, pours half a cup", "test/Kettle/PourSpec.hs", 27],
      ["Kettle.Lid, clicks shut when the lid is closed", "test/Kettle/LidSpec.hs", 12],
    ]);
  });
  it("reports nothing for a green run", () => {
    const green = [
      "Kettle.Pour",
      "  pour",
      "    pours half a cup",
      "",
      "Finished in 0.0040 seconds",
      "6 examples, 0 failures",
    ];
    expect(parseLog(green.join("\n")).failures).toEqual([]);
  });
});

describe("rspec: a Failures: heading in markdown bold", () => {
  const pasted = [
    "**Failures:",
    "",
    "  1) Kettle#pour leaves half a cup ",
    "     Failure/Error: expect(kettle.pour(0.5)).to eq(250)",
    "       expected: 250",
    "            got: 249",
    "     # ./spec/kettle/pour_spec.rb:14:in `block (2 levels) in <top (required)>'",
    "",
    "**",
  ];
  it("reads the blocks, the description without its trailing space", () => {
    expect(found(pasted.join("\n"))).toEqual([
      ["spec/kettle/pour_spec.rb > Kettle#pour leaves half a cup", "spec/kettle/pour_spec.rb", 14],
    ]);
  });
  it("is no heading with other text around it", () => {
    expect(found(["**Failures: none**", ...pasted.slice(1)].join("\n"))).toEqual([]);
  });
});

describe("pytest: a duration before the node id, an id with no file part", () => {
  it("reads `FAILED [0.52s] id - message` in the short summary", () => {
    const log = [
      "=========================== short test summary info ============================",
      "FAILED [0.5210s] tests/test_kettle.py::TestPour::test_half_cup - AssertionError: 249 != 250",
      "PASSED [0.0100s] tests/test_kettle.py::TestPour::test_full_cup",
      "========================= 1 failed, 1 passed in 0.60s ==========================",
    ];
    expect(found(log.join("\n"))).toEqual([
      ["tests/test_kettle.py::TestPour::test_half_cup", "tests/test_kettle.py", null],
    ]);
    const green = log
      .slice(0, 1)
      .concat(["PASSED [0.0100s] tests/test_kettle.py::TestPour::test_full_cup", "1 passed in 0.10s"]);
    expect(parseLog(green.join("\n")).failures).toEqual([]);
  });
  it("keeps `::name` as printed", () => {
    const log = [
      "/usr/lib/python3.11/posixpath.py:379: FileNotFoundError",
      "=========================== short test summary info ============================",
      "FAILED ::kettle-lint - FileNotFoundError: [Errno 2] No such file or directory",
      "========================= 1 failed, 12 passed in 0.40s =========================",
    ];
    expect(found(log.join("\n"))).toEqual([["::kettle-lint", null, null]]);
  });
});
