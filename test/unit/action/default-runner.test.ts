/**
 * The production runner (src/jobs/default-runner.ts) as the Action uses it: a fix job runs on `spec.headSha`
 * (checked out, or fetched from origin, or the job fails saying so), and the repository's sandbox image and
 * limits apply. Real git repositories on disk; the pipeline registry is the documented seam of `runJob`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { RetraceConfig } from "../../../src/config/schema.ts";
import { FixJobSpec } from "../../../src/core/job.ts";
import {
  createDefaultRunner,
  ensureCheckoutAt,
  repositoryUrlFrom,
} from "../../../src/jobs/default-runner.ts";
import type { JobPorts, Pipelines } from "../../../src/jobs/run-job.ts";
import { DockerSandbox } from "../../../src/sandbox/docker.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  }).trim();

function commit(dir: string, content: string): string {
  writeFileSync(join(dir, "calc.py"), content);
  git(dir, "add", "calc.py");
  git(dir, "commit", "-q", "-m", content.trim());
  return git(dir, "rev-parse", "HEAD");
}

let origin: string;
let workspace: string;
let shas: { one: string; two: string };
beforeEach(() => {
  const root = mkdtempSync(join(tmpdir(), "retrace-runner-"));
  origin = join(root, "origin");
  execFileSync("git", ["init", "-q", origin]);
  const one = commit(origin, "v1\n");
  workspace = join(root, "ws");
  execFileSync("git", ["clone", "-q", origin, workspace]);
  const two = commit(origin, "v2\n"); // on origin only: the workspace must fetch it
  shas = { one, two };
});

/** A runner whose fix pipeline records what it saw. */
function recordingRunner(env: Record<string, string> = {}) {
  const seen: Array<{ head: string; calc: string; ports: JobPorts }> = [];
  const pipelines: Pipelines = {
    fix: async (spec, ports) => {
      const dir = ports.repoDir as string;
      seen.push({
        head: git(dir, "rev-parse", "HEAD"),
        calc: readFileSync(join(dir, "calc.py"), "utf8"),
        ports,
      });
      return {
        result: {
          jobId: spec.id,
          kind: "fix",
          outcome: "failed",
          verdict: "NOT_FIXED",
          summary: "",
          patch: null,
          failures: [],
          costUsd: 0,
          tokens: 0,
          attempts: 0,
          durationMs: 0,
        },
        trace: { job: null, steps: [] } as never,
      };
    },
  };
  const runner = createDefaultRunner({ env, repoDir: workspace, pipelines });
  return { runner, seen };
}

const fixSpec = (headSha: string) =>
  FixJobSpec.parse({ kind: "fix", id: "fix-1", headSha, headBranch: "feature" });
const opts = (config?: RetraceConfig) => ({
  signal: new AbortController().signal,
  ...(config ? { config } : {}),
});

describe("a fix job runs on spec.headSha", () => {
  it("fetches the failed commit from origin when the workspace is elsewhere, and the pipeline sees its files", async () => {
    const { runner, seen } = recordingRunner();
    expect(git(workspace, "rev-parse", "HEAD")).toBe(shas.one);
    await runner(fixSpec(shas.two), opts());
    expect(seen).toMatchObject([{ head: shas.two, calc: "v2\n" }]);
  });

  it("checks out an older commit that is already present", async () => {
    git(workspace, "fetch", "-q", "origin");
    git(workspace, "checkout", "-q", "--detach", shas.two);
    const { runner, seen } = recordingRunner();
    await runner(fixSpec(shas.one), opts());
    expect(seen).toMatchObject([{ head: shas.one, calc: "v1\n" }]);
  });

  it("fails the job, saying why, when the commit cannot be had", async () => {
    const { runner, seen } = recordingRunner();
    const missing = "0123456789abcdef0123456789abcdef01234567";
    await expect(runner(fixSpec(missing), opts())).rejects.toThrow(
      `is at ${shas.one.slice(0, 12)}, not the failed commit 0123456789ab, and checking that commit out failed`,
    );
    expect(seen).toEqual([]);
  });

  it("refuses a head sha that is not a commit name (no option injection into git)", async () => {
    await expect(ensureCheckoutAt(workspace, "--upload-pack=touch /tmp/x")).rejects.toThrow(
      'the failed commit "--upload-pack=touch /tmp/x" is not a full commit sha',
    );
  });

  it("leaves a checkout made for the job (the App's) alone", async () => {
    const { runner, seen } = recordingRunner();
    const own = mkdtempSync(join(tmpdir(), "retrace-own-"));
    execFileSync("git", ["init", "-q", own]);
    const sha = commit(own, "own\n");
    await runner(fixSpec(shas.two), { ...opts(), repoDir: own });
    expect(seen).toMatchObject([{ head: sha, calc: "own\n" }]);
    expect(git(workspace, "rev-parse", "HEAD")).toBe(shas.one);
  });
});

