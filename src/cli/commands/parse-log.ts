/**
 * `retrace parse-log <file | -> [--format auto|NAME] [--json]`: streams a CI log through the log
 * parser (src/logs) and prints the failures, per-test outcomes and counts. This file only reads the
 * input and prints; parsing lives in src/logs.
 */
import { once } from "node:events";
import { closeSync, createReadStream, existsSync, fstatSync, openSync, read } from "node:fs";
import { stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { StringDecoder } from "node:string_decoder";
import type { Readable } from "node:stream";
import type { Command } from "commander";
import { UsageError } from "../../core/errors.ts";
import {
  createLogParser,
  excerpt,
  type Failure,
  type LogParser,
  formatNames,
  type LogParserOptions,
  type ParsedLog,
  parseChunks,
  wholeLog,
} from "../../logs/index.ts";
import type { LineBatch } from "../../logs/lines.ts";
import { intOption } from "../options.ts";
import { assertStdinPiped, maxInputBytes, readErrorReason } from "../read-input.ts";
import { printJson, printOut } from "../print.ts";

interface ParseLogFlags {
  format: string;
  json?: boolean;
  repoRoot?: string[];
  repoName?: string;
  excerpt?: boolean;
  maxChars: string;
}

const STDIN_HINT = "check the path, or pipe the log and pass - to read standard input";

/** A regular file on disk (read synchronously), or a stream (stdin, a FIFO, a character device). */
type Input = { file: string } | { stream: Readable };

async function openInput(file: string): Promise<Input> {
  if (file === "-") {
    assertStdinPiped("pipe the log into retrace, e.g. `gh run view --log-failed | retrace parse-log -`");
    return { stream: process.stdin };
  }
  const s = await stat(file).catch((e: unknown) => {
    throw new UsageError(`cannot read log file ${file}: ${readErrorReason(e)}`, STDIN_HINT);
  });
  if (!s.isFile() && !s.isFIFO() && !s.isCharacterDevice())
    throw new UsageError(`${file} is not a file`, "pass a log file, or - to read standard input");
  if (s.isFile()) return { file };
  // 16 KiB reads: a decoded chunk stays a young-generation string (a 64 KiB chunk of a log with any
  // non-Latin-1 character is a 128 KiB two-byte string, allocated in the old generation, so every chunk read
  // would stay in memory until a full collection).
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 14 });
  // Errors of the open (e.g. permission denied) surface on the first read: make them usage errors too.
  await new Promise<void>((resolve, reject) => {
    stream.once("ready", () => resolve());
    stream.once("error", (e) =>
      reject(new UsageError(`cannot read log file ${file}: ${readErrorReason(e)}`, STDIN_HINT)),
    );
  });
  return { stream };
}

/** Opens a regular file for reading, with a usage error that names it. */
function openFile(file: string): number {
  try {
    return openSync(file, "r");
  } catch (e) {
    throw new UsageError(`cannot read log file ${file}: ${readErrorReason(e)}`, STDIN_HINT);
  }
}

// A regular file is read 1 MiB at a time and decoded 16 KiB at a time. 16 KiB decodes to a young-generation
// string even when the log holds non-Latin-1 characters (a 64 KiB chunk of such a log is a 128 KiB two-byte
// string, allocated in the old generation, and every chunk would stay in memory until a full collection).
const READ_BYTES = 1 << 20;
const DECODE_BYTES = 1 << 14;

const readAsync = (fd: number, buffer: Buffer): Promise<number> =>
  new Promise((resolve, reject) =>
    read(fd, buffer, 0, buffer.length, null, (e, n) => (e ? reject(e) : resolve(n))),
  );

/**
 * Hands the text of a regular file to `take` in pieces of at most 16 KiB. Reads are few and large: a file
 * stream's 16 KiB reads each took a round trip through the thread pool, and the profile of a 50 MB log
 * (`node --cpu-prof`) showed the main thread idle for a quarter of the run waiting for them on a busy machine.
 */
