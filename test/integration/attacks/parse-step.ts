/**
 * What the waves' step processes do with a report or a log, once: the report reader and the streaming log parser,
 * each saying what it read, and the filler that makes a log or report of a given size.
 */
import { createLogParser } from "../../../src/logs/index.ts";
import { readExpectations, readReport } from "../../../src/repro/context.ts";
import { short } from "./patch-step.ts";
import { type Outcome, ok } from "./wave-step.ts";

/** A report read as the App reads an issue body (cut at the 65,536-character cap), then its expectations. */
export function reportRead(text: string): Outcome {
  const body = text.slice(0, 65_536);
  try {
    const read = readReport(body);
    if (read.unreadable) return ok(`unreadable: ${short(read.unreadable, 120)}`);
    const e = readExpectations(read.report!);
    return ok(e.unreadable ? `unreadable: ${short(e.unreadable, 120)}` : "read");
  } catch (e) {
    return ok(`${(e as { kind?: string }).kind ?? "error"}: ${short((e as Error).message, 120)}`);
  }
}

/**
 * A log through the streaming parser in 16 KiB chunks, as `retrace parse-log` reads a file; with `mustFinish`
 * the case is contained only when the parser read to the end.
 */
export function log(text: string, mustFinish = false): Outcome {
  const parser = createLogParser();
  for (let at = 0; at < text.length; at += 16_384) parser.write(text.slice(at, at + 16_384));
  const r = parser.end();
  return ok(
    r.stopped
      ? `stopped at line ${r.stopped.line}: ${r.stopped.reason.slice(0, 80)}`
      : `read: ${r.failures.length} failures, ${r.tests.length} tests, ${r.lines} lines`,
    mustFinish ? !r.stopped : null,
  );
}

/** Lines of `line` up to `bytes`. */
export const lines = (line: string, bytes: number) =>
  `${line}\n`.repeat(Math.ceil(bytes / (line.length + 1)));
