import { describe, expect, it } from "vitest";
import { programFileName } from "../../../src/repro/parse-report.ts";

describe("programFileName (names a report gives its blocks)", () => {
  it("keeps names inside the work directory", () => {
    for (const n of ["helper.py", "lib/util.js", "src/a/b.ts", "data.json", "package.json"])
      expect(programFileName(n)).toBe(n);
  });
  it("leaves out dot segments (the sandbox refuses them; the run failed as an error)", () => {
    for (const n of ["../x.js", "../../../../tmp/helper.py", "lib/../../escape.js", "./a.js", "a//b.js"])
      expect(programFileName(n)).toBeNull();
  });
  it("leaves out files the runtime reads before the program", () => {
    for (const n of [
      "node_modules/lodash/index.js",
      "a/node_modules/x/i.js",
      "sitecustomize.py",
      "usercustomize.py",
    ])
      expect(programFileName(n)).toBeNull();
  });
});