async function eachChunk(fd: number, take: (text: string) => void): Promise<void> {
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  const decoder = new StringDecoder("utf8");
  for (;;) {
    const n = await readAsync(fd, buffer);
    if (n === 0) break;
    for (let at = 0; at < n; at += DECODE_BYTES) {
      const text = decoder.write(buffer.subarray(at, Math.min(n, at + DECODE_BYTES)));
      if (text) take(text);
    }
  }
  const rest = decoder.end();
  if (rest) take(rest);
}

/**
 * The reading thread's module (src/cli/parse-log-worker.ts), built next to this one in build/cli; null when this
 * runs from the TypeScript sources (tsx registers its loader in this thread only), which parse on one thread.
 */
function readerWorker(): string | null {
  if (!import.meta.url.endsWith(".js")) return null;
  const file = fileURLToPath(new URL("./parse-log-worker.js", import.meta.url));
  return existsSync(file) ? file : null;
}

/**
 * Whether a file is read on a second thread: from 4 MiB up (below, starting the thread costs more than it saves),
 * or always / never with RETRACE_PARSE_LOG_THREADS=2 / 1 (scripts/parse-log-outputs.mjs compares every case both ways).
 */
function pipelined(fd: number): boolean {
  const forced = process.env.RETRACE_PARSE_LOG_THREADS;
  if (forced === "2") return true;
  if (forced === "1") return false;
  return fstatSync(fd).size >= 4 * 1024 * 1024;
}

/**
 * Parses a regular file on two threads: the worker reads, decodes, cuts and normalizes the lines; this thread
 * parses them (`LogParser.batch`), acknowledging each batch so the worker stays a few batches ahead. The output is
 * the one-thread path's, byte for byte (the cut is the same, and each batch carries the input it covers for the
 * host-time budget). A read error is thrown as the one-thread path throws it; the worker is stopped and awaited
 * before this returns, whatever happened.
 */
async function parseInWorker(
  file: string,
  fd: number,
  parser: LogParser,
  options: LogParserOptions,
): Promise<void> {
  const shared = new SharedArrayBuffer(8);
  const acks = new Int32Array(shared);
  const pathOptions = {
    ...(options.repoRoot ? { repoRoot: options.repoRoot } : {}),
    ...(options.repoName ? { repoName: options.repoName } : {}),
  };
  const worker = new Worker(file, {
    workerData: { fd, options: pathOptions, shared },
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.on("message", (m: WorkerMessage) => {
        try {
          if (m.batch) {
            parser.batch(m.batch);
            Atomics.add(acks, 0, 1);
            Atomics.notify(acks, 0);
          } else if (m.stopped) {
            parser.stop(m.stopped);
            resolve();
          } else if (m.error) {
            reject(Object.assign(new Error(m.error.message), m.error));
          } else if (m.done) resolve();
        } catch (e) {
          reject(e);
        }
      });
      worker.on("error", reject);
      worker.on("exit", (code) => reject(new Error(`the log reading thread stopped (exit code ${code})`)));
    });
  } finally {
    Atomics.store(acks, 1, 1);
    Atomics.notify(acks, 0);
    await worker.terminate();
  }
}

/**
 * The reading thread's young generation, in MB: its strings live until posted. One run each on the bench's 50 MB log
 * (load ~23, noisy): 166 MB peak RSS with 4, 181 with 8, 168 with 16, 188 with V8's default.
 */
const YOUNG_MB = 4;

type WorkerMessage = {
  batch?: LineBatch;
  stopped?: { line: number; reason: string };
  error?: { message: string; code?: string; errno?: number; syscall?: string };
  done?: boolean;
};

