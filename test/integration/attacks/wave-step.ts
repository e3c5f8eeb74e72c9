/**
 * A wave's step process (`tsx redteamN-step.ts <dir> <id>…`): each case runs in a directory of its own under `<dir>`,
 * and one JSON line per case says what happened, with the host CPU its step took. With no id, the case ids are
 * printed. A case's outcome never carries the token the wave put in the environment: a leak is written as `[token]`
 * and the case is not contained.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export type Outcome = { outcome: string; contained: boolean | null };
export const ok = (outcome: string, contained: boolean | null = null): Outcome => ({ outcome, contained });

export async function runStepCases(
  cases: Record<string, () => Promise<Outcome> | Outcome>,
  root: string,
  ids: readonly string[],
  enter: (dir: string) => void,
): Promise<void> {
  const token = process.env.GITHUB_TOKEN ?? "";
  if (ids.length === 0) process.stdout.write(`${JSON.stringify(Object.keys(cases))}\n`);
  for (const id of ids) {
    const run = cases[id];
    if (!run) throw new Error(`unknown case ${id}`);
    const dir = path.join(root, id);
    mkdirSync(dir, { recursive: true });
    enter(dir);
    const before = process.cpuUsage();
    const r = await Promise.resolve()
      .then(run)
      .catch((e: Error) => ok(`threw: ${e.message.slice(0, 200)}`));
    const used = process.cpuUsage(before);
    const leaked = token !== "" && r.outcome.includes(token);
    process.stdout.write(
      `${JSON.stringify({
        id,
        cpuMs: Math.round((used.user + used.system) / 1000),
        outcome: leaked ? r.outcome.replaceAll(token, "[token]") : r.outcome,
        contained: leaked ? false : r.contained,
      })}\n`,
    );
  }
}

/** `files` (path → text) written under `root`, parent folders made; `root` itself made even when `files` is empty. */
export function writeTree(root: string, files: Record<string, string>): string {
  mkdirSync(root, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

/** A queued repro job as the job database stores it: what a wave's job-store cases insert. */
export function jobRecord(id: string) {
  const now = Date.now();
  return {
    id,
    repo: "octo/app",
    kind: "repro",
    state: "queued",
    lineage: "l",
    trigger: {
      type: "repro",
      repo: "octo/app",
      installationId: 77,
      defaultBranch: "main",
      issueNumber: 1,
      via: "command",
      word: "/repro",
      actor: "ana",
      thenFix: false,
    },
    prBranch: null,
    costUsd: 0,
    createdAt: now,
    updatedAt: now,
    commentId: null,
    commentUrl: null,
    checkRunId: null,
    attempts: 0,
  };
}
