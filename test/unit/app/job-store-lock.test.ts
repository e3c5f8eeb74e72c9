/**
 * One App process per job store (thirteenth red team): each keeps the database in memory and writes whole
 * snapshots, so a second process on the same file would overwrite the first's jobs. The second is refused while the
 * first runs, and takes over once it has closed or died; the same process may open it again (a simulated crash).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openSqliteJobStore } from "../../../src/app/job-store.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");

function openInAnotherProcess(db: string): string {
  const script = path.join(path.dirname(db), "second.mts");
  writeFileSync(
    script,
    `import { openSqliteJobStore } from ${JSON.stringify(path.join(ROOT, "src/app/job-store.ts"))};
try { const s = await openSqliteJobStore(${JSON.stringify(db)}); s.close(); console.log("opened"); }
catch (e) { console.log("refused: " + e.message + " | " + e.hint); }
`,
  );
  const r = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), [script], {
    encoding: "utf8",
    timeout: 60_000,
  });
  return r.stdout.trim().split("\n").pop() ?? r.stderr;
}

describe("the job store lock", () => {
  it("refuses a second process while the first holds the store, and lets it in after close", async () => {
    const db = path.join(mkdtempSync(path.join(tmpdir(), "rt13-lock-")), "jobs.sqlite");
    const first = await openSqliteJobStore(db);
    const second = openInAnotherProcess(db);
    expect(second).toMatch(/^refused: the job database .* is in use by another Retrace App/);
    expect(second).toContain("give this one its own RETRACE_DB_PATH");
    first.close();
    expect(existsSync(`${db}.lock`)).toBe(false);
    expect(openInAnotherProcess(db)).toBe("opened");
  }, 120_000);

  it("takes over the lock of a process that no longer runs, and its own", async () => {
    const db = path.join(mkdtempSync(path.join(tmpdir(), "rt13-lock-")), "jobs.sqlite");
    const dead = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
    const host = (await import("node:os")).hostname();
    writeFileSync(`${db}.lock`, `${dead.stdout.trim()} ${host}`);
    const a = await openSqliteJobStore(db);
    const b = await openSqliteJobStore(db); // same process: a store reopened after a simulated crash
    b.close();
    a.close();
  });

  it("takes a stale lock over only under the takeover lock: while another App holds that, it never removes the stale lock (red team 24)", async () => {
    const db = path.join(mkdtempSync(path.join(tmpdir(), "rt24-lock-")), "jobs.sqlite");
    const dead = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
    const host = (await import("node:os")).hostname();
    const stale = `${dead.stdout.trim()} ${host}`;
    writeFileSync(`${db}.lock`, stale);
    // Another App is in the middle of taking it over (or was killed there): this one waits, then says what to remove.
    writeFileSync(`${db}.lock.takeover`, `${process.ppid} ${host}`);
    await expect(openSqliteJobStore(db)).rejects.toThrow(/cannot take the job database lock/);
    expect(readFileSync(`${db}.lock`, "utf8")).toBe(stale);
    // Once it is gone, the stale lock is taken over and the takeover lock removed.
    rmSync(`${db}.lock.takeover`);
    const store = await openSqliteJobStore(db);
    expect(readFileSync(`${db}.lock`, "utf8")).toBe(`${process.pid} ${host}`);
    expect(existsSync(`${db}.lock.takeover`)).toBe(false);
    store.close();
  }, 60_000);

  it("refuses a journal or database file that is a link or a FIFO, and never writes through a snapshot temporary's link (red team 24)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rt24-files-"));
    const victim = path.join(dir, "victim.txt");
    writeFileSync(victim, "keep\n");
    const journalLink = path.join(dir, "a.sqlite");
    symlinkSync(victim, `${journalLink}.journal`);
    await expect(openSqliteJobStore(journalLink)).rejects.toThrow(/journal .* is not a plain file/);
    const fifo = path.join(dir, "b.sqlite");
    spawnSync("mkfifo", [`${fifo}.journal`]);
    await expect(openSqliteJobStore(fifo)).rejects.toThrow(/journal .* is not a plain file/);
    const dbLink = path.join(dir, "c.sqlite");
    symlinkSync(victim, dbLink);
    await expect(openSqliteJobStore(dbLink)).rejects.toThrow(/file .* is not a plain file/);
    const tmpLink = path.join(dir, "d.sqlite");
    symlinkSync(victim, `${tmpLink}.tmp-${process.pid}`);
    const store = await openSqliteJobStore(tmpLink);
    store.recordDelivery("x", Date.now());
    store.close();
    expect(readFileSync(victim, "utf8")).toBe("keep\n");
    expect(readFileSync(tmpLink).subarray(0, 15).toString()).toBe("SQLite format 3");
  }, 60_000);
});