/** The whole input as one string (for --excerpt), refusing what would not fit in memory. */
async function readAll(source: Input): Promise<string> {
  const chunks: string[] = [];
  let size = 0;
  const keep = (chunk: string): void => {
    size += chunk.length;
    if (size > maxInputBytes()) {
      throw new UsageError(
        `the log is too large for --excerpt (over ${maxInputBytes() / 1024 / 1024} MiB, RETRACE_HOST_LIMITS inputMb)`,
        "drop --excerpt (parsing streams logs of any size), or pass its end: `tail -c 50M LOG | retrace parse-log - --excerpt`",
      );
    }
    chunks.push(chunk);
  };
  if ("file" in source) {
    const fd = openFile(source.file);
    try {
      await eachChunk(fd, keep);
    } finally {
      closeSync(fd);
    }
  } else {
    const input = source.stream;
    input.setEncoding?.("utf8");
    try {
      for await (const chunk of input) keep(String(chunk));
    } catch (e) {
      input.destroy();
      throw e;
    }
  }
  return chunks.join("");
}

/** Streams the input through the parser in chunks (faster than readline; lines may span chunks). */
async function parseInput(source: Input, flags: ParseLogFlags): Promise<ParsedLog> {
  const options: LogParserOptions = {
    format: flags.format,
    ...(flags.repoRoot ? { repoRoot: flags.repoRoot } : {}),
    ...(flags.repoName ? { repoName: flags.repoName } : {}),
  };
  if ("file" in source) {
    const parser = createLogParser(options);
    const fd = openFile(source.file);
    try {
      const reader = readerWorker();
      if (reader && pipelined(fd)) await parseInWorker(reader, fd, parser, options);
      else await eachChunk(fd, (chunk) => parser.write(chunk));
    } finally {
      closeSync(fd);
    }
    return parser.end();
  }
  source.stream.setEncoding("utf8");
  return parseChunks(source.stream as AsyncIterable<string>, options);
}

function location(f: Failure): string {
  if (!f.file) return "";
  return `${f.file}${f.line ? `:${f.line}${f.column ? `:${f.column}` : ""}` : ""}`;
}

