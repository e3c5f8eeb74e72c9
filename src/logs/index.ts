/**
 * CI log → structured failures. `parseLog` for text in memory, `createLogParser` to stream a log
 * of any size line by line, `excerpt` for the part of a log worth showing, and the result schemas.
 */
import { createLogParser, type LogParserOptions } from "./engine.ts";
import type { ParsedLog } from "./failure.ts";

export { createLogParser, type LogParser, type LogParserOptions } from "./engine.ts";
export { excerpt, type ExcerptOptions } from "./excerpt.ts";
export {
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
