/**
 * Log shapes from hold15's misses (issue 10, branch f10d), each read by a general rule, each with a case where it must
 * not fire. The logs are written here, not copied from the corpus.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);
const places = (log: string) => parseLog(log).failures.map((f) => [f.test, f.file, f.line]);
const lines = (...l: string[]) => l.join("\n");

describe("XCTest on Linux: assertion lines without their Test Case lines", () => {
  it("reads one failure per test, in order, a repeated test once, with the SwiftPM path", () => {
    const log = lines(
      "/srv/kettle/Tests/KettleTests/PourTests.swift:12: error: PourTests.testHalf : XCTAssertEqual failed: (\"1\") is not equal to (\"2\") - ",
      "/srv/kettle/Tests/KettleTests/PourTests.swift:13: error: PourTests.testHalf : XCTAssertEqual failed: (\"3\") is not equal to (\"4\") - ",
      "/srv/kettle/Tests/KettleTests/Helpers.swift:40: error: LidTests.testSeal : XCTAssertTrue failed - ",
      "/srv/kettle/Tests/KettleTests/PourTests.swift:30: error: PourTests.testFull : XCTAssertNil failed: \"x\" - ",
    );
    expect(places(log)).toEqual([
      ["PourTests.testHalf", "Tests/KettleTests/PourTests.swift", 12],
      ["LidTests.testSeal", "Tests/KettleTests/Helpers.swift", 40],
      ["PourTests.testFull", "Tests/KettleTests/PourTests.swift", 30],
    ]);
    expect(parseLog(log).failures.every((f) => f.format === "xctest")).toBe(true);
  });
  it("closes an assertion-opened test when another test's Test Case line comes", () => {
    const log = lines(
      "/srv/kettle/Tests/KettleTests/PourTests.swift:12: error: PourTests.testHalf : XCTAssertEqual failed: (\"1\") is not equal to (\"2\") - ",
      "Test Case 'PourTests.testFull' started at 2024-05-02 10:11:12.345",
      "Test Case 'PourTests.testFull' passed (0.001 seconds)",
    );
    expect(ids(log)).toEqual(["PourTests.testHalf"]);
  });
  it("does not take an inner suite's count line as the run's in a log that opens inside the run", () => {
    const log = lines(
      "Test Case 'LidTests.testSeal' started at 2024-05-02 10:11:12.345",
      "Test Case 'LidTests.testSeal' passed (0.001 seconds)",
      "Test Suite 'LidTests' passed at 2024-05-02 10:11:12.346",
      "\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds",
      "Test Suite 'PourTests' started at 2024-05-02 10:11:12.346",
      "Test Case 'PourTests.testHalf' started at 2024-05-02 10:11:12.346",
      "/srv/kettle/Tests/KettleTests/PourTests.swift:12: error: PourTests.testHalf : XCTAssertEqual failed: (\"x' started at 2024\") is not equal to (\"y\") - ",
      "/srv/kettle/Tests/Kettle",
    );
    expect(places(log)).toEqual([["PourTests.testHalf", "Tests/KettleTests/PourTests.swift", 12]]);
  });
  it("still trusts the outermost suite's count line of a whole run", () => {
    const log = lines(
      "Test Suite 'All tests' started at 2024-05-02 10:11:12.345",
      "Test Suite 'LidTests' started at 2024-05-02 10:11:12.345",
      "Test Case 'LidTests.testSeal' started at 2024-05-02 10:11:12.345",
      "Test Case 'LidTests.testSeal' passed (0.001 seconds)",
      "Test Suite 'LidTests' passed at 2024-05-02 10:11:12.346",
      "\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds",
      "Test Suite 'All tests' passed at 2024-05-02 10:11:12.346",
      "\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds",
    );
    const r = parseLog(log);
    expect(r.failures).toEqual([]);
    expect(r.tests.map((t) => [t.id, t.outcome])).toEqual([["LidTests.testSeal", "passed"]]);
  });
  it("does not read a compiler's `error:` line, nor a line not naming a test, as a test", () => {
    const log = lines(
      "/srv/kettle/Sources/Kettle/Pour.swift:12:5: error: cannot find 'x' in scope",
      "/srv/kettle/Tests/KettleTests/PourTests.swift:12: error: something went wrong",
    );
    expect(parseLog(log).failures.filter((f) => f.format === "xctest")).toEqual([]);
  });
});
