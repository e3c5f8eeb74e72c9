/**
 * A wave's step process (`tsx redteamN-step.ts <dir> <id>…`): each case runs in a directory of its own under `<dir>`,
 * and one JSON line per case says what happened, with the host CPU its step took. With no id, the case ids are
 * printed. A case's outcome never carries the token the wave put in the environment: a leak is written as `[token]`
 * and the case is not contained.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

/**
 * git in a case's repository `cwd` with no system or global configuration, `home` as HOME (the case's directory) and a
 * fixed author and committer: a wave's fixtures are built the same on every machine.
 */
export function caseGit(home: string, cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    maxBuffer: 1 << 30,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: home,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "a",
      GIT_AUTHOR_EMAIL: "a@example.com",
      GIT_COMMITTER_NAME: "a",
      GIT_COMMITTER_EMAIL: "a@example.com",
    },
  });
}

/** Everything in `at` committed (an empty commit when nothing changed); the new commit's sha. */
export function caseCommitAll(home: string, at: string, message: string): string {
  caseGit(home, at, "add", "-A");
  caseGit(home, at, "commit", "-q", "--allow-empty", "-m", message);
  return caseGit(home, at, "rev-parse", "HEAD").trim();
}

/** What the App did with a wave's webhook deliveries: jobs recorded, responses by status, text written to GitHub. */
export type AppRun = { jobs: number; statuses: string; written: string; recordBytes: number };

/**
 * The App on webhooks (waves 23, 24 and 26): a fake GitHub where Codertocat is an admin, a job database under
 * `dir` and a runner that runs nothing. `deliveries` posts to the App; `title`, when given, is the issue's title as
 * the App reads it back (the attacker's). `written` joins every comment body, title and check-run summary the App
 * posted or patched; `recordBytes` is the largest job record's JSON length. The harness is imported when called: the
 * other waves' steps do not load it.
 */
export async function appRun(
  dir: string,
  deliveries: (app: { url: string }) => Promise<Response[]>,
  title?: string,
): Promise<AppRun> {
  const { startFakeGitHub } = await import("../../e2e/support/fake-github.ts");
  const { example, startApp } = await import("../../e2e/support/app-harness.ts");
  const github = await startFakeGitHub();
  github.state.permissions.set("Codertocat/Hello-World:Codertocat", "admin");
  const issue = example("issue_comment", "created").issue;
  if (title !== undefined)
    github.state.issues.set(`Codertocat/Hello-World#${issue.number}`, { title, body: "steps: run it" });
  const runner = {
    run: async () => {
      throw new Error("no job runs in this case");
    },
  };
  const app = await startApp(github, runner as never, { dbPath: path.join(dir, "jobs.sqlite") });
  try {
    const rs = await deliveries(app);
    await app.service.idle();
    const counts: Record<number, number> = {};
    for (const r of rs) counts[r.status] = (counts[r.status] ?? 0) + 1;
    const written: string[] = [];
    for (const c of [...github.calls("POST", /./), ...github.calls("PATCH", /./)]) {
      const b = c.body as {
        body?: string;
        title?: string;
        output?: { summary?: string; title?: string };
      } | null;
      if (b)
        written.push(
          String(b.body ?? ""),
          String(b.title ?? ""),
          String(b.output?.summary ?? ""),
          String(b.output?.title ?? ""),
        );
    }
    const jobs = app.store.all().filter((j) => j.state !== "skipped");
    return {
      jobs: jobs.length,
      statuses: JSON.stringify(counts),
      written: written.join("\n"),
      recordBytes: Math.max(0, ...app.store.all().map((j) => JSON.stringify(j).length)),
    };
  } finally {
    await app.close();
    await github.close();
  }
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

/** CPU (ms) of this process and of the children it has waited for (git, npm): /proc/self/stat utime..cstime. */
export function cpuWithChildren(): { self: number; children: number } {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields after the name start at 3 (state): utime 14, stime 15, cutime 16, cstime 17 → indexes 11..14.
  const tick = 10; // ms per clock tick at CLK_TCK 100
  return {
    self: (Number(f[11]) + Number(f[12])) * tick,
    children: (Number(f[13]) + Number(f[14])) * tick,
  };
}

/** `run`'s value (or the error it threw) and the CPU it cost this process and the children it waited for. */
export async function measured<T>(
  run: () => Promise<T>,
): Promise<{ value: T | Error; selfMs: number; childMs: number }> {
  const a = cpuWithChildren();
  let value: T | Error;
  try {
    value = await run();
  } catch (e) {
    value = e as Error;
  }
  const b = cpuWithChildren();
  return { value, selfMs: b.self - a.self, childMs: b.children - a.children };
}
