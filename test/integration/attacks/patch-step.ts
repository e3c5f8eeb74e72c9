/**
 * What the waves' step processes do with a model-written patch and a fix's texts, once: the policy gate, then the
 * one applier on a repository directory (each saying what it did), and the PR title a verified fix would get.
 */
import { Redactor } from "../../../src/core/redact.ts";
import { applyPatchToWorkspace, type PatchedFiles } from "../../../src/fix/apply-patch.ts";
import { finishFix } from "../../../src/fix/states/finish.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { fixJobResult } from "../../../src/jobs/fix-result.ts";
import { pullRequestText } from "../../../src/jobs/publish.ts";
import type { JobResult } from "../../../src/jobs/result.ts";
import { evaluatePatch, GATE_TREE_FILES } from "../../../src/policy/index.ts";
import { type Outcome, ok } from "./wave-step.ts";

export const short = (s: string, n = 200) => s.replace(/\s+/g, " ").slice(0, n);

/** A one-line change to `src/auth.js`, the patch the gate cases wrap their line in. */
export const patchLine = (line: string) =>
  `diff --git a/src/auth.js b/src/auth.js\n--- a/src/auth.js\n+++ b/src/auth.js\n@@ -1,2 +1,2 @@\n const ok = check(user);\n-if (ok) allow();\n+${line}\n`;

/** The policy gate on a patch: contained when it refuses, naming the rules. */
export function gateVerdict(patch: string): Outcome {
  const r = evaluatePatch(patch);
  return ok(
    r.allowed ? "the gate allowed it" : `refused: ${r.violations.map((v) => v.rule).join(", ")}`,
    !r.allowed,
  );
}

/** The policy gate on one added line of `src/auth.js`. */
export const gateLine = (line: string) => gateVerdict(patchLine(line));

/** Contained when none of `chars` reaches the text raw. */
export function noRaw(what: string, text: string, chars: string[]): Outcome {
  const raw = chars.filter((c) => text.includes(c));
  return ok(
    raw.length
      ? `${what} holds ${raw.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`).join(", ")} raw: ${JSON.stringify(short(text, 120))}`
      : `${what} escapes them: ${JSON.stringify(short(text, 120))}`,
    raw.length === 0,
  );
}

export interface GateThenApply {
  gate: string;
  allowed: boolean;
  applied: string;
  appliedOk: boolean;
}

/** The gate's answer on `patch`, then the applier's on the repository at `repo`; `shown` writes what was applied. */
export async function gateThenApply(
  patch: string,
  repo: string,
  shown: (p: PatchedFiles) => string,
  width = 160,
  /** Give the gate the repository's names, as the fix pipeline does (src/fix/build-ports.ts). */
  withTree = false,
): Promise<GateThenApply> {
  let gate: string;
  let allowed = false;
  try {
    const treeFiles = withTree
      ? await (await createFsWorkspace(repo)).listFiles({ max: GATE_TREE_FILES })
      : undefined;
    const g = evaluatePatch(patch, {}, treeFiles ? { treeFiles } : {});
    allowed = g.allowed;
    gate = g.allowed
      ? "gate allowed"
      : `gate refused: ${short(g.violations.map((v) => `${v.rule}: ${v.message}`).join("; "), 240)}`;
  } catch (e) {
    gate = `gate threw: ${short((e as Error).message, 100)}`;
  }
  let applied: string;
  let appliedOk = false;
  try {
    const p = await applyPatchToWorkspace(await createFsWorkspace(repo), patch);
    appliedOk = true;
    applied = `applied: ${short(shown(p), width)}`;
  } catch (e) {
    applied = `applier refused: ${short((e as Error).message, width)}`;
  }
  return { gate, allowed, applied, appliedOk };
}

/** The title of the draft PR a verified fix of `failingTests` would open (job `jobId`). */
export function prTitleOf(jobId: string, failingTests: string[]): string {
  const result = fixJobResult(
    {
      result: {
        id: jobId,
        outcome: "FIXED",
        reason: "verified",
        attempts: 1,
        tokens: 0,
        costUsd: 0,
        branch: null,
        commit: null,
        failingTests,
        testCommand: "pytest",
        flaky: null,
        durationMs: 1,
        attemptLog: [],
        verification: { runs: 2, tests: [], antiGaming: [] },
      },
      patch: "--- a/src/a.py\n+++ b/src/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n",
      changes: null,
      ctx: {
        failures: [],
        gate: null,
        excerpt: "E assert 1 == 2",
        accepted: {
          summary: "adds the check",
          rootCause: { hypothesis: "h", evidence: "e", files: ["src/a.py"] },
        },
      },
    } as never,
    new Redactor([]),
  );
  return pullRequestText(jobId, result as JobResult, "main", (s) => s).title;
}

/** The commit message `finishFix` writes for a fix whose model summary is `summary` (job `jobId`). */
export async function commitMessageOf(jobId: string, summary: string, failingIds: string[]): Promise<string> {
  let message = "";
  await finishFix(
    {
      reason: "completed",
      state: "done",
      attempts: 1,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
      trace: { steps: [] },
      error: null,
      ctx: {
        attemptLog: [],
        current: null,
        failingIds,
        accepted: { summary },
        patch: "--- a/src/a.js\n+++ b/src/a.js\n@@ -1 +1 @@\n-x\n+y\n",
        verification: null,
        flaky: null,
        testCommand: "npm test",
      },
    } as never,
    {
      publish: async (req: { message: string; branch: string }) => {
        message = req.message;
        return { branch: req.branch, commit: "0".repeat(40) };
      },
    } as never,
    { id: jobId } as never,
    new Redactor([]),
    () => 1,
  );
  return message;
}
