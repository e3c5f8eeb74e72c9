/**
 * The corpus through the real pipeline: Docker sandbox, host installer (npm from the registry cache, pip from
 * the configured index), offline runs. Each report's verdict must match its expected verdict in manifest.json.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { ReproResult } from "../../../src/repro/result.ts";
import { runRepro } from "../../../src/repro/run-repro.ts";
import { createLocalReproPorts } from "../../../src/jobs/local-repro.ts";
import { describeDocker } from "../../support/docker.ts";

const corpusDir = path.join(import.meta.dirname, "..", "..", "fixtures", "repro-corpus");
const manifest = JSON.parse(readFileSync(path.join(corpusDir, "manifest.json"), "utf8")) as Record<
  string,
  string
>;

describeDocker("repro corpus (real sandbox, offline runs)", () => {
  const ports = createLocalReproPorts({ runTimeoutMs: 4_000 });
  it("has at least 20 reports across all four verdicts", () => {
    expect(Object.keys(manifest).length).toBeGreaterThanOrEqual(20);
    expect(new Set(Object.values(manifest))).toEqual(
      new Set(["REPRODUCED", "PARTIAL", "NOT_REPRODUCED", "NEEDS_INFO"]),
    );
  });
  for (const [file, expected] of Object.entries(manifest)) {
    it(`${file} → ${expected}`, { timeout: 120_000 }, async () => {
      const markdown = readFileSync(path.join(corpusDir, file), "utf8");
      const spec = ReproJobSpec.parse({
        kind: "repro",
        id: `it-${file.replace(/\W/g, "-")}`,
        markdown,
        runs: 2,
      });
      const { result } = await runRepro(spec, ports);
      expect(ReproResult.parse(result)).toEqual(result);
      expect(result.verdict, result.summary).toBe(expected);
      if (expected === "REPRODUCED") {
        expect(result.evidence.reproducedRuns).toBe(2);
        expect(result.script?.code.length).toBeGreaterThan(0);
      }
      if (expected === "NEEDS_INFO") expect(result.questions.length).toBeGreaterThan(0);
      if (expected === "PARTIAL" || expected === "NOT_REPRODUCED")
        expect(result.differences.length).toBeGreaterThan(0);
    });
  }
  it("states the version matrix for a pin that is not the latest", { timeout: 120_000 }, async () => {
    const markdown = readFileSync(path.join(corpusDir, "js-semver-coerce.md"), "utf8");
    const spec = ReproJobSpec.parse({ kind: "repro", id: "it-matrix", markdown, runs: 1 });
    const { result } = await runRepro(spec, ports);
    expect(result.matrix.map((m) => m.label)).toEqual(["reported", "latest"]);
    expect(result.matrixSummary).toMatch(
      /^reproduces on semver@5\.0\.0; does not on semver@\d+\.\d+\.\d+ \(latest\) — fixed upstream$/,
    );
  });
});
