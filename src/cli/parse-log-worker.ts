/**
 * `retrace parse-log`'s reading thread (a worker, started by src/cli/commands/parse-log.ts for a regular file):
 * reads the file from the descriptor the command opened, 1 MiB at a time, decodes it 16 KiB at a time as the
 * command's one-thread path does, cuts and normalizes the lines (src/logs/lines.ts) and posts them in batches of
 * about 256 KiB of input. The parsing thread acknowledges each batch in `shared[0]`; this thread stays at most
 * `AHEAD` batches ahead, so a slow parse never makes the log pile up in memory. `shared[1]` set: stop now.
 *
 * Its own work is held to the host-time budget the parse is (src/logs/budget.ts): a line shaped to make
 * normalizing slow stops it as it stopped the one-thread parse, and it posts where and why.
 * Messages: `{ batch }`, then `{ done: true }`, `{ stopped }` or `{ error }` (a read error: message and code).
 */
import { readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { parentPort, workerData } from "node:worker_threads";
import { createHostBudget } from "../logs/budget.ts";
import { createLineBatcher, type LineBatch } from "../logs/lines.ts";
import type { PathOptions } from "../logs/normalize.ts";

export interface ReaderData {
  fd: number;
  options: PathOptions;
  shared: SharedArrayBuffer;
}

const READ_BYTES = 1 << 20;
const DECODE_BYTES = 1 << 14;
/** Batches posted and not yet parsed, at most (about 1 MiB of text). */
const AHEAD = 4;

function run(data: ReaderData): void {
  const port = parentPort!;
  const shared = new Int32Array(data.shared);
  let posted = 0;
  const cancelled = () => Atomics.load(shared, 1) !== 0;
  const pending: LineBatch[] = [];
  const batcher = createLineBatcher(data.options, (b) => pending.push(b));
  const post = (): void => {
    for (const b of pending) {
      for (;;) {
        const acked = Atomics.load(shared, 0);
        if (posted - acked < AHEAD || cancelled()) break;
        Atomics.wait(shared, 0, acked, 200);
      }
      if (cancelled()) return;
      posted++;
      port.postMessage({ batch: b }, [b.ops.buffer as ArrayBuffer]);
    }
    pending.length = 0;
  };
  const budget = createHostBudget();
  let fed = 0;
  let lines = 0;
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  const decoder = new StringDecoder("utf8");
  for (;;) {
    let n: number;
    try {
      n = readSync(data.fd, buffer, 0, READ_BYTES, null);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      port.postMessage({
        error: { message: err.message, code: err.code, errno: err.errno, syscall: err.syscall },
      });
      return;
    }
    if (n === 0) break;
    fed += n;
    budget.run(
      () => {
        for (let at = 0; at < n; at += DECODE_BYTES) {
          const text = decoder.write(buffer.subarray(at, Math.min(n, at + DECODE_BYTES)));
          if (text) batcher.write(text);
        }
      },
      fed,
      () => lines + pending.reduce((sum, b) => sum + b.lines, 0),
    );
    if (budget.stopped) {
      port.postMessage({ stopped: budget.stopped });
      return;
    }
    for (const b of pending) lines += b.lines;
    post();
    if (cancelled()) return;
  }
  budget.run(
    () => {
      const rest = decoder.end();
      if (rest) batcher.write(rest);
      batcher.end();
    },
    fed,
    () => lines,
  );
  if (budget.stopped) {
    port.postMessage({ stopped: budget.stopped });
    return;
  }
  post();
  port.postMessage({ done: true });
}

run(workerData as ReaderData);
