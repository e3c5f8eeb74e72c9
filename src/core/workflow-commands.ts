/**
 * CI runners read their steps' output for commands: GitHub Actions runs a line whose first non-blank characters
 * are `::` (`::error title=…::`, `::add-mask::`, `::stop-commands::`, which silences every later command), Azure
 * Pipelines one starting `##vso[` or `##[`, TeamCity `##teamcity[`. Retrace echoes text it does not control (a
 * repository's test command, a program's output, a configuration key), so every line it writes has such a start
 * broken by a zero-width space, which a reader does not see and no runner takes for a command. Pure.
 */

/**
 * A line start a CI runner reads as a command (after the blanks it trims: any whitespace but a line break; a bare
 * CR ends a line for the runner's reader too).
 */
const COMMAND_START = /(^|[\r\n])([^\S\r\n]*)(::)/g;
/** Prefixes a runner finds anywhere in a line (the Actions runner's v1 `##[` parser, Azure's `##vso[`). */
const COMMAND_ANYWHERE = /##(vso\[|\[|teamcity\[)/g;

/**
 * `text` with each command start broken. `atLineStart` says whether the text continues a line already begun
 * (a write in the middle of a line): then its first characters are not a line start.
 */
export function withoutWorkflowCommands(text: string, atLineStart = true): string {
  // Every match holds `##` or `::`: a text with neither (most of parse-log's JSON) skips a regex scan per pattern.
  const anywhere = text.includes("##") ? text.replace(COMMAND_ANYWHERE, "#\u200b#$1") : text;
  if (!anywhere.includes("::")) return anywhere;
  return anywhere.replace(
    COMMAND_START,
    (whole, newline: string, blanks: string, start: string, offset: number) =>
      offset === 0 && newline === "" && !atLineStart
        ? whole
        : `${newline}${blanks}${start[0]}\u200b${start.slice(1)}`,
  );
}

const GUARDED = Symbol.for("retrace.workflowCommandGuard");

/**
 * Makes every string written to `stream` pass through `withoutWorkflowCommands`, tracking line starts across
 * writes. Idempotent. The CLI guards its stdout and stderr: an Actions step runs it.
 */
export function guardWorkflowCommands(stream: NodeJS.WritableStream): void {
  const s = stream as NodeJS.WritableStream & { [GUARDED]?: true };
  if (s[GUARDED]) return;
  s[GUARDED] = true;
  const write = s.write.bind(s) as (chunk: unknown, ...rest: unknown[]) => boolean;
  let atLineStart = true;
  s.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== "string" || chunk === "") return write(chunk, ...rest);
    const out = withoutWorkflowCommands(chunk, atLineStart);
    atLineStart = /[\r\n]$/.test(chunk);
    return write(out, ...rest);
  }) as typeof s.write;
}
