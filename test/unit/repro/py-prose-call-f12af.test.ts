/**
 * A Python standard-library call stated in prose alone (issue 12, hold22 math-96520's shape: "Calling math.sin()
 * with 90 as the argument returns … rather than 1.0", no code block). Reports written here.
 */
import { describe, expect, it } from "vitest";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { pyProseCallFor, readPyProseCall } from "../../../src/repro/py-prose-call.ts";

describe("a stdlib call in prose", () => {
  it("reads the call, its argument written after it or inside, the claim and the expected value", () => {
    expect(
      readPyProseCall(
        "Calling math.sqrt() with 2 as the argument returns 1.4142135623730951 rather than 1.41.",
      ),
    ).toMatchObject({
      module: "math",
      call: "math.sqrt(2)",
      claimed: "1.4142135623730951",
      expected: "1.41",
    });
    expect(readPyProseCall("`statistics.median([1, 3])` gives `2.0`, but I expected 2.")).toMatchObject({
      call: "statistics.median([1, 3])",
      claimed: "2.0",
      expected: "2",
    });
    expect(readPyProseCall("I found that os.path.basename('a/b/') returns '' here.")).toBeNull();
    expect(readPyProseCall("I found that os.path.basename('a/b') wrongly returns 'b' here.")).toMatchObject({
      module: "os.path",
      claimed: "b",
    });
  });

  it("the program imports the module and prints the call; the claim is the stated value", () => {
    const md =
      "# math.sqrt is off\n\nCalling math.sqrt() with 2 returns 1.4142135623730951 rather than 1.41.\n\nCPython versions tested on: 3.10\n";
    const r = pyProseCallFor(parseReport(md), md);
    expect(r?.program.files["reproduction.py"]).toContain("import math\nprint(math.sqrt(2))");
    expect(r?.actual.output).toEqual(["1.4142135623730951"]);
    expect(r?.expectedOutput).toEqual(["1.41"]);
  });

  it("must not fire: a wanted value, a non-literal argument, a module that is not the standard library", () => {
    expect(readPyProseCall("math.sin(90) should return 1.0.")).toBeNull();
    expect(readPyProseCall("I expect math.sin(90) to give 1.0.")).toBeNull();
    expect(readPyProseCall("Calling math.sin(x) returns 0.5.")).toBeNull();
    expect(readPyProseCall("Calling numpy.sin(90) returns 0.89.")).toBeNull();
    expect(readPyProseCall("math.floor(2.5) is called twice.")).toBeNull();
    expect(readPyProseCall("Calling math.sin() returns 0.5.")).toBeNull();
  });

  it("must not fire (rv21 F1): the documentation's value, another Python's, the past's, a value not called wrong", () => {
    for (const sentence of [
      "According to the docs, `os.path.join('a', '/b')` returns '/b', but on Windows it keeps both parts.",
      "The documentation says `math.isqrt(17)` returns 4.",
      "`statistics.median([1, 3])` gives `2.0` on Python 3.9 but `2` on 3.12.",
      "In Python 2, `string.capwords('a b')` returned 'A B' and nothing else changed.",
      "`math.floor(2.5)` used to return 2.0, but that is long gone.",
      "I found that os.path.basename('a/b') returns 'b' here.",
    ])
      expect(readPyProseCall(sentence), sentence).toBeNull();
  });

  it("still reads hold22 math-96520's sentence (rv21 F1's intended case)", () => {
    expect(
      readPyProseCall(
        "Calling math.sin() with 90 as the argument returns 0.8939966636005579 rather than 1.0. That value is wrong.",
      ),
    ).toMatchObject({ call: "math.sin(90)", claimed: "0.8939966636005579", expected: "1.0" });
  });

  it("must not fire: a report that is not a Python one (npm prose naming `os.platform()` or `string.x(…)`)", () => {
    const md = "# platform name\n\nCalling os.platform() with 1 returns 'linux' on my machine.\n";
    expect(pyProseCallFor(parseReport(md), md)).toBeNull();
  });
});
