/**
 * The JobStore port and its SQLite implementation (sql.js: SQLite compiled to WebAssembly, so nothing is
 * compiled at install time and it runs on every Node version; see docs/app.md for the measurement).
 * Durability without rewriting the whole database per webhook: every change is appended to a journal
 * (`<path>.journal`, one JSON line) before the call returns, so an acknowledged webhook is on disk before the
 * 200 goes out; a snapshot (temporary file + rename, then the journal is emptied) is taken every few seconds
 * and on close. Opening loads the snapshot and replays the journal.
 * One process at a time: each keeps the database in memory and writes whole snapshots, so a second App on the same
 * file (a rolling restart, two replicas on one volume) would overwrite the first's jobs. Opening takes
 * `<path>.lock` (this process's pid and host name) and refuses while another live process holds it.
 */
import {
  appendFileSync,
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { hostname } from "node:os";
import { dirname } from "node:path";
import initSqlJs from "sql.js";
import { PRIVATE_FILE_MODE, privateDirSync } from "../install/private-state.ts";
import { InfrastructureError } from "../core/errors.ts";
import { type JobRecord, type JobState, TERMINAL_STATES } from "./job-record.ts";

export interface JobStore {
  /** Records a delivery id; false when it was seen before (the webhook is a duplicate). */
  recordDelivery(deliveryId: string, now: number): boolean;
  insert(record: JobRecord): void;
  update(id: string, changes: Partial<Omit<JobRecord, "id">>): JobRecord;
  get(id: string): JobRecord | null;
  /** Jobs not in a terminal state, oldest first. */
  listUnfinished(): JobRecord[];
  /** Jobs of a repository created at or after `since` that were not skipped. */
  countJobsSince(repo: string, since: number): number;
  /** Jobs of a repository created at or after `since`, oldest first (skipped ones included). */
  jobsSince(repo: string, since: number): JobRecord[];
  /** Model dollars of a repository's jobs created at or after `since`. */
  costSince(repo: string, since: number): number;
  /** Fix jobs of a lineage that ran on Retrace's own branches (a fix of a fix), skipped ones excluded. */
  countLineageFixes(repo: string, lineage: string): number;
  /** The job whose pull request branch is `branch`. */
  findByPrBranch(repo: string, branch: string): JobRecord | null;
  all(): JobRecord[];
  close(): void;
}

type SqlDatabase = import("sql.js").Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS deliveries (id TEXT PRIMARY KEY, received_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
  id TEXT PRIMARY KEY,
  repo TEXT NOT NULL,
  kind TEXT NOT NULL,
  state TEXT NOT NULL,
  lineage TEXT,
  on_retrace_branch INTEGER NOT NULL DEFAULT 0,
  pr_branch TEXT,
  cost_usd REAL NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_repo_created ON jobs (repo, created_at);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs (state);
`;

/** Deliveries older than this are forgotten (GitHub redelivers within hours, not weeks). */
const DELIVERY_TTL_MS = 14 * 24 * 3600_000;

/** Whether a process of this host with that pid runs (EPERM: it runs as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Flags of the store's own writes: never through a link a local user put in the database's directory (red team 24). */
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;
const TRUNCATE = constants.O_WRONLY | constants.O_TRUNC | constants.O_CREAT | constants.O_NOFOLLOW;

function notPlain(file: string, what: string): InfrastructureError {
  return new InfrastructureError(
    `the job database's ${what} ${file} is not a plain file (a link, a FIFO or a directory), so it is not Retrace's`,
    `remove ${file} and start again`,
  );
}

/**
 * The bytes of `file` when it is a plain file, null when there is none. Opened without following a link and
 * without blocking (a FIFO would hold the App's start until someone writes to it), then checked on the open file:
 * a journal linked to another file was read as the journal and then emptied, a snapshot's temporary linked to one
 * was overwritten with the database (red team 24).
 */
function readPlain(file: string, what: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ELOOP" || code === "EISDIR") throw notPlain(file, what);
    throw error;
  }
  try {
    if (!fstatSync(fd).isFile()) throw notPlain(file, what);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Waits `ms` without giving the event loop a turn (the lock is taken before anything else runs). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Takes `<path>.lock` for this process, or throws naming the holder. A lock of this process (a store opened again
 * after a simulated crash, a container restarted with the same pid) or of a process of this host that no longer
 * runs is taken over; one of another host cannot be checked and is refused with what to do. A takeover happens
 * under `<path>.lock.takeover` (made exclusively): two Apps that find the same stale lock at the same instant each
 * removed it and made their own in turn, the second removing the first's, and both ran (wave 23's open class);
 * now the second waits, reads the first's live lock and is refused.
 */
function takeLock(lockPath: string): void {
  const mine = `${process.pid} ${hostname()}`;
  const takeover = `${lockPath}.takeover`;
  /** The holder's line, or null when the lock was removed meanwhile. */
  const holder = (): string | null => {
    // Read and replaced only as the plain file this function makes: a link would have the takeover below write
    // through it into whatever file it names (wave 23).
    const st = lstatSync(lockPath, { throwIfNoEntry: false });
    if (!st) return null;
    if (!st.isFile())
      throw new InfrastructureError(
        `the job database lock ${lockPath} is not a plain file (a link or a directory), so it is not Retrace's`,
        `remove ${lockPath} and start again`,
      );
    try {
      return readFileSync(lockPath, "utf8").trim();
    } catch {
      return null;
    }
  };
  for (let tries = 0; tries < 300; tries++) {
    try {
      writeFileSync(lockPath, mine, { flag: "wx", mode: PRIVATE_FILE_MODE });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const held = holder();
    if (held === null) continue; // removed meanwhile: try again
    const [pidText, host] = held.split(" ");
    const pid = Number(pidText);
    const sameHost = host === hostname();
    if (!(held === mine || (sameHost && Number.isInteger(pid) && pid > 0 && !alive(pid))))
      throw new InfrastructureError(
        `the job database ${lockPath.slice(0, -".lock".length)} is in use by another Retrace App (process ${JSON.stringify(held.slice(0, 80))}${sameHost ? "" : ", on another host"}): two Apps on one database overwrite each other's jobs`,
        `stop the other App first, or give this one its own RETRACE_DB_PATH; if no other App runs, remove ${lockPath}`,
      );
    // Stale: taken over by one process at a time.
    try {
      writeFileSync(takeover, mine, { flag: "wx", mode: PRIVATE_FILE_MODE });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      pause(10); // another App is taking it over: read its lock when it is done
      continue;
    }
    try {
      // Replaced, never written through, and only while it is still the stale lock read above: another App may
      // have taken it over between that read and this process's takeover lock.
      if (holder() === held) {
        try {
          unlinkSync(lockPath);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        }
      }
      try {
        writeFileSync(lockPath, mine, { flag: "wx", mode: PRIVATE_FILE_MODE });
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    } finally {
      unlinkSync(takeover);
    }
  }
  throw new InfrastructureError(
    `cannot take the job database lock ${lockPath}`,
    `remove the lock file (and ${takeover}, left by an App killed while taking over a stale lock) and start again`,
  );
}

export async function openSqliteJobStore(path: string | null): Promise<JobStore> {
  const require = createRequire(import.meta.url);
  const wasmPath = require.resolve("sql.js/dist/sql-wasm.wasm");
  const SQL = await initSqlJs({ wasmBinary: readFileSync(wasmPath) as unknown as ArrayBuffer });
  // The lock before the first read: what is read must be what no other process is about to overwrite.
  const lockPath = path ? `${path}.lock` : null;
  if (path && lockPath) {
    // Owner-only whatever the umask; a directory every user may write into is refused (src/install/private-state.ts).
    privateDirSync(dirname(path), "job database directory");
    takeLock(lockPath);
  }
  let db: SqlDatabase;
  try {
    let existing: Buffer | null = null;
    if (path) {
      existing = readPlain(path, "file");
    }
    db = new SQL.Database(existing);
    db.exec(SCHEMA);
  } catch (error) {
    throw new InfrastructureError(
      `cannot open the job database ${path ?? ":memory:"}: ${(error as Error).message}`,
      "set RETRACE_DB_PATH to a writable file, or move the corrupt file away (jobs in it are then lost)",
      error,
    );
  }

  const journalPath = path ? `${path}.journal` : null;
  let dirty = false;

  /** Take a snapshot and empty the journal. */
  function snapshot(): void {
    if (!path || !journalPath || !dirty) return;
    const tmp = `${path}.tmp-${process.pid}`;
    // Made anew (a name this process left, or a link someone put there, is removed, never written through).
    rmSync(tmp, { force: true });
    writeFileSync(tmp, db.export(), { flag: "wx", mode: PRIVATE_FILE_MODE });
    renameSync(tmp, path);
    closeSync(openSync(journalPath, TRUNCATE, PRIVATE_FILE_MODE));
    dirty = false;
  }

  /** Append one change to the journal (the durable record until the next snapshot). */
  function journal(entry: unknown): void {
    if (!journalPath) return;
    const fd = openSync(journalPath, APPEND, PRIVATE_FILE_MODE);
    try {
      appendFileSync(fd, `${JSON.stringify(entry)}\n`);
    } finally {
      closeSync(fd);
    }
    dirty = true;
  }

  const timer = path ? setInterval(snapshot, 5_000) : null;
  timer?.unref();

  let closed = false;
  function open(): SqlDatabase {
    if (closed) throw new InfrastructureError("the job database is closed", "this is a bug: report it");
    return db;
  }

  function rows(sql: string, params: (string | number | null)[] = []): JobRecord[] {
    const stmt = open().prepare(sql);
    try {
      stmt.bind(params);
      const out: JobRecord[] = [];
      while (stmt.step()) out.push(JSON.parse(String(stmt.get()[0])) as JobRecord);
      return out;
    } finally {
      stmt.free();
    }
  }

  function scalar(sql: string, params: (string | number | null)[]): number {
    const stmt = open().prepare(sql);
    try {
      stmt.bind(params);
      return stmt.step() ? Number(stmt.get()[0] ?? 0) : 0;
    } finally {
      stmt.free();
    }
  }

  function write(r: JobRecord): void {
    open().run(
      `INSERT INTO jobs (id, repo, kind, state, lineage, on_retrace_branch, pr_branch, cost_usd, created_at, data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET state = excluded.state, lineage = excluded.lineage,
         on_retrace_branch = excluded.on_retrace_branch, pr_branch = excluded.pr_branch,
         cost_usd = excluded.cost_usd, data = excluded.data`,
      [
        r.id,
        r.repo,
        r.kind,
        r.state,
        r.lineage,
        r.trigger.type === "fix" && r.trigger.onRetraceBranch ? 1 : 0,
        r.prBranch,
        r.costUsd,
        r.createdAt,
        JSON.stringify(r),
      ],
    );
  }

  function get(id: string): JobRecord | null {
    return rows("SELECT data FROM jobs WHERE id = ?", [id])[0] ?? null;
  }

  const terminal = TERMINAL_STATES.map((s) => `'${s}'`).join(", ");

  let inserts = 0;
  /** Inserts a delivery id; false when it was already there. Old ids are pruned every 1000 inserts. */
  function applyDelivery(deliveryId: string, now: number): boolean {
    if (++inserts % 1000 === 0)
      open().run("DELETE FROM deliveries WHERE received_at < ?", [now - DELIVERY_TTL_MS]);
    open().run("INSERT OR IGNORE INTO deliveries (id, received_at) VALUES (?, ?)", [deliveryId, now]);
    return db.getRowsModified() > 0;
  }

  if (journalPath) {
    const text = readPlain(journalPath, "journal")?.toString("utf8") ?? "";
    // Any journal text, even one line cut short, is folded into a snapshot and the journal emptied: a cut line
    // left there would have the next change appended to it, and that change lost at the next crash (wave 23).
    if (text !== "") dirty = true;
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      let entry: { d?: [string, number]; j?: JobRecord };
      try {
        entry = JSON.parse(line);
      } catch {
        continue; // a line cut short by a crash: the change it held was never acknowledged
      }
      if (entry.d) applyDelivery(entry.d[0], entry.d[1]);
      if (entry.j) write(entry.j);
      dirty = true;
    }
    snapshot();
    // Make sure the journal exists and is durable from the start.
    closeSync(openSync(journalPath, APPEND, PRIVATE_FILE_MODE));
    const fd = openSync(journalPath, "r");
    fsyncSync(fd);
    closeSync(fd);
  }

  return {
    recordDelivery(deliveryId, now) {
      if (!applyDelivery(deliveryId, now)) return false;
      journal({ d: [deliveryId, now] });
      return true;
    },
    insert(record) {
      if (get(record.id)) throw new InfrastructureError(`job ${record.id} already exists`);
      write(record);
      journal({ j: record });
    },
    update(id, changes) {
      const current = get(id);
      if (!current) throw new InfrastructureError(`job ${id} is not in the job database`);
      const next: JobRecord = { ...current, ...changes, id, updatedAt: changes.updatedAt ?? Date.now() };
      write(next);
      journal({ j: next });
      return next;
    },
    get,
    listUnfinished() {
      return rows(`SELECT data FROM jobs WHERE state NOT IN (${terminal}) ORDER BY created_at, id`);
    },
    countJobsSince(repo, since) {
      return scalar("SELECT COUNT(*) FROM jobs WHERE repo = ? AND created_at >= ? AND state != 'skipped'", [
        repo,
        since,
      ]);
    },
    jobsSince(repo, since) {
      return rows("SELECT data FROM jobs WHERE repo = ? AND created_at >= ? ORDER BY created_at, id", [
        repo,
        since,
      ]);
    },
    costSince(repo, since) {
      return scalar("SELECT COALESCE(SUM(cost_usd), 0) FROM jobs WHERE repo = ? AND created_at >= ?", [
        repo,
        since,
      ]);
    },
    countLineageFixes(repo, lineage) {
      return scalar(
        "SELECT COUNT(*) FROM jobs WHERE repo = ? AND kind = 'fix' AND lineage = ? AND on_retrace_branch = 1 AND state != 'skipped'",
        [repo, lineage],
      );
    },
    findByPrBranch(repo, branch) {
      return (
        rows("SELECT data FROM jobs WHERE repo = ? AND pr_branch = ? LIMIT 1", [repo, branch])[0] ?? null
      );
    },
    all() {
      return rows("SELECT data FROM jobs ORDER BY created_at, id");
    },
    close() {
      if (closed) return;
      if (timer) clearInterval(timer);
      snapshot();
      closed = true;
      db.close();
      if (lockPath) {
        try {
          if (readFileSync(lockPath, "utf8").trim() === `${process.pid} ${hostname()}`) unlinkSync(lockPath);
        } catch {
          // already gone
        }
      }
    },
  };
}

export type { JobState };
