/**
 * `pyproject.toml` is parsed whole on the host, so its size is capped (MAX_TOML_CHARS, ninth red team: 8 MiB of
 * `[[a]]` held 791 MiB of host memory). Under the cap it is read as before; over it, as invalid TOML is: nothing.
 */
import { describe, expect, it } from "vitest";
import { declaredVersionFiles } from "../../../src/fix/python-version-file.ts";
import { MAX_TOML_CHARS, pyprojectRequirements } from "../../../src/fix/python-requirements.ts";

const REAL = `[project]\nname = "demo"\ndependencies = ["requests>=2"]\n[project.optional-dependencies]\ntest = ["pytest"]\n`;

describe("pyproject.toml size cap", () => {
  it("reads a manifest under the cap, padding and all", () => {
    const padded = `${REAL}${"# padding\n".repeat(Math.floor((MAX_TOML_CHARS - REAL.length) / 10))}`;
    expect(padded.length).toBeLessThanOrEqual(MAX_TOML_CHARS);
    expect(pyprojectRequirements(padded).requirements).toEqual(["requests>=2", "pytest"]);
  });

  it("parses nothing over the cap, in little time and memory", () => {
    const huge = `${REAL}${"[[a]]\n".repeat(1_400_000)}`;
    const before = process.memoryUsage().rss;
    const start = process.cpuUsage();
    expect(pyprojectRequirements(huge)).toEqual({ requirements: [], sources: [], project: null });
    expect(declaredVersionFiles(huge)).toEqual({ files: [], notes: [] });
    const used = process.cpuUsage(start);
    expect((used.user + used.system) / 1000).toBeLessThan(200);
    // The parse held 791 MiB for this text; refusing it holds nothing like that.
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });
});
