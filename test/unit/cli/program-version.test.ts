import { describe, expect, it } from "vitest";
import { buildProgram } from "../../../src/cli/program.ts";

describe("buildProgram", () => {
  it("loads no command for `--version` or `-V` alone (start-up cost), and still knows the version", async () => {
    for (const flag of ["--version", "-V"]) {
      const p = await buildProgram([flag]);
      expect(p.commands.map((c) => c.name())).toEqual([]);
      expect(p.version()).toBe("0.1.0");
    }
  });
  it("loads every command for help or an unknown word, and only the named one otherwise", async () => {
    expect((await buildProgram(["--help"])).commands.length).toBeGreaterThan(5);
    expect((await buildProgram(["--version", "x"])).commands.length).toBeGreaterThan(5);
    expect((await buildProgram(["parse-log", "--version"])).commands.map((c) => c.name())).toEqual([
      "parse-log",
    ]);
  });
});
