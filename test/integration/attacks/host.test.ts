/**
 * The host-side attack suite: hostile repository content against the steps Retrace runs on the host, outside
 * the sandbox — reading the checkout's `.github/retrace.yml`, git on the checkout (the fix's commit diff, the
 * branch commit, moving the Action's checkout to the failed commit), packing the checkout into the sandbox, and
 * the repository's `sandbox` settings — on real git and the real Docker engine.
 *
 * Every hostile program writes MARKER, a file outside every directory Retrace uses (checkouts, out dirs,
 * caches); it must never appear. Each hostile git input also has a control: plain git, run the way Retrace ran
 * it before (the host's environment, no neutralising configuration), does run the program — so the input is
 * real and its containment is Retrace's doing. The suite counts its hostile inputs and prints the count.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseRepoConfig } from "../../../src/config/repo-config.ts";
import { loadRepoConfigFile } from "../../../src/config/load.ts";
import { RetraceConfig } from "../../../src/config/schema.ts";
import { Redactor } from "../../../src/core/redact.ts";
import { createBranchWithCommit } from "../../../src/git/branch-commit.ts";
import { ensureCheckoutAt } from "../../../src/jobs/default-runner.ts";
import { fixSettings } from "../../../src/jobs/settings.ts";
import { createLocalFixPorts } from "../../../src/jobs/local-fix.ts";
import {
  createDockerSandbox,
  DEFAULT_SANDBOX_IMAGE,
  type DockerSandbox,
} from "../../../src/sandbox/docker.ts";
import { MAX_LIMITS, repositorySandbox } from "../../../src/sandbox/limits.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";
import { type LocalRegistry, startLocalRegistry } from "../install/local-registry.ts";

const MARKER = path.join(os.tmpdir(), `retrace-host-attack-${process.pid}.marker`);
const CONTROL = path.join(os.tmpdir(), `retrace-host-control-${process.pid}.marker`);
const root = mkdtempSync(path.join(os.tmpdir(), "retrace-host-attacks-"));
/** A host secret outside every repository: what a hostile checkout tries to read. */
const secretDir = mkdtempSync(path.join(os.tmpdir(), "retrace-host-secret-"));
const SECRET = "root:$6$S3cr3tHashNeverPrinted$abcdefghij:19000:0:99999:7:::";
writeFileSync(path.join(secretDir, "shadow"), `${SECRET}\n`);
mkdirSync(path.join(secretDir, "gh"));
writeFileSync(path.join(secretDir, "gh", "retrace.yml"), `policy:\n  ${SECRET}: 1\n`);

/** Every hostile input of the suite, by name. */
const inputs = new Set<string>();
const hostile = (name: string) => {
  inputs.add(name);
  return name;
};

afterEach(() => {
  expect(existsSync(MARKER), `${MARKER} appeared: a hostile program ran on the host`).toBe(false);
});

afterAll(() => {
  // Clean up first: a failed assertion below must not leave the suite's directories behind.
  rmSync(root, { recursive: true, force: true });
  rmSync(secretDir, { recursive: true, force: true });
  rmSync(CONTROL, { force: true });
  expect(existsSync(MARKER)).toBe(false);
  console.log(`host attack suite: ${inputs.size} hostile inputs, all contained or refused`);
});

