/**
 * One App process per job store (thirteenth red team): each keeps the database in memory and writes whole
 * snapshots, so a second process on the same file would overwrite the first's jobs. The second is refused while the
 * first runs, and takes over once it has closed or died; the same process may open it again (a simulated crash).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
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
});