function firstLine(s: string, max = 160): string {
  const line = s.split("\n", 1)[0] ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The result as JSON, in pieces of about 64 KiB at most: a log with 100 000 tests never becomes one giant
 * string in memory. A list is written a batch of items per line, each batch one JSON.stringify call (a call
 * per item cost twice as much on 100 000 tests); a batch holds about 8 KiB of items of the previous batch's
 * average size, so a line stays far under a piece whether the items are test results or failures with stacks.
 */
export function* jsonPieces(parsed: ParsedLog): Generator<string> {
  function* list(items: readonly unknown[]): Generator<string> {
    if (items.length === 0) {
      yield "[]";
      return;
    }
    let out = "[\n";
    let batch = 1;
    for (let i = 0; i < items.length; ) {
      const end = Math.min(items.length, i + batch);
      const text = JSON.stringify(items.slice(i, end));
      out += `    ${text.slice(1, -1)}${end < items.length ? "," : ""}\n`;
      // The next batch: as many items of this batch's average size as make about 8 KiB.
      batch = Math.max(1, Math.min(512, Math.floor(8_192 / (text.length / (end - i)))));
      i = end;
      if (out.length > 32_768) {
        yield out;
        out = "";
      }
    }
    yield `${out}  ]`;
  }
  yield `{\n  "formats": ${JSON.stringify(parsed.formats)},\n  "failures": `;
  yield* list(parsed.failures);
  yield ',\n  "tests": ';
  yield* list(parsed.tests);
  const unnamed = parsed.unnamedFailuresIn
    ? `,\n  "unnamedFailuresIn": ${JSON.stringify(parsed.unnamedFailuresIn)}`
    : "";
  yield `,\n  "counts": ${JSON.stringify(parsed.counts)},\n  "lines": ${parsed.lines}${unnamed},\n  "dropped": ${JSON.stringify(parsed.dropped)}\n}\n`;
}

/** Writes the JSON to a stream, waiting for it to drain: a pipe that reads slowly never makes the output pile up in memory. */
export async function writeJson(parsed: ParsedLog, out: NodeJS.WritableStream): Promise<void> {
  for (const piece of jsonPieces(parsed)) {
    if (!printJson(piece, out)) await once(out, "drain");
  }
}

/** A terminal view: formats, then one short entry per failure, then counts. */
export function renderParsedLog(parsed: ParsedLog): string {
  const out: string[] = [];
  out.push(
    parsed.formats.length
      ? `formats: ${parsed.formats.join(", ")} (${parsed.lines} lines)`
      : `no known format in ${parsed.lines} lines`,
  );
  if (parsed.failures.length === 0 && parsed.unnamedFailuresIn)
    out.push(
      `no failing test named, but the ${parsed.unnamedFailuresIn.join(" and ")} summary says the run failed (the log is not green)`,
    );
  else if (parsed.failures.length === 0) out.push("no failures found");
  else out.push(`${parsed.failures.length} failure${parsed.failures.length === 1 ? "" : "s"}:`);
  for (const f of parsed.failures) {
    const head = f.test ?? location(f) ?? "";
    out.push(`  ✖ [${f.category}] ${head || "(no location)"}`);
    const detail = [f.test ? location(f) : "", f.errorType ?? "", firstLine(f.message)]
      .filter((s) => s !== "")
      .join("  ");
    if (detail) out.push(`      ${detail}`);
  }
  if (parsed.dropped.failures > 0) out.push(`  … ${parsed.dropped.failures} more failures not kept`);
  for (const [format, c] of Object.entries(parsed.counts)) {
    const parts = [`${c.failures} failures`];
    if (c.passed + c.failed + c.skipped + c.error > 0) {
      parts.push(`tests: ${c.passed} passed, ${c.failed} failed, ${c.error} errors, ${c.skipped} skipped`);
      if (c.flaky > 0) parts.push(`${c.flaky} flaky`);
    }
    out.push(`${format}: ${parts.join("; ")}`);
  }
  return `${out.join("\n")}\n`;
}

export function registerParseLog(program: Command): void {
  program
    .command("parse-log")
    .description(
      "Turn CI output (a test runner, compiler or linter log, or a downloaded GitHub Actions log) into structured failures",
    )
    .argument("<file>", "the log file, or - for standard input")
    .option("--format <name>", `auto, or one of: ${formatNames().join(", ")}`, "auto")
    .option("--json", "print the result as JSON (failures, tests, counts, formats)")
    .option(
      "--repo-root <dir...>",
      "checkout directories to strip from paths (runner checkouts are always mapped)",
    )
    .option("--repo-name <name>", "owner/name of the repository, to map only its runner checkout paths")
    .option("--excerpt", "print the failure blocks of the log instead (reads the whole file into memory)")
    .option("--max-chars <n>", "size budget of --excerpt", "12000")
    .action(async (file: string, flags: ParseLogFlags) => {
      if (!flags.excerpt && flags.maxChars !== "12000")
        throw new UsageError("--max-chars applies only to --excerpt", "add --excerpt, or drop --max-chars");
      const known = ["auto", ...formatNames()];
      if (!known.includes(flags.format)) {
        throw new UsageError(`unknown log format "${flags.format}"`, `use one of: ${known.join(", ")}`);
      }
      if (flags.excerpt) {
        const maxChars = intOption("--max-chars", flags.maxChars, 200, 10_000_000, 12_000);
        const text = await readAll(await openInput(file));
        printOut(
          `${excerpt(text, { format: flags.format, maxChars, ...(flags.repoRoot ? { repoRoot: flags.repoRoot } : {}) })}\n`,
        );
        return;
      }
      const parsed = wholeLog(await parseInput(await openInput(file), flags), "the log");
      if (flags.json) await writeJson(parsed, process.stdout);
      else printOut(renderParsedLog(parsed));
    });
}