let seq = 0;
const fresh = (name: string) => {
  const dir = path.join(root, `${name}-${seq++}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

// ---------------------------------------------------------------------------------------------------------
// 1. The checkout's .github/retrace.yml
// ---------------------------------------------------------------------------------------------------------

describe("the repository's config file is read only as a regular file of the repository", () => {
  const repoWith = (make: (gh: string) => void) => {
    const repo = fresh("cfg");
    const gh = path.join(repo, ".github");
    mkdirSync(gh);
    make(gh);
    return repo;
  };
  const refusedWithoutSecret = async (repo: string, reason: RegExp) => {
    const error = await loadRepoConfigFile(repo).then(
      () => null,
      (e: unknown) => e as Error & { hint?: string },
    );
    expect(error, "the hostile config was accepted").not.toBeNull();
    expect(error!.message).toMatch(reason);
    expect(`${error!.message} ${error!.hint}`).not.toContain("S3cr3t");
  };

  it(hostile("config: .github/retrace.yml is an absolute symlink to a host secret"), async () => {
    const repo = repoWith((gh) => symlinkSync(path.join(secretDir, "shadow"), path.join(gh, "retrace.yml")));
    await refusedWithoutSecret(repo, /\.github\/retrace\.yml is a symbolic link/);
  });

  // Found by the fresh-eyes red team: a hard link is a second name of a host file, and passed as a regular file.
  it(hostile("config: .github/retrace.yml is a hard link to a host secret"), async () => {
    const repo = repoWith((gh) => linkSync(path.join(secretDir, "shadow"), path.join(gh, "retrace.yml")));
    await refusedWithoutSecret(repo, /\.github\/retrace\.yml is a hard link/);
  });

  it(hostile("workspace: a repository file that is a hard link to a host secret is never read"), async () => {
    const repo = fresh("hardlink");
    linkSync(path.join(secretDir, "shadow"), path.join(repo, "notes.txt"));
    const { createFsWorkspace } = await import("../../../src/git/fs-workspace.ts");
    const error = await (await createFsWorkspace(repo)).readFile("notes.txt").then(
      (text) => new Error(`read: ${text}`),
      (e: Error) => e,
    );
    expect(error.message).toMatch(/^refused to read a hard link \(\d names for one file\): notes\.txt$/);
  });

  it(hostile("config: .github/retrace.yml is a relative symlink climbing out of the checkout"), async () => {
    const repo = repoWith((gh) => {
      const rel = path.relative(gh, path.join(secretDir, "shadow"));
      symlinkSync(rel, path.join(gh, "retrace.yml"));
    });
    await refusedWithoutSecret(repo, /is a symbolic link/);
  });

  it(hostile("config: .github itself is a symlink to a host directory holding a retrace.yml"), async () => {
    const repo = fresh("cfg");
    symlinkSync(path.join(secretDir, "gh"), path.join(repo, ".github"));
    await refusedWithoutSecret(repo, /\.github \(in \.github\/retrace\.yml\) is a symbolic link/);
  });

  it(hostile("config: .github/retrace.yml is a FIFO (opening it would block)"), async () => {
    const repo = repoWith((gh) => execFileSync("mkfifo", [path.join(gh, "retrace.yml")]));
    const t0 = Date.now();
    await refusedWithoutSecret(repo, /is not a regular file/);
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it.skipIf(process.getuid?.() !== 0)(
    hostile("config: .github/retrace.yml is a character device (/dev/zero's numbers)"),
    async () => {
      const repo = repoWith((gh) => execFileSync("mknod", [path.join(gh, "retrace.yml"), "c", "1", "5"]));
      await refusedWithoutSecret(repo, /is not a regular file/);
    },
  );

  it(hostile("config: a 1 MiB .github/retrace.yml"), async () => {
    const repo = repoWith((gh) => writeFileSync(path.join(gh, "retrace.yml"), `# ${"x".repeat(1 << 20)}\n`));
    await refusedWithoutSecret(repo, /over the 65536-byte limit/);
  });

  it(hostile("config: a 1 MiB retrace.yml served by the GitHub API (App and Action)"), () => {
    expect(() => parseRepoConfig(`# ${"x".repeat(1 << 20)}\n`)).toThrow(/over the 65536-byte limit/);
  });

  it(hostile("config: a YAML alias bomb (billion laughs) in 400 bytes"), async () => {
    const levels = Array.from({ length: 9 }, (_, i) => {
      const name = String.fromCharCode(98 + i);
      const prev = `*${String.fromCharCode(97 + i)}`;
      return `${name}: &${name} [${Array(10).fill(prev).join(",")}]`;
    });
    const repo = repoWith((gh) =>
      writeFileSync(
        path.join(gh, "retrace.yml"),
        `a: &a [x,x,x,x,x,x,x,x,x,x]\n${levels.join("\n")}\npolicy: *j\n`,
      ),
    );
    const t0 = Date.now();
    await refusedWithoutSecret(repo, /could not be read as YAML: Excessive alias count/);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it(hostile("config: 30 000 nested flow sequences (a recursive parser's stack)"), async () => {
    const repo = repoWith((gh) =>
      writeFileSync(path.join(gh, "retrace.yml"), `policy: ${"[".repeat(30_000)}${"]".repeat(30_000)}\n`),
    );
    // Refused as what it is (red team wave 6), no longer as a parser's "Maximum call stack size exceeded".
    await refusedWithoutSecret(repo, /nests its collections too deeply to read/);
  });

  it(hostile("config: 6 000 unknown keys (the error must stay short)"), async () => {
    const text = Array.from({ length: 6_000 }, (_, i) => `k${i}: 1`).join("\n");
    const repo = repoWith((gh) => writeFileSync(path.join(gh, "retrace.yml"), text));
    const error = (await loadRepoConfigFile(repo).catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(/unknown field\(s\) `k0`.* and 5990 more/);
    expect(error.message.length).toBeLessThan(500);
    const api = (() => {
      try {
        parseRepoConfig(text);
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(api?.message).toMatch(/unknown field\(s\) `k0`.* and 5990 more/);
    expect(api!.message.length).toBeLessThan(500);
  });

  it("a regular config file still loads (control)", async () => {
    const repo = repoWith((gh) => writeFileSync(path.join(gh, "retrace.yml"), "fix:\n  verifyRuns: 3\n"));
    expect((await loadRepoConfigFile(repo)).fix.verifyRuns).toBe(3);
  });

  it(hostile("config: `retrace verify` on a checkout whose retrace.yml links to a host secret"), () => {
    const repo = repoWith((gh) => symlinkSync(path.join(secretDir, "shadow"), path.join(gh, "retrace.yml")));
    const patch = path.join(repo, "..", `patch-${seq++}.diff`);
    writeFileSync(patch, "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
    const bin = new URL("../../../bin/retrace.mjs", import.meta.url).pathname;
    const r = spawnSync(process.execPath, [bin, "verify", "--repo", repo, "--patch", patch], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/retrace: \.github\/retrace\.yml is a symbolic link/);
    expect(r.stdout + r.stderr).not.toContain("S3cr3t");
  });
});

// ---------------------------------------------------------------------------------------------------------
// 2. Git on a checkout whose .git/config (or hooks) names programs
// ---------------------------------------------------------------------------------------------------------

const ident = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};
/** Plain git with the host's environment: how Retrace (simple-git) ran it before. */
const plainGit = (cwd: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...ident, ...env } });
const setup = (cwd: string, ...args: string[]) => {
  const r = plainGit(cwd, args);
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
};
/** A program that leaves a trace in `target`, then behaves (cat) so git goes on. */
const touch = (target: string) => `sh -c 'echo ran >> ${target}; cat' --`;

interface Checkout {
  dir: string;
  older: string;
  head: string;
  /** A commit only the origin has (fetching it runs the transport). */
  remoteOnly: string;
}

/** origin (two commits) → clone (checkout at the first) + one more commit on origin; then `hostile` applies. */
function checkout(hostileConfig: (dir: string, target: string) => void, target: string): Checkout {
  const base = fresh("git");
  const origin = path.join(base, "origin");
  mkdirSync(origin);
  setup(origin, "init", "-q");
  writeFileSync(path.join(origin, "f.txt"), "one\n");
  // f.txt and h.txt: driver "evil"; g.txt: driver "a=b" (a later line wins).
  writeFileSync(path.join(origin, ".gitattributes"), "*.txt filter=evil diff=evil\ng.txt filter=a=b\n");
  setup(origin, "add", ".");
  setup(origin, "commit", "-qm", "one");
  const older = setup(origin, "rev-parse", "HEAD");
  writeFileSync(path.join(origin, "f.txt"), "two\n");
  setup(origin, "commit", "-qam", "two");
  const head = setup(origin, "rev-parse", "HEAD");
  const dir = path.join(base, "checkout");
  setup(base, "clone", "-q", origin, dir);
  writeFileSync(path.join(origin, "f.txt"), "three\n");
  setup(origin, "commit", "-qam", "three");
  const remoteOnly = setup(origin, "rev-parse", "HEAD");
  hostileConfig(dir, target);
  return { dir, older, head, remoteOnly };
}

const gitConfig = (dir: string, key: string, value: string) => setup(dir, "config", key, value);
const hook = (dir: string, name: string, target: string) => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, name), `#!/bin/sh\necho ran >> ${target}\n`, { mode: 0o755 });
};

