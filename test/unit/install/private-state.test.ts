// Red team 31: under umask 000 the App's job database was created 0666 in a 0777 directory and the install cache
// 0777 — any local user could rewrite a queued job or plant a tree every later sandbox receives. Retrace's state is
// now made owner-only whatever the umask, and a state directory every user may write into is refused.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteJobStore } from "../../../src/app/job-store.ts";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { privateDir, privateDirSync, writableByAll } from "../../../src/install/private-state.ts";
import { InstallCache } from "../../../src/install/cache.ts";

const mode = (p: string) => statSync(p).mode & 0o7777;

let tmp: string;
let umask: number;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "rt31-private-"));
  umask = process.umask();
});
afterEach(() => {
  process.umask(umask);
  rmSync(tmp, { recursive: true, force: true });
});

function record(id: string) {
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

/** Every path under `dir` with the other-write bit. */
function writableByOthers(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name);
    if (!e.isSymbolicLink() && mode(p) & 0o002) out.push(`${path.relative(dir, p)} ${mode(p).toString(8)}`);
  }
  return out;
}

describe("Retrace's state on the host is owner-only whatever the umask", () => {
  it("makes the job database's directory 0700 and its files 0600 under umask 000", async () => {
    process.umask(0);
    const db = path.join(tmp, "state", "db", "jobs.sqlite");
    const store = await openSqliteJobStore(db);
    store.insert(record("j1") as never);
    store.close();
    expect(writableByOthers(tmp)).toEqual([]);
    expect(mode(path.join(tmp, "state"))).toBe(0o700);
    expect(mode(path.dirname(db))).toBe(0o700);
    expect(mode(db)).toBe(0o600);
    expect(mode(`${db}.journal`)).toBe(0o600);
  });

  it("makes the install cache's root and kind directories 0700 under umask 000", async () => {
    process.umask(0);
    const cache = new InstallCache({ root: path.join(tmp, "cache") });
    const t = await cache.tempDir("repo-deps", "k".repeat(32));
    mkdirSync(t);
    writeFileSync(path.join(t, "f"), "x");
    await cache.commit("repo-deps", "k".repeat(32), t, {});
    expect(mode(path.join(tmp, "cache"))).toBe(0o700);
    expect(mode(path.join(tmp, "cache", "repo-deps"))).toBe(0o700);
    expect(await cache.lookup("repo-deps", "k".repeat(32))).not.toBeNull();
  });

  it("refuses an install cache or job database directory every user may write into", async () => {
    const root = path.join(tmp, "shared");
    mkdirSync(root);
    chmodSync(root, 0o1777);
    const cache = new InstallCache({ root });
    await expect(cache.tempDir("repo-deps", "k".repeat(32))).rejects.toThrow(InfrastructureError);
    await expect(cache.tempDir("repo-deps", "k".repeat(32))).rejects.toThrow(
      /writable by every user \(mode 1777\)/,
    );
    await expect(openSqliteJobStore(path.join(root, "jobs.sqlite"))).rejects.toThrow(
      /writable by every user/,
    );
    // A planted entry is never read from such a root.
    const planted = path.join(root, "repo-deps", "p".repeat(32));
    mkdirSync(planted, { recursive: true });
    writeFileSync(path.join(planted, ".retrace-entry.json"), "{}");
    await expect(new InstallCache({ root }).lookup("repo-deps", "p".repeat(32))).rejects.toThrow(
      /writable by every user/,
    );
  });

  // Counter-examples: what the operator made stays as made, and the ordinary umask changes nothing.
  it("accepts and leaves an operator's existing directory that only its owner (and group) may write", async () => {
    for (const m of [0o755, 0o750, 0o770, 0o700]) {
      const d = path.join(tmp, `op-${m.toString(8)}`);
      mkdirSync(d);
      chmodSync(d, m);
      privateDirSync(d, "install cache");
      await privateDir(d, "install cache");
      expect(mode(d)).toBe(m);
    }
    const db = path.join(tmp, "op-755", "jobs.sqlite");
    const store = await openSqliteJobStore(db);
    store.insert(record("j2") as never);
    store.close();
    expect(mode(db)).toBe(0o600);
  });

  it("works as before under the ordinary umask", async () => {
    process.umask(0o022);
    const cache = new InstallCache({ root: path.join(tmp, "c") });
    const t = await cache.tempDir("npm", "a".repeat(32));
    mkdirSync(t);
    writeFileSync(path.join(t, "f"), "x");
    await cache.commit("npm", "a".repeat(32), t, {});
    expect(await cache.lookup("npm", "a".repeat(32))).not.toBeNull();
    expect(writableByOthers(tmp)).toEqual([]);
  });

  it("reads the other-write bit only", () => {
    expect(writableByAll(0o40777)).toBe(true);
    expect(writableByAll(0o41777)).toBe(true);
    expect(writableByAll(0o40002)).toBe(true);
    expect(writableByAll(0o40775)).toBe(false);
    expect(writableByAll(0o40755)).toBe(false);
    expect(writableByAll(0o100600)).toBe(false);
  });
});
