/**
 * CI log → structured failures. `parseLog` for text in memory, `createLogParser` to stream a log
 * of any size line by line, `excerpt` for the part of a log worth showing, and the result types. The zod
 * schemas that validate a result again (./failure.ts) are imported from there: re-exported here, they made
 * `retrace parse-log` load zod (~55 ms of CPU at start-up) for schemas it never calls.
 */
import { createLogParser, type LogParserOptions } from "./engine.ts";
import { InfrastructureError } from "../core/errors.ts";
import type { ParsedLog } from "./failure.ts";

export { createLogParser, type LogParser, type LogParserOptions } from "./engine.ts";
export { excerpt, type ExcerptOptions } from "./excerpt.ts";
export type {
  Failure,
  FailureCategory,
  FormatCounts,
  LineSpan,
  ParsedLog,
  TestOutcome,
  TestResult,
} from "./failure.ts";
export { createPathMapper, stripAnsi } from "./normalize.ts";
export { FORMATS, formatNames } from "./registry.ts";

/** Parses a whole log held in memory. Throws a UsageError for an unknown `format`. */
export function parseLog(text: string, options: LogParserOptions = {}): ParsedLog {
  const parser = createLogParser(options);
  parser.write(text);
  return parser.end();
}

/**
 * Parses a log arriving in chunks (a file or stdin stream with a utf8 encoding, a fetch body decoded
 * to text): lines may span chunks; memory stays bounded by the parser's caps.
 */
export async function parseChunks(
  chunks: AsyncIterable<string>,
  options: LogParserOptions = {},
): Promise<ParsedLog> {
  const parser = createLogParser(options);
  for await (const chunk of chunks) parser.write(chunk);
  return parser.end();
}

/**
 * `parsed` itself, when the whole log was read; an InfrastructureError naming where and why the host stopped
 * parsing otherwise (`ParsedLog.stopped`): a partial read is never taken for the log's failures or tests.
 */
export function wholeLog(parsed: ParsedLog, what: string): ParsedLog {
  if (parsed.stopped === null) return parsed;
  throw new InfrastructureError(
    `${what} could not be read: the host stopped parsing it within its first ${parsed.stopped.line + 1} lines: ${parsed.stopped.reason}`,
    "a log shaped to make its parsers slow is refused; for a log you trust, raise RETRACE_HOST_LIMITS logTimeMs or logMsPerMb",
  );
}
