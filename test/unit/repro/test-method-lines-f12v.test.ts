/**
 * Lines taken out of a standard-library test method (`self.json.load(fp)`, `StringIO(…)` never imported): the
 * standard names are completed, `self.<standard module>` read as the module (issue 12, hold18). Reports
 * written for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";

const f = "```";
const program = (code: string) => {
  const p = completeProgram(parseReport(`Fails:\n\n${f}py\n${code}\n${f}\n`))!;
  return p.files[p.entry]!;
};

describe("a test method's lines", () => {
  it("imports StringIO / BytesIO from io", () => {
    const code = program("fp = StringIO('[1]')\nb = BytesIO(b'x')\nprint(fp.read(), b.read())");
    expect(code).toMatch(/^from io import BytesIO, StringIO$/m);
  });

  it("reads `self.json` as the json module when every `self.` names a standard module", () => {
    const code = program("fp = StringIO('[1]')\nresult = self.json.load(fp)\nassert result == [1]");
    expect(code).toMatch(/^import json$/m);
    expect(code).toMatch(/^result = json\.load\(fp\)$/m);
    expect(code).not.toMatch(/self/);
  });

  it("leaves `self` alone when one use is not a standard module", () => {
    const code = program("x = self.json.loads('1')\ny = self.helper(x)\nprint(y)");
    expect(code).toMatch(/self\.json\.loads/);
    expect(code).toMatch(/self\.helper/);
  });

  it("leaves `self` alone inside a method that binds it", () => {
    const code = program("class T:\n    def go(self):\n        return self.json.loads('1')\nprint(T)");
    expect(code).toMatch(/self\.json\.loads/);
  });

  it("leaves a bare `self.json` (not a member read) alone", () => {
    const code = program("print(self.json)");
    expect(code).toMatch(/self\.json/);
  });
});