interface GitAttack {
  name: string;
  apply: (dir: string, target: string) => void;
  /** Plain git commands that run the hostile program (the control). */
  control: (c: Checkout) => string[][];
  /** Refused (git never runs) rather than contained (git runs with the program neutralised). */
  refused?: RegExp;
  /** Only ensureCheckoutAt's fetch reaches this input. */
  fetchOnly?: boolean;
}

const outsideWorktree = path.join(os.tmpdir(), `retrace-host-worktree-${process.pid}`);

const gitAttacks: GitAttack[] = [
  {
    name: "core.fsmonitor names a program",
    apply: (d, t) => gitConfig(d, "core.fsmonitor", `echo ran >> ${t}; false #`),
    control: () => [["ls-files", "--stage"]],
  },
  {
    name: "core.hooksPath points at hostile hooks (reference-transaction, post-checkout)",
    apply: (d, t) => {
      const hooks = path.join(d, "..", "hooks");
      hook(hooks, "reference-transaction", t);
      hook(hooks, "post-checkout", t);
      gitConfig(d, "core.hooksPath", hooks);
    },
    control: (c) => [["update-ref", "refs/heads/control", c.head]],
  },
  {
    name: "hooks in .git/hooks (reference-transaction, post-checkout)",
    apply: (d, t) => {
      hook(path.join(d, ".git", "hooks"), "reference-transaction", t);
      hook(path.join(d, ".git", "hooks"), "post-checkout", t);
    },
    control: (c) => [["update-ref", "refs/heads/control", c.head]],
  },
  {
    name: "filter.<driver>.clean with a .gitattributes naming it",
    apply: (d, t) => gitConfig(d, "filter.evil.clean", touch(t)),
    control: () => [["hash-object", "--path=f.txt", "f.txt"]],
  },
  {
    name: "filter.<driver>.process (long-running filter)",
    apply: (d, t) => gitConfig(d, "filter.evil.process", `sh -c 'echo ran >> ${t}'`),
    control: () => [["hash-object", "--path=f.txt", "f.txt"]],
  },
  {
    name: "filter.<driver>.smudge, run on checkout",
    apply: (d, t) => gitConfig(d, "filter.evil.smudge", touch(t)),
    control: (c) => [["checkout", "-q", "--detach", c.older]],
  },
  {
    name: "filter driver whose name holds '=' (filter.a=b.clean: `-c` would split it wrongly)",
    apply: (d, t) => gitConfig(d, "filter.a=b.clean", touch(t)),
    control: () => [["hash-object", "--path=g.txt", "f.txt"]],
  },
  {
    name: "a hostile filter in a file pulled in by include.path",
    apply: (d, t) => {
      const inc = path.join(d, "..", "included.gitconfig");
      // Quoted: `;` starts a comment in a config file.
      writeFileSync(inc, `[filter "evil"]\n\tclean = "${touch(t)}"\n`);
      gitConfig(d, "include.path", inc);
    },
    control: () => [["hash-object", "--path=f.txt", "f.txt"]],
  },
  {
    name: "diff.<driver>.command (external diff driver)",
    apply: (d, t) => gitConfig(d, "diff.evil.command", `sh -c 'echo ran >> ${t}' --`),
    control: (c) => [["diff", c.older, c.head]],
  },
  {
    name: "diff.external",
    apply: (d, t) => gitConfig(d, "diff.external", `sh -c 'echo ran >> ${t}' --`),
    control: (c) => [["diff", c.older, c.head]],
  },
  {
    name: "diff.<driver>.textconv",
    apply: (d, t) => gitConfig(d, "diff.evil.textconv", `sh -c 'echo ran >> ${t}; cat "$1"' --`),
    control: (c) => [["diff", c.older, c.head]],
  },
  {
    name: "core.worktree pointing outside the checkout (checkout writes there)",
    apply: (d, t) => {
      mkdirSync(outsideWorktree, { recursive: true });
      // The checkout writes f.txt into core.worktree: for the control, into a directory next to the marker.
      const where = t === MARKER ? outsideWorktree : `${CONTROL}.worktree`;
      mkdirSync(where, { recursive: true });
      gitConfig(d, "core.worktree", where);
    },
    control: (c) => [["checkout", "-q", "--detach", c.older]],
  },
  {
    name: "remote.origin.uploadpack names a program (fetch from a local origin)",
    apply: (d, t) => gitConfig(d, "remote.origin.uploadpack", `echo ran >> ${t}; git-upload-pack`),
    control: (c) => [["fetch", "-q", "origin", c.remoteOnly]],
    refused: /sets remote\.origin\.uploadpack, which can make git run a program/,
  },
  {
    name: "protocol.ext.allow=always with an ext:: origin that runs a command",
    apply: (d, t) => {
      gitConfig(d, "protocol.ext.allow", "always");
      gitConfig(d, "remote.origin.url", `ext::sh -c echo% ran% >>${t}`);
    },
    control: (c) => [["fetch", "-q", "origin", c.remoteOnly]],
    fetchOnly: true,
  },
  {
    name: "core.sshCommand names a program, with an ssh:// origin",
    apply: (d, t) => {
      gitConfig(d, "core.sshCommand", `echo ran >> ${t}; false`);
      gitConfig(d, "remote.origin.url", "ssh://127.0.0.1:9/nothing.git");
    },
    control: (c) => [["fetch", "-q", "origin", c.remoteOnly]],
    fetchOnly: true,
  },
  {
    name: "url.<base>.insteadOf rewrites the origin into an ext:: command",
    apply: (d, t) => {
      gitConfig(d, "protocol.allow", "always");
      gitConfig(d, `url.ext::sh -c echo% ran% >>${t}% #.insteadOf`, "/");
    },
    control: (c) => [["fetch", "-q", "origin", c.remoteOnly]],
    refused: /sets url\..*insteadof, which can make git run a program or fetch from elsewhere/i,
  },
  {
    name: "core.alternateRefsCommand",
    apply: (d, t) => gitConfig(d, "core.alternateRefsCommand", `echo ran >> ${t}`),
    control: () => [],
    refused: /sets core\.alternaterefscommand/i,
  },
];

