/** The tracking comment (src/jobs/tracking-comment.ts): marker, phases, redaction. */
import { describe, expect, it } from "vitest";
import { markerFor, renderTrackingComment } from "../../../src/jobs/tracking-comment.ts";
import type { ReproTrigger, FixTrigger } from "../../../src/jobs/triggers.ts";
import type { JobResult } from "../../../src/jobs/result.ts";

const label: ReproTrigger = {
  type: "repro",
  repo: "octo/app",
  installationId: 1,
  defaultBranch: "main",
  issueNumber: 3,
  via: "label",
  word: "needs-repro",
  actor: "ana",
  checkPermission: false,
  thenFix: false,
};
const check: FixTrigger = {
  type: "fix",
  repo: "octo/app",
  installationId: 1,
  defaultBranch: "main",
  via: "check_run",
  word: "test",
  actor: "ana",
  checkPermission: false,
  headSha: "0123456789abcdef",
  headBranch: "feature",
  prNumber: 4,
  checkRunId: 9,
  checkName: "test",
  actionsJobId: 9,
  onRetraceBranch: false,
};
const result: JobResult = {
  jobId: "fix-1",
  kind: "fix",
  outcome: "succeeded",
  verdict: "FIXED",
  summary: "verified; token ghp_SECRET123 seen",
  patch: "diff",
  failures: [],
  costUsd: 0.01234,
  tokens: 42,
  attempts: 2,
  durationMs: 12_345,
};

describe("tracking comment", () => {
  it("starts with the hidden marker the App finds it by", () => {
    expect(markerFor("repro-abc")).toBe("<!-- retrace:job:repro-abc -->");
    const body = renderTrackingComment(
      { id: "repro-abc", kind: "repro", trigger: label },
      { phase: "queued" },
    );
    expect(body).toBe(
      [
        "<!-- retrace:job:repro-abc -->",
        "### Retrace reproduction: ⏳ queued",
        "",
        "| job | trigger |",
        "|---|---|",
        "| `repro-abc` | label `needs-repro` added by @ana |",
        "",
        "<sub>This comment is updated in place when the job finishes.</sub>",
      ].join("\n"),
    );
  });

  it("names each phase", () => {
    const job = { id: "fix-1", kind: "fix" as const, trigger: check };
    expect(renderTrackingComment(job, { phase: "running", progress: "attempt 2" })).toContain(
      "### Retrace fix: 🔄 running — attempt 2",
    );
    expect(renderTrackingComment(job, { phase: "dispatched", workflow: "retrace.yml" })).toContain(
      "🚀 dispatched to the `retrace.yml` workflow",
    );
    expect(renderTrackingComment(job, { phase: "running" })).toContain(
      "| `fix-1` | check `test` failed on `feature` (0123456) |",
    );
  });

  it("the final state links the draft PR, quotes the note, and redacts what came from the run", () => {
    const redact = (s: string) => s.replaceAll("ghp_SECRET123", "***");
    const body = renderTrackingComment(
      { id: "fix-1", kind: "fix", trigger: check },
      { phase: "done", result, prUrl: "https://github.test/pr/5", note: "gate said ghp_SECRET123" },
      redact,
    );
    expect(body).toContain("### Retrace fix: ✅ FIXED");
    expect(body).toContain(
      "**Draft pull request:** https://github.test/pr/5 — verified in the sandbox; review before merging.",
    );
    expect(body).toContain("> gate said ***");
    expect(body).toContain("verified; token *** seen");
    expect(body).not.toContain("ghp_SECRET123");
    expect(body).toContain("<sub>outcome `succeeded` · 2 attempt(s) · 42 tokens · $0.0123 · 12.3 s</sub>");
  });

  it("a failure is fenced, and a fence in the error cannot close it early", () => {
    const body = renderTrackingComment(
      { id: "repro-1", kind: "repro", trigger: { ...label, via: "command", word: "/repro" } },
      { phase: "failed", error: "boom ```\n# injected heading" },
    );
    expect(body).toContain("### Retrace reproduction: ❌ failed");
    expect(body).toContain("| `repro-1` | `/repro` by @ana |");
    // A fence longer than any backtick run in the error: the error's ``` cannot close it.
    expect(body).toContain("````text\nboom ```\n# injected heading\n````");
    expect(body).not.toContain("⚠️");
  });

  it("a job that ended without reaching its goal is a warning, not a success", () => {
    const body = renderTrackingComment(
      { id: "fix-1", kind: "fix", trigger: check },
      { phase: "done", result: { ...result, outcome: "flaky", verdict: "FLAKY" } },
    );
    expect(body).toContain("### Retrace fix: ⚠️ FLAKY");
    expect(body).not.toContain("Draft pull request");
  });
});

describe("tracking comment: repository names stay text", () => {
  it("a check-run name or branch with backticks and pipes cannot mention, embed or add table cells", () => {
    const hostile: FixTrigger = {
      ...check,
      checkName: "build ` @org/team ![p](http://x/p.png) `",
      headBranch: "feat`|@org|<img src=x>`",
      headSha: "`@x`abc",
    };
    const body = renderTrackingComment({ id: "fix-1", kind: "fix", trigger: hostile }, { phase: "queued" });
    const row = body.split("\n").find((l) => l.startsWith("| `fix-1`"))!;
    expect(row.split(/(?<!\\)\|/).length - 2).toBe(2);
    expect(row).toContain("`` build ` @org/team ![p](http://x/p.png) ` ``");
    expect(row).toContain("`` feat`\\|@org\\|<img src=x>` ``");
  });
});
