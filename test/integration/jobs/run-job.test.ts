import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { FixJobSpec, ReproJobSpec } from "../../../src/core/job.ts";
import { JobResult } from "../../../src/jobs/result.ts";
import { runJob } from "../../../src/jobs/run-job.ts";
import { describeDocker } from "../../support/docker.ts";

describeDocker("runJob with the production pipelines", () => {
  it("reproduces the bundled example offline and returns a valid JobResult with its trace", async () => {
    const markdown = readFileSync(new URL("../../../examples/python-keyerror.md", import.meta.url), "utf8");
    const spec = ReproJobSpec.parse({ kind: "repro", id: "runjob-repro", markdown, runs: 2 });
    const run = await runJob(spec, { model: null });
    expect(JobResult.parse(run.result)).toMatchObject({
      jobId: "runjob-repro",
      kind: "repro",
      outcome: "succeeded",
      verdict: "REPRODUCED",
      patch: null,
    });
    expect(run.result.summary).toContain("KeyError");
    expect(run.trace.job).toMatchObject({ kind: "repro", id: "runjob-repro" });
    expect(run.trace.steps.length).toBeGreaterThan(0);
  });

  it("a fix job without a repository checkout fails with a message saying what to do", async () => {
    const spec = FixJobSpec.parse({ kind: "fix", id: "runjob-fix" });
    await expect(runJob(spec, { model: null })).rejects.toMatchObject({
      message: expect.stringMatching(/needs a checkout of the repository/),
      hint: expect.stringMatching(/--repo DIR/),
    });
  });
});