describe("git on the host runs no program the checkout names", () => {
  beforeAll(() => rmSync(CONTROL, { force: true }));
  afterAll(() => rmSync(outsideWorktree, { recursive: true, force: true }));

  for (const attack of gitAttacks) {
    it(hostile(`git: ${attack.name}`), async () => {
      // Control: plain git runs the hostile program (so the input is real).
      const ctl = checkout(attack.apply, CONTROL);
      const commands = attack.control(ctl);
      if (commands.length > 0) {
        rmSync(CONTROL, { force: true });
        for (const args of commands) plainGit(ctl.dir, args);
        const ranControl =
          existsSync(CONTROL) ||
          (existsSync(`${CONTROL}.worktree`) && readdirSync(`${CONTROL}.worktree`).length > 0);
        expect(ranControl, `control: plain git did not run the hostile ${attack.name}`).toBe(true);
        rmSync(CONTROL, { force: true });
        rmSync(`${CONTROL}.worktree`, { recursive: true, force: true });
      }

      // Retrace: the fix's commit diff, the branch commit (patch + files), the checkout move and the fetch.
      const c = checkout(attack.apply, MARKER);
      const outcomes: { step: string; error: Error | null }[] = [];
      const step = async (name: string, run: () => Promise<unknown>) => {
        outcomes.push({
          step: name,
          error: await run().then(
            () => null,
            (e: Error) => e,
          ),
        });
      };
      if (!attack.fetchOnly) {
        const ports = await createLocalFixPorts({
          repoDir: c.dir,
          jobId: "host-attack",
          settings: fixSettings(RetraceConfig.parse({}), { testCommand: "true" }),
          model: null,
          redactor: new Redactor(),
          sandbox: { run: () => Promise.reject(new Error("no sandbox run in this test")) },
          publishLocalBranch: false,
        });
        // The commit diff is optional context: a refused checkout gives none; a contained one gives the real diff.
        const d = await ports.commitDiff!();
        if (attack.refused) expect(d).toBeNull();
        else expect(d?.diff).toContain("+two");
        await step("branch commit", () =>
          createBranchWithCommit(c.dir, {
            branch: `retrace/attack-${seq++}`,
            message: "fix",
            patch: "diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-two\n+fixed\n",
            files: { "g.txt": "new\n", "h.txt": "new\n" },
            author: { name: "Retrace", email: "retrace@users.noreply.github.com" },
          }),
        );
        await step("checkout move", () => ensureCheckoutAt(c.dir, c.older));
      }
      await step("fetch", () => ensureCheckoutAt(c.dir, c.remoteOnly));

      expect(existsSync(MARKER), `${attack.name}: the hostile program ran`).toBe(false);
      if (existsSync(outsideWorktree)) expect(readdirSync(outsideWorktree)).toEqual([]);
      if (attack.refused) {
        for (const o of outcomes) {
          expect(o.error, `${o.step} was not refused`).not.toBeNull();
          expect(o.error!.message).toMatch(attack.refused);
        }
      } else if (!attack.fetchOnly) {
        // Contained: every step works as on any checkout, ending at the fetched commit.
        for (const o of outcomes) expect(o.error, `${o.step}: ${o.error?.message}`).toBeNull();
        expect(setup(c.dir, "rev-parse", "HEAD")).toBe(c.remoteOnly);
        expect(readFileSync(path.join(c.dir, "f.txt"), "utf8")).toBe("three\n");
      } else {
        // A hostile transport: the fetch fails, saying what failed, and nothing ran.
        const fetch = outcomes.find((o) => o.step === "fetch")!;
        expect(fetch.error?.message ?? "").toMatch(/checking that commit out failed/);
      }
      // Two checkouts and some twenty git processes: 3 s on a quiet machine, past 30 s at load 28 on two cores.
    }, 120_000);
  }

  it(hostile("git: include.path names a FIFO (listing the config would block forever)"), async () => {
    const c = checkout((d) => {
      const fifo = path.join(d, "..", "include.fifo");
      execFileSync("mkfifo", [fifo]);
      gitConfig(d, "include.path", fifo);
    }, MARKER);
    const t0 = Date.now();
    await expect(
      createBranchWithCommit(c.dir, {
        branch: "retrace/fifo",
        message: "fix",
        files: { "h.txt": "new\n" },
        author: { name: "Retrace", email: "retrace@users.noreply.github.com" },
      }),
    ).rejects.toThrow(/cannot read the checkout's git config, so Retrace does not run git on it/);
    expect(Date.now() - t0).toBeLessThan(30_000);
  }, 60_000);

  it(hostile("git: `retrace fix` on a checkout whose config Retrace refuses (CLI end to end)"), () => {
    const c = checkout(
      (d, t) => gitConfig(d, "remote.origin.uploadpack", `echo ran >> ${t}; git-upload-pack`),
      MARKER,
    );
    const bin = new URL("../../../bin/retrace.mjs", import.meta.url).pathname;
    const r = spawnSync(
      process.execPath,
      [bin, "fix", "--repo", c.dir, "--dry-run", "--out", path.join(c.dir, "..", "out")],
      {
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/retrace: the repository's git config sets remote\.origin\.uploadpack/);
  }, 90_000);

  it("a checkout with no hostile config: every step works and the branch holds the change (control)", async () => {
    const c = checkout(() => undefined, MARKER);
    const r = await createBranchWithCommit(c.dir, {
      branch: "retrace/ok",
      message: "fix",
      patch: "diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-two\n+fixed\n",
      author: { name: "Retrace", email: "retrace@users.noreply.github.com" },
    });
    expect(setup(c.dir, "show", `${r.commit}:f.txt`)).toBe("fixed");
    await ensureCheckoutAt(c.dir, c.remoteOnly);
    expect(setup(c.dir, "rev-parse", "HEAD")).toBe(c.remoteOnly);
  });
});

// ---------------------------------------------------------------------------------------------------------
// 3. Packing the checkout into the sandbox, and the repository's sandbox settings (real engine)
// ---------------------------------------------------------------------------------------------------------

/** Host `tar` processes that are children of this test process. */
function tarChildren(): number[] {
  const out: number[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const m = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
      if (m && m[1] === "tar" && Number(m[2]) === process.pid) out.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

const VOLUME_IMAGE = "retrace-test-volume:host";
const PATH_ENV = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/tmp" };

describeDocker("host-side sandbox steps (real Docker)", () => {
  let sandbox: DockerSandbox;
  let big: string;
  beforeAll(() => {
    sandbox = createDockerSandbox({ image: sandboxImage });
    big = fresh("big");
    // 1 GiB of holes: no disk used, but the host's tar streams 1 GiB — far more than the workspace holds, and
    // for longer than the run's time limit (before the fix, the host's tar stayed blocked on the pipe).
    execFileSync("truncate", ["-s", "1G", path.join(big, "sparse.bin")]);
    execFileSync("docker", ["build", "-q", "-t", VOLUME_IMAGE, "-"], {
      input: `FROM ${sandboxImage}\nVOLUME /data\n`,
      stdio: ["pipe", "ignore", "pipe"],
      timeout: 120_000,
    });
  });

  it(hostile(
    "pack: a checkout larger than the workspace — the copy fails and no host tar is left",
  ), async () => {
    const t0 = Date.now();
    await expect(
      sandbox.run({
        jobId: `host-attack-big-${process.pid}`,
        command: ["true"],
        input: { dir: big },
        limits: { workspaceMb: 8, tmpMb: 8, memoryMb: 256, timeoutMs: 5_000 },
      }),
    ).rejects.toThrow(/could not copy the input tree into the sandbox/);
    // Bounded by the run's time limit (the copy-in is part of the run), never by the host's tar; the margin
    // is for a loaded machine (about 6 s when idle).
    expect(Date.now() - t0).toBeLessThan(45_000);
    expect(await until(() => tarChildren().length === 0, 3_000), `tar left: ${tarChildren()}`).toBe(true);
  }, 120_000);

  it(hostile("pack: the job is cancelled while the checkout is copied in"), async () => {
    const controller = new AbortController();
    const run = sandbox.run({
      jobId: `host-attack-cancel-${process.pid}`,
      command: ["true"],
      input: { dir: big },
      limits: { workspaceMb: 256, memoryMb: 512, timeoutMs: 60_000 },
      signal: controller.signal,
    });
    // Abort once the host's tar is running.
    expect(await until(() => tarChildren().length > 0, 20_000)).toBe(true);
    controller.abort();
    await expect(run).rejects.toThrow(/cancelled/);
    expect(await until(() => tarChildren().length === 0, 3_000), `tar left: ${tarChildren()}`).toBe(true);
  }, 120_000);

  it(hostile("pack: a checkout holding a symlink to a host secret and a FIFO"), async () => {
    const repo = fresh("links");
    symlinkSync(path.join(secretDir, "shadow"), path.join(repo, "shadow"));
    execFileSync("mkfifo", [path.join(repo, "pipe")]);
    writeFileSync(path.join(repo, "ok.txt"), "ok\n");
    const r = await sandbox.run({
      jobId: `host-attack-links-${process.pid}`,
      command: ["sh", "-c", "cat ok.txt; cat shadow; ls -l pipe | cut -c1"],
      env: PATH_ENV,
      input: { dir: repo },
      limits: { timeoutMs: 20_000 },
    });
    expect(r.stdout).toContain("ok\n");
    expect(r.stdout + r.stderr).not.toContain("S3cr3t");
    expect(r.stderr).toMatch(/No such file/);
  });

  // The red team's third hard-link path: the host tar that packs a checkout read a hard-linked host file.
  it(hostile("pack: a checkout holding a hard link to a host secret"), async () => {
    const repo = fresh("hardlink-pack");
    mkdirSync(path.join(repo, "docs"));
    linkSync(path.join(secretDir, "shadow"), path.join(repo, "docs", "notes.txt"));
    writeFileSync(path.join(repo, "ok.txt"), "ok\n");
    const error = await sandbox
      .run({
        jobId: `host-attack-hardlink-${process.pid}`,
        command: ["sh", "-c", "cat ok.txt docs/notes.txt"],
        env: PATH_ENV,
        input: { dir: repo },
        limits: { timeoutMs: 20_000 },
      })
      .then(
        (r) => new Error(`ran: ${r.stdout}`),
        (e: Error) => e,
      );
    expect(error.message).toMatch(
      /^docs\/notes\.txt in .* is a hard link .*; it is not copied into the sandbox$/,
    );
    expect(error.message).not.toContain("S3cr3t");
  });

  // Hard links inside a checkout's own node_modules: pnpm hard-links every installed file from its
  // content-addressed store, so a link there is kept only when it is such a store entry (by content hash and
  // inode) or when every name of the file is inside the checkout. The installs below are real pnpm installs
  // (the pnpm dev dependency) from a local registry on loopback, into a store on the same filesystem.
  describe("hard links in a checkout's own node_modules", () => {
    let registry: LocalRegistry;
    const pnpm = path.join(path.dirname(createRequire(import.meta.url).resolve("pnpm")), "bin", "pnpm.cjs");

    beforeAll(async () => {
      registry = await startLocalRegistry([
        {
          name: "leaf",
          version: "1.0.0",
          files: { "index.js": "module.exports = 'leaf from the store';\n" },
        },
      ]);
    }, 60_000);
    afterAll(async () => {
      await registry?.close();
    });

    /** A checkout with `leaf` installed by pnpm (hard links from `store`); returns the checkout and the store. */
    const pnpmCheckout = async (name: string) => {
      const repo = fresh(name);
      const store = fresh(`${name}-store`);
      writeFileSync(
        path.join(repo, "package.json"),
        JSON.stringify({ name: "app", version: "1.0.0", dependencies: { leaf: "1.0.0" } }),
      );
      // Asynchronously: the registry answers from this process.
      const r = await new Promise<{ status: number | null; out: string }>((resolve) => {
        execFile(
          process.execPath,
          [
            pnpm,
            "install",
            `--registry=${registry.url}`,
            `--store-dir=${store}`,
            "--config.package-import-method=hardlink",
            "--ignore-scripts",
            "--reporter=silent",
          ],
          {
            cwd: repo,
            timeout: 60_000,
            env: {
              PATH: process.env.PATH ?? "",
              HOME: fresh(`${name}-home`),
              npm_config_update_notifier: "false",
            },
          },
          (error, stdout, stderr) =>
            resolve({
              status: error ? ((error as { code?: number }).code ?? -1) : 0,
              out: `${stderr}${stdout}`,
            }),
        );
      });
      expect(r.status, `pnpm install failed: ${r.out}`).toBe(0);
      const installed = path.join(repo, "node_modules", ".pnpm", "leaf@1.0.0", "node_modules", "leaf");
      expect(statSync(path.join(installed, "index.js")).nlink).toBeGreaterThan(1);
      return { repo, store, installed };
    };
    const runIn = (repo: string, command: string) =>
      sandbox
        .run({
          jobId: `host-attack-pnpm-${process.pid}-${seq++}`,
          command: ["sh", "-c", command],
          env: PATH_ENV,
          input: { dir: repo },
          limits: { timeoutMs: 30_000 },
        })
        .then(
          (r) => ({ ran: true as const, out: r.stdout + r.stderr, error: null }),
          (e: Error) => ({ ran: false as const, out: "", error: e }),
        );

    it("counter-example: a real pnpm install (store hard links) is packed and runs", async () => {
      const { repo } = await pnpmCheckout("pnpm");
      const { findHardLink } = await import("../../../src/sandbox/tree.ts");
      expect(await findHardLink(repo)).toBeNull();
      const r = await runIn(repo, "node -e \"console.log(require('leaf'))\"");
      expect(r.error).toBeNull();
      expect(r.out).toContain("leaf from the store");
    }, 90_000);

    it("counter-example: a hard link whose every name is inside node_modules is packed", async () => {
      const { repo, installed } = await pnpmCheckout("pnpm-inner");
      writeFileSync(path.join(repo, "node_modules", "own.js"), "own\n");
      linkSync(path.join(repo, "node_modules", "own.js"), path.join(installed, "own-copy.js"));
      const { findHardLink } = await import("../../../src/sandbox/tree.ts");
      expect(await findHardLink(repo)).toBeNull();
    }, 90_000);

    it(hostile("pack: a hard link to a host secret inside a real pnpm node_modules"), async () => {
      const { repo, installed } = await pnpmCheckout("pnpm-secret");
      linkSync(path.join(secretDir, "shadow"), path.join(installed, "notes.txt"));
      const r = await runIn(repo, "cat node_modules/leaf/notes.txt");
      expect(r.ran).toBe(false);
      expect(r.error?.message).toMatch(
        /^node_modules\/\.pnpm\/leaf@1\.0\.0\/node_modules\/leaf\/notes\.txt in .* is a hard link .*; it is not copied into the sandbox$/,
      );
      expect(r.error?.message).not.toContain("S3cr3t");
    }, 90_000);

    it(hostile(
      "pack: node_modules/.modules.yaml naming the secret's directory as the pnpm store",
    ), async () => {
      const { repo, installed } = await pnpmCheckout("pnpm-fake-store");
      linkSync(path.join(secretDir, "shadow"), path.join(installed, "notes.txt"));
      // A second .modules.yaml (the install's own stays, so its store links still pass) naming the secret's
      // directory, then its parent, as a store.
      const extra = path.join(repo, "node_modules", ".pnpm", "node_modules");
      mkdirSync(extra, { recursive: true });
      const { findHardLink } = await import("../../../src/sandbox/tree.ts");
      for (const dir of [secretDir, path.dirname(secretDir)]) {
        writeFileSync(path.join(extra, ".modules.yaml"), `storeDir: ${dir}\n`);
        expect(await findHardLink(repo)).toBe("node_modules/.pnpm/leaf@1.0.0/node_modules/leaf/notes.txt");
      }
      // With the install's own .modules.yaml rewritten, its store is unknown: its links fail closed too.
      writeFileSync(path.join(repo, "node_modules", ".modules.yaml"), `storeDir: ${secretDir}\n`);
      expect(await findHardLink(repo)).toMatch(/^node_modules\/\.pnpm\/leaf@1\.0\.0\/node_modules\/leaf\//);
      const r = await runIn(repo, "cat node_modules/leaf/notes.txt");
      expect(r.ran).toBe(false);
      expect(r.out).not.toContain("S3cr3t");
    }, 90_000);

    it(
      hostile("pack: a node_modules file hard-linked from a store that is not content-addressed"),
      async () => {
        // The shape the previous counter-example accepted: any hard link inside node_modules.
        const repo = fresh("not-cas");
        const store = fresh("not-cas-store");
        mkdirSync(path.join(repo, "node_modules", "ms"), { recursive: true });
        writeFileSync(path.join(store, "index.js"), "module.exports = 1;\n");
        linkSync(path.join(store, "index.js"), path.join(repo, "node_modules", "ms", "index.js"));
        const { findHardLink } = await import("../../../src/sandbox/tree.ts");
        expect(await findHardLink(repo)).toBe("node_modules/ms/index.js");
        // The same link outside node_modules is found as before.
        const plain = fresh("plain");
        linkSync(path.join(store, "index.js"), path.join(plain, "vendored.js"));
        expect(await findHardLink(plain)).toBe("vendored.js");
      },
    );
  });

  it(hostile("limits: a repository asking for 64 GiB, 32768 pids and 1 h"), async () => {
    const config = RetraceConfig.parse({
      sandbox: { limits: { memoryMb: 65_536, pids: 32_768, timeoutMs: 3_600_000, workspaceMb: 65_536 } },
    });
    const box = repositorySandbox(config.sandbox, {}, DEFAULT_SANDBOX_IMAGE);
    // The host's memory maximum is derived from this machine (¾ of its memory, at least 4 GiB): below 64 GiB here.
    const maxMb = MAX_LIMITS.memoryMb;
    expect(maxMb).toBeLessThan(65_536);
    expect(box.notes.join(" ")).toContain(`memoryMb 65536 → ${maxMb}`);
    expect(box.notes.join(" ")).toMatch(/were lowered: .*pids 32768 → 1024/);
    const sb = createDockerSandbox({ image: sandboxImage, defaults: box.limits, maxLimits: MAX_LIMITS });
    expect(sb.defaults).toMatchObject({ memoryMb: maxMb, pids: 1_024, timeoutMs: 1_200_000 });
    // What the engine enforces, read from inside (cgroup v1 and v2 paths).
    const r = await sb.run({
      jobId: `host-attack-limits-${process.pid}`,
      command: [
        "sh",
        "-c",
        "cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/memory.max 2>/dev/null; cat /sys/fs/cgroup/pids/pids.max /sys/fs/cgroup/pids.max 2>/dev/null",
      ],
      env: PATH_ENV,
      limits: { timeoutMs: 20_000 },
    });
    expect(r.stdout.split(/\s+/).filter(Boolean)).toEqual([String(maxMb * 1024 * 1024), "1024"]);
  });

  it(hostile("limits: a run request over the host's maxima (not through the config)"), async () => {
    const sb = createDockerSandbox({
      image: sandboxImage,
      maxLimits: { ...MAX_LIMITS, memoryMb: 512, pids: 128 },
    });
    const r = await sb.run({
      jobId: `host-attack-request-${process.pid}`,
      command: ["sh", "-c", "cat /sys/fs/cgroup/pids/pids.max /sys/fs/cgroup/pids.max 2>/dev/null"],
      env: PATH_ENV,
      limits: { memoryMb: 65_536, pids: 32_768, timeoutMs: 20_000 },
    });
    expect(r.stdout.trim()).toBe("128");
  });

  it(hostile("image: a repository naming an image the operator did not allow"), () => {
    const config = RetraceConfig.parse({ sandbox: { image: VOLUME_IMAGE } });
    expect(() => repositorySandbox(config.sandbox, {}, DEFAULT_SANDBOX_IMAGE)).toThrow(
      /sandbox.image "retrace-test-volume:host" is not an image this host allows/,
    );
  });

  it(hostile("image: an allowed image declaring a VOLUME, written past the disk cap"), async () => {
    const config = RetraceConfig.parse({ sandbox: { image: VOLUME_IMAGE } });
    const box = repositorySandbox(
      config.sandbox,
      { RETRACE_SANDBOX_IMAGES: VOLUME_IMAGE },
      DEFAULT_SANDBOX_IMAGE,
    );
    const before = execFileSync("docker", ["volume", "ls", "-q"], { encoding: "utf8" });
    const sb = createDockerSandbox({ image: box.image! });
    const r = await sb.run({
      jobId: `host-attack-volume-${process.pid}`,
      command: ["sh", "-c", "dd if=/dev/zero of=/data/fill bs=1M count=200 2>&1; df -m /data | tail -1"],
      env: PATH_ENV,
      limits: { tmpMb: 16, memoryMb: 256, timeoutMs: 30_000 },
    });
    expect(r.stdout).toMatch(/No space left|File too large/);
    expect(r.stdout).toMatch(/^tmpfs\s+16\s/m);
    expect(execFileSync("docker", ["volume", "ls", "-q"], { encoding: "utf8" })).toBe(before);
  });
});