describe("sandbox.image and sandbox.limits", () => {
  it("the config's image (one the operator allows) and limits win; the host's image stays the default", async () => {
    const { runner, seen } = recordingRunner({
      RETRACE_SANDBOX_IMAGE: "host-image:1",
      RETRACE_SANDBOX_IMAGES: "other:3, repo-image:2",
    });
    await runner(fixSpec(shas.one), opts(RetraceConfig.parse({})));
    await runner(
      fixSpec(shas.one),
      opts(RetraceConfig.parse({ sandbox: { image: "repo-image:2", limits: { memoryMb: 256, pids: 64 } } })),
    );
    await runner(fixSpec(shas.one), opts(RetraceConfig.parse({ sandbox: { limits: { cpus: 0.5 } } })));
    const boxes = seen.map((s) => s.ports.sandbox as DockerSandbox);
    for (const b of boxes) expect(b).toBeInstanceOf(DockerSandbox);
    expect(boxes.map((b) => b.image)).toEqual(["host-image:1", "repo-image:2", "host-image:1"]);
    expect(boxes[1]!.defaults).toMatchObject({ memoryMb: 256, pids: 64 });
    expect(boxes[2]!.defaults.cpus).toBe(0.5);
    expect(boxes[0]!.defaults.memoryMb).not.toBe(256);
  });
});

describe("the operator's rules over a repository's sandbox section", () => {
  it("refuses an image the operator did not allow, naming it and the variable that allows it", async () => {
    const { runner, seen } = recordingRunner({ RETRACE_SANDBOX_IMAGE: "host-image:1" });
    await expect(
      runner(fixSpec(shas.one), opts(RetraceConfig.parse({ sandbox: { image: "attacker/volume:latest" } }))),
    ).rejects.toThrow(
      /sandbox.image "attacker\/volume:latest" is not an image this host allows \(allowed: host-image:1\)/,
    );
    expect(seen).toEqual([]);
  });

  it("lowers limits above the host's maxima and says so; the operator's variable sets the maxima", async () => {
    const lines: string[] = [];
    const { runner, seen } = recordingRunner({ RETRACE_SANDBOX_MAX_LIMITS: "memoryMb=2048,pids=512" });
    const config = RetraceConfig.parse({
      sandbox: { limits: { memoryMb: 65_536, pids: 32_768, timeoutMs: 3_600_000, cpus: 0.5 } },
    });
    await runner(fixSpec(shas.one), { ...opts(config), onProgress: (l: string) => lines.push(l) });
    const box = seen[0]!.ports.sandbox as DockerSandbox;
    expect(box.defaults).toMatchObject({ memoryMb: 2_048, pids: 512, timeoutMs: 20 * 60_000, cpus: 0.5 });
    const said = lines.join("\n");
    expect(said).toContain(
      "sandbox.limits above this host's maxima (RETRACE_SANDBOX_MAX_LIMITS) were lowered:",
    );
    for (const part of ["memoryMb 65536 → 2048", "pids 32768 → 512", "timeoutMs 3600000 → 1200000"])
      expect(said).toContain(part);
    expect(said).not.toContain("cpus");
  });

  it("a malformed RETRACE_SANDBOX_MAX_LIMITS is a configuration error, not ignored", () => {
    expect(() => recordingRunner({ RETRACE_SANDBOX_MAX_LIMITS: "memory=lots" })).toThrow(
      /RETRACE_SANDBOX_MAX_LIMITS has an invalid item "memory=lots"/,
    );
  });
});

