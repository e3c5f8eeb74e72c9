/**
 * Runner shapes added on branch f10t (misses of the hold27 corpus, tainted once scored). Each log is written here
 * for a small kiln library of our own, in the runners' byte layout; each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("pytest -s -v: a test's own output between `path::name ` and its outcome", () => {
  it("a passing test that prints `FAILED …`, under a closing count of passes only: no failure", () => {
    const log = [
      "============================= test session starts ==============================",
      "collecting ... collected 2 items",
      "",
      "tests/test_oven.py::test_echoes_words FAILED tests/test_oven.py::test_other - old run",
      "PASSED",
      "tests/test_oven.py::test_plain PASSED",
      "",
      "============================== 2 passed in 0.41s ===============================",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });

  it("must fire: the same FAILED line under a closing count that counts the failure (no short summary, -rN)", () => {
    const log = [
      "============================= test session starts ==============================",
      "collecting ... collected 2 items",
      "",
      "tests/test_oven.py::test_heats FAILED",
      "tests/test_oven.py::test_plain PASSED",
      "",
      "========================= 1 failed, 1 passed in 0.41s ==========================",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["tests/test_oven.py::test_heats"]);
  });

  it("must fire: a log cut before its closing count keeps the FAILED outcome", () => {
    const log = [
      "============================= test session starts ==============================",
      "collecting ... collected 2 items",
      "",
      "tests/test_oven.py::test_heats FAILED                                    [ 50%]",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["tests/test_oven.py::test_heats"]);
  });
});
