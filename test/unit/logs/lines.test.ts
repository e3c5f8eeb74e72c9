/**
 * `retrace parse-log`'s two-thread path cuts and normalizes lines on a reading thread (src/logs/lines.ts) and feeds
 * the parser the batches (`LogParser.batch`). Its result must be `write`'s, byte for byte: checked here in one
 * thread for every bundled fixture and real corpus log, with batches of the CLI's size and with tiny ones (a batch
 * boundary in every few lines), and for the shapes the cut has edges on: lines over 1 MiB (handed on as a head
 * and raw pieces, and a JUnit report read across them), CRLF, `##[error]` and `##[group]` lines, no final line
 * break, more lines in a batch than it has ops, and paths mapped with `repoRoot`. The worker itself and the CLI
 * are compared on every case by `scripts/parse-log-outputs.mjs compare DIR --threads 2`.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogParser, type LogParserOptions } from "../../../src/logs/index.ts";
import { createLineBatcher, LONG_LINE } from "../../../src/logs/lines.ts";

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)],
  );
}
const fixtures = path.join(import.meta.dirname, "../../fixtures");
const files = [
  ...walk(path.join(fixtures, "logs")).filter((f) => !/\.(expected\.json|md)$/.test(f)),
  ...walk(path.join(fixtures, "logs-real")).filter((f) => /^log\.(txt|xml)$/.test(path.basename(f))),
].sort();

const CHUNK = 16_384;

// Both paths run under the host's CPU budget (src/logs/budget.ts), whose "too busy" stop quotes the CPU and wall
// milliseconds it saw: on a loaded machine the two parses compared here could stop with different numbers. The
// cut and its batches are what this file checks, so the budget is set out of reach for it.
let savedLimits: string | undefined;
beforeAll(() => {
  savedLimits = process.env.RETRACE_HOST_LIMITS;
  process.env.RETRACE_HOST_LIMITS = "logTimeMs=3600000";
});
afterAll(() => {
  if (savedLimits === undefined) delete process.env.RETRACE_HOST_LIMITS;
  else process.env.RETRACE_HOST_LIMITS = savedLimits;
});

function chunks(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += CHUNK) out.push(text.slice(at, at + CHUNK));
  return out;
}

function byWrite(text: string, options: LogParserOptions = {}): string {
  const parser = createLogParser(options);
  for (const c of chunks(text)) parser.write(c);
  return JSON.stringify(parser.end());
}

function byBatch(text: string, batchChars?: number, options: LogParserOptions = {}): string {
  const parser = createLogParser(options);
  let batches = 0;
  const batcher = createLineBatcher(
    options,
    (b) => {
      batches++;
      parser.batch(b);
    },
    batchChars,
  );
  for (const c of chunks(text)) batcher.write(c);
  batcher.end();
  if (text.length > 0) expect(batches).toBeGreaterThan(0);
  return JSON.stringify(parser.end());
}

describe("lines cut and normalized ahead of the parser (the reading thread's batches)", () => {
  it(`reads every fixture and corpus log (${files.length} logs)`, () => {
    expect(files.length).toBeGreaterThan(900);
  });

  // In chunks, each an `it` of its own: the corpus grows every session, and three parses of all of it outlast one
  // test's timeout on a loaded machine. Every log is still checked, with the same assertions.
  const FILES_PER_TEST = 100;
  for (let from = 0; from < files.length; from += FILES_PER_TEST) {
    const chunk = files.slice(from, from + FILES_PER_TEST);
    it(`gives write's result for every fixture and corpus log (logs ${from + 1}–${from + chunk.length} of ${files.length})`, () => {
      for (const f of chunk) {
        const text = readFileSync(f, "utf8");
        const want = byWrite(text);
        expect(byBatch(text), f).toBe(want);
        expect(byBatch(text, 300), f).toBe(want);
      }
    }, 120_000);
  }

  it("gives write's result on over-long lines, framing, CRLF and no final line break", () => {
    const junitCase = (i: number) =>
      `<testcase classname="a.B" name="t${i}"><failure message="boom ${i}">at x</failure></testcase>`;
    const oneLineReport = `<?xml version="1.0"?><testsuite name="s">${Array.from({ length: 12_000 }, (_, i) => junitCase(i)).join("")}</testsuite>`;
    expect(oneLineReport.length).toBeGreaterThan(LONG_LINE);
    const noBreaks = "x".repeat(LONG_LINE * 2 + 123);
    const framed = [
      "2024-05-01T10:00:00.1234567Z ##[group]Run npm test",
      "2024-05-01T10:00:00.1234567Z FAIL src/a.test.ts\r",
      "##[error]Process completed with exit code 1.",
      "##[error]src/b.ts(3,4): error TS2322: Type 'string' is not assignable to type 'number'.",
      "\u001b[31m  ● suite › adds\u001b[0m",
      "/home/runner/work/r/r/src/c.py:12: AssertionError",
      "/work/checkout/src/d.py:3: in test_d",
    ].join("\n");
    const logs = [
      oneLineReport,
      `${framed}\n${oneLineReport}\n${framed}`,
      `##[error]${noBreaks}\n${framed}`,
      `##[group]${noBreaks}\nok`,
      `${framed}\n${noBreaks}`,
      framed,
      `${framed}\n`,
      "",
      "\n\n\n",
      // More lines in one batch than it has ops (16 384).
      `${"  ✓ adds (1 ms)\n".repeat(20_000)}`,
    ];
    for (const [i, log] of logs.entries()) {
      const want = byWrite(log);
      expect(byBatch(log), `log ${i}`).toBe(want);
      if (log.length < LONG_LINE) expect(byBatch(log, 1000), `log ${i}`).toBe(want);
    }
    const options = { repoRoot: ["/work/checkout"] };
    expect(byBatch(framed, undefined, options)).toBe(byWrite(framed, options));
    expect(byWrite(framed, options)).toContain("\\nsrc/d.py:3: in test_d");
    expect(byWrite(framed)).toContain("/work/checkout/src/d.py");
    // The one-line report's failures are found, through the pieces.
    expect(JSON.parse(byBatch(oneLineReport)).failures.length).toBe(500);
  }, 180_000);

  it("a stop from the reading thread is the parse's stop", () => {
    const parser = createLogParser();
    const batcher = createLineBatcher({}, (b) => parser.batch(b));
    batcher.write("FAIL src/a.test.ts\n");
    batcher.end();
    parser.stop({ line: 7, reason: "parsing took longer than the host allows" });
    const r = parser.end();
    expect(r.stopped).toEqual({ line: 7, reason: "parsing took longer than the host allows" });
    expect(r.failures).toEqual([]);
  });
});