describe("where the Action fetches the failed commit from", () => {
  it("the job's repository on the runner's GitHub server, not the checkout's configured origin", () => {
    expect(
      repositoryUrlFrom({ GITHUB_SERVER_URL: "https://github.com", GITHUB_REPOSITORY: "octo/app" }),
    ).toBe("https://github.com/octo/app.git");
  });

  it("origin outside Actions, or when the variables are not a server and an owner/name", () => {
    expect(repositoryUrlFrom({})).toBe("origin");
    expect(repositoryUrlFrom({ GITHUB_SERVER_URL: "file:///srv", GITHUB_REPOSITORY: "o/r" })).toBe("origin");
    expect(repositoryUrlFrom({ GITHUB_SERVER_URL: "https://github.com", GITHUB_REPOSITORY: "../x" })).toBe(
      "origin",
    );
  });

  it("in the Action, a checkout whose origin is a host repository does not get that repository's commit", async () => {
    const host = mkdtempSync(join(tmpdir(), "retrace-hostrepo-"));
    execFileSync("git", ["init", "-q", host]);
    const foreign = commit(host, "host secret\n");
    git(workspace, "remote", "set-url", "origin", host);
    await expect(
      ensureCheckoutAt(
        workspace,
        foreign,
        undefined,
        repositoryUrlFrom({
          GITHUB_SERVER_URL: "https://rt10.invalid",
          GITHUB_REPOSITORY: "octo/app",
        }),
      ),
    ).rejects.toThrow(/checking that commit out failed/);
    expect(readFileSync(join(workspace, "calc.py"), "utf8")).toBe("v1\n");
  });
});

// What an origin may be and the address git is pinned to: test/unit/git/origin.test.ts.
describe("an origin on a loopback or private address is not fetched from", () => {
  it("the fetch from such an origin fails saying why, and git never connects", async () => {
    git(workspace, "remote", "set-url", "origin", "https://127.0.0.1:9/o/r.git");
    await expect(ensureCheckoutAt(workspace, shas.two)).rejects.toThrow(
      /checking that commit out failed: the checkout's origin "https:\/\/127\.0\.0\.1:9\/o\/r\.git" is on a loopback or private address/,
    );
  });

  it("an origin with a second URL is refused: git fetches from the first, `--get` reads the last", async () => {
    git(workspace, "remote", "set-url", "origin", "https://127.0.0.1:9/o/r.git");
    git(workspace, "config", "--add", "remote.origin.url", "https://93.184.215.14/o/r.git");
    await expect(ensureCheckoutAt(workspace, shas.two)).rejects.toThrow(
      /the checkout's origin has 2 URLs \("https:\/\/127\.0\.0\.1:9\/o\/r\.git", .*\); Retrace's git fetches only from an origin with one/,
    );
  });

  it("a name that resolves to a private address is refused before git runs, naming the address", async () => {
    git(workspace, "remote", "set-url", "origin", "https://git.example.test/o/r.git");
    await expect(
      ensureCheckoutAt(workspace, shas.two, undefined, "origin", [], async () => ["10.0.0.7"]),
    ).rejects.toThrow(/loopback or private address.*\(git\.example\.test resolves to 10\.0\.0\.7\)/);
    expect(git(workspace, "rev-parse", "HEAD")).toBe(shas.one);
  });
});

describe("a local origin is fetched from only when it is this checkout's", () => {
  it("an origin naming another repository on this host (path or file://) is refused; nothing of it arrives", async () => {
    const host = mkdtempSync(join(tmpdir(), "retrace-hostrepo-"));
    execFileSync("git", ["init", "-q", host]);
    const foreign = commit(host, "host secret\n");
    for (const url of [host, `file://${host}`]) {
      git(workspace, "remote", "set-url", "origin", url);
      await expect(ensureCheckoutAt(workspace, foreign)).rejects.toThrow(
        /is a repository on this host that does not hold the checkout's own commit/,
      );
      expect(() => git(workspace, "cat-file", "-e", foreign)).toThrow();
      expect(readFileSync(join(workspace, "calc.py"), "utf8")).toBe("v1\n");
    }
  });

  it("the origin the checkout was cloned from, as a file:// URL too, still gives the commit (control)", async () => {
    git(workspace, "remote", "set-url", "origin", `file://${origin}`);
    await ensureCheckoutAt(workspace, shas.two);
    expect(git(workspace, "rev-parse", "HEAD")).toBe(shas.two);
  });
});
