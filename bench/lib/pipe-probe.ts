/**
 * The probe behind `npm run bench -- parse-log-pipe` (bundled by it with esbuild, run as a child): the part of
 * `retrace parse-log` a second thread could take, reading the file, decoding it, splitting it into lines and
 * normalizing each line (src/logs/normalize.ts), done two ways. `inline`: all on the main thread, the lines handed
 * to a consumer that only splits and measures them. `pipe`: in a worker thread, which joins each ~256 KiB of
 * normalized lines into one string (a flag per line in a transferred Uint8Array: dropped, `##[error]`) and posts
 * it; the main thread splits it again. No parser runs: the figure is what the main thread would be left with,
 * and what the transfer costs in all. Each thread's CPU comes from /proc/self/task (Linux, 10 ms ticks).
 */
import { openSync, readSync, closeSync, readFileSync, readdirSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { createPathMapper, normalizeText } from "../../src/logs/normalize.ts";

/** CPU (user + system) of every thread of this process, in ms, by `tid:name`. */
function threadCpu(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tid of readdirSync("/proc/self/task")) {
    const f = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    const rest = f.slice(f.lastIndexOf(")") + 2).split(" ");
    const name = f.slice(f.indexOf("(") + 1, f.lastIndexOf(")"));
    out[`${tid}:${name}`] = (Number(rest[11]) + Number(rest[12])) * 10; // ms (100 Hz)
  }
  return out;
}

function produce(file: string, each: (batch: string, flags: Uint8Array, n: number) => void) {
  const map = createPathMapper({});
  const fd = openSync(file, "r");
  const buf = Buffer.allocUnsafe(1 << 20);
  const dec = new StringDecoder("utf8");
  const lineFlags = { ghError: false };
  let parts: string[] = [];
  let flags = new Uint8Array(8192);
  let n = 0,
    chars = 0,
    pending = "";
  const flush = () => {
    each(parts.join("\n"), flags, n);
    parts = [];
    flags = new Uint8Array(8192);
    n = 0;
    chars = 0;
  };
  for (;;) {
    const got = readSync(fd, buf);
    if (got === 0) break;
    for (let at = 0; at < got; at += 1 << 16) {
      const chunk = pending + dec.write(buf.subarray(at, Math.min(got, at + (1 << 16))));
      let from = 0,
        nl = chunk.indexOf("\n");
      while (nl !== -1) {
        const t = normalizeText(chunk.slice(from, nl), map, lineFlags);
        if (n === flags.length) flush();
        if (t === null) flags[n++] = 1;
        else {
          flags[n++] = lineFlags.ghError ? 2 : 0;
          parts.push(t);
          chars += t.length;
        }
        if (chars > 256 * 1024) flush();
        from = nl + 1;
        nl = chunk.indexOf("\n", from);
      }
      pending = chunk.slice(from);
    }
  }
  closeSync(fd);
  flush();
}

const mode = isMainThread ? process.argv[2] : "worker";
if (mode === "worker") {
  produce(workerData.file, (batch, flags, n) =>
    parentPort!.postMessage({ batch, flags, n }, [flags.buffer as ArrayBuffer]),
  );
  parentPort!.postMessage(null);
} else if (mode === "inline") {
  let lines = 0,
    sum = 0;
  const t0 = performance.now();
  produce(process.argv[3]!, (batch, flags, n) => {
    let from = 0;
    for (let i = 0; i < n; i++) {
      if (flags[i] === 1) continue;
      const nl = batch.indexOf("\n", from);
      const l = nl === -1 ? batch.slice(from) : batch.slice(from, nl);
      sum += l.length;
      lines++;
      from = nl + 1;
    }
  });
  const c = process.cpuUsage();
  console.log(
    JSON.stringify({
      mode,
      lines,
      sum,
      wall: Math.round(performance.now() - t0),
      cpu: Math.round((c.user + c.system) / 1000),
      threads: threadCpu(),
    }),
  );
} else {
  const t0 = performance.now();
  const w = new Worker(new URL(import.meta.url), { workerData: { file: process.argv[3] } });
  let lines = 0,
    sum = 0;
  w.on("message", (m) => {
    if (m === null) {
      const c = process.cpuUsage();
      console.log(
        JSON.stringify({
          mode,
          lines,
          sum,
          wall: Math.round(performance.now() - t0),
          cpu: Math.round((c.user + c.system) / 1000),
          threads: threadCpu(),
        }),
      );
      w.terminate();
      return;
    }
    const { batch, flags, n } = m;
    let from = 0;
    for (let i = 0; i < n; i++) {
      if (flags[i] === 1) continue;
      const nl = batch.indexOf("\n", from);
      const l = nl === -1 ? batch.slice(from) : batch.slice(from, nl);
      sum += l.length;
      lines++;
      from = nl + 1;
    }
  });
}
