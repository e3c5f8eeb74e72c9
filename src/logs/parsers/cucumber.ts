/**
 * Cucumber's summary (cucumber-ruby, cucumber-js): `Failing Scenarios:` then one line per failed scenario,
 * `cucumber features/x.feature:3 # Scenario: old McDonnald` (the `cucumber ` command and a `:line` list optional),
 * then the count line `2 scenarios (1 failed, 1 undefined)`.
 *
 * A listed scenario counts only when the list ends in that count line and it counts failures. The id is the scenario's
 * title as printed (what `--name` selects; an outline's examples share it); placed at the feature file and line the
 * list gives (what cucumber re-runs).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const HEAD = /^\s*Failing Scenarios:\s*$/;
const ENTRY =
  /^\s*(?:cucumber(?:-js)? (?:-p \S+ )?)?(\S+\.feature):(\d+)(?::\d+)* # Scenario(?: Outline)?: (\S.*?)\s*$/;
const COUNT = /^\s*(\d+) scenarios? \((.*)\)\s*$/;

export function createCucumberParser(sink: ParserSink) {
  let listing = false;
  let pending: { test: string; file: string; line: number; lineNo: number }[] = [];

  return {
    line(text: string, lineNo: number): boolean {
      if (!listing) {
        if (text.includes("Failing Scenarios:") && HEAD.test(text)) {
          listing = true;
          pending = [];
          return true;
        }
        return false;
      }
      const e = ENTRY.exec(text);
      if (e) {
        if (pending.length < 1_000)
          pending.push({ test: own(e[3]!), file: sink.path(e[1]!), line: Number(e[2]), lineNo });
        return true;
      }
      if (text.trim() === "") return true;
      const c = COUNT.exec(text);
      listing = false;
      if (c && /\b[1-9]\d* failed\b/.test(c[2]!)) {
        for (const p of pending) {
          sink.test(p.test, "failed", p.file);
          sink.failure({
            category: "test",
            test: p.test,
            file: p.file,
            line: p.line,
            message: `Scenario failed: ${p.test}`,
            start: p.lineNo,
            end: lineNo,
          });
        }
      }
      pending = [];
      return c !== null;
    },
    end(): void {
      pending = [];
    },
  };
}

export const cucumberFormat: FormatDefinition = {
  name: "cucumber",
  description: "Cucumber's `Failing Scenarios:` list, confirmed by its `N scenarios (M failed)` count line",
  create: createCucumberParser,
  wakesOn: [/^\s*Failing Scenarios:/],
};
