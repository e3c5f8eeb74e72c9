/**
 * Codeception (PHP): its failure list (`There was 1 failure:`, then per entry `1) PagetypesResourceCest: Get all
 * pagetypes` and the ` Test  tests/api/PagetypesResourceCest.php:testGetAllPagetypes` line under it, ` Step `,
 * ` Fail ` and `Scenario Steps:` with `at tests/api/X.php:19` locations).
 *
 * The id is the entry's Test line (`tests/api/PagetypesResourceCest.php:testGetAllPagetypes`; a Cept is its file
 * alone), what `codecept run` takes to run the test again. Placed at the scenario's first step in the test's own file
 * (the failing one: Codeception lists the steps last first). An entry is read only with its ` Test  ` line right
 * under the number: PHPUnit's `1) Ns\Class::method` entries have none.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const ENTRY = /^(\d+)\) \S.*$/;
const TEST = /^ Test {2}(\S+\.php)(?::(\w+))?$/;
const STEP_AT = / at (\S+\.php):(\d+)$/;

export function createCodeceptionParser(sink: ParserSink) {
  let entryLine: { text: string; lineNo: number } | null = null;
  let open: { id: string; file: string; lines: string[]; start: number; end: number; error: boolean } | null =
    null;
  let errors = false;

  function flush(): void {
    if (!open) return;
    const o = open;
    open = null;
    const message: string[] = [];
    let place: { file: string; line: number } | null = null;
    let inMessage = false;
    for (const l of o.lines.slice(2)) {
      if (/^ Fail {2}/.test(l) || /^ Error {1,2}/.test(l)) {
        inMessage = true;
        message.push(l.replace(/^ (?:Fail|Error) +/, ""));
        continue;
      }
      if (l.trim() === "" || /^Scenario Steps:$/.test(l.trim())) inMessage = false;
      else if (inMessage && message.length < 20) message.push(l.trim());
      const at = STEP_AT.exec(l);
      if (!place && at && sink.path(at[1]!) === sink.path(o.file))
        place = { file: sink.path(at[1]!), line: Number(at[2]) };
    }
    sink.failure({
      category: "test",
      test: o.id,
      file: place?.file ?? null,
      line: place?.line ?? null,
      errorType: null,
      message: message.join("\n") || `${o.id} ${o.error ? "errored" : "failed"}`,
      stack: o.lines.join("\n"),
      start: o.start,
      end: o.end,
    });
    sink.test(o.id, o.error ? "error" : "failed");
  }

  return {
    line(text: string, lineNo: number): boolean {
      const section = /^There (?:was|were) \d+ (failures?|errors?):$/.exec(text);
      if (section) {
        flush();
        errors = section[1]!.startsWith("error");
        return false;
      }
      const t = entryLine ? TEST.exec(text) : null;
      if (t && entryLine) {
        flush();
        const id = t[2] ? `${t[1]}:${t[2]}` : t[1]!;
        open = {
          id,
          file: t[1]!,
          lines: [entryLine.text, text],
          start: entryLine.lineNo,
          end: lineNo,
          error: errors,
        };
        entryLine = null;
        return true;
      }
      entryLine = ENTRY.test(text) ? { text, lineNo } : null;
      if (open) {
        if (
          entryLine ||
          /^(?:FAILURES!|ERRORS!|Tests: \d+, Assertions: )/.test(text) ||
          open.lines.length >= 80
        )
          flush();
        else {
          open.lines.push(text);
          open.end = lineNo;
          return true;
        }
      }
      return false;
    },
    end(): void {
      flush();
    },
  };
}

export const codeceptionFormat: FormatDefinition = {
  name: "codeception",
  description: "Codeception failure list (`1) SomeCest: Title` with ` Test  tests/x/SomeCest.php:method`)",
  create: createCodeceptionParser,
  wakesOn: [/^There (?:was|were) \d+ /, /^\d+\) \S/],
};
