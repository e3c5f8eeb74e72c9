/**
 * behave (Python's Gherkin runner), plain formatter (`--format=plain`, also what the pretty one falls back to off a
 * terminal): `Feature: title`, then per scenario `  Scenario: title` (`Scenario Outline: title -- @1.1 Examples`) and
 * its steps, each ending in its status (`    Given a jar ... passed`, `... failed in 0.001s`); a failed step is followed
 * by its message (`Assertion Failed: …`, a traceback). The run ends in behave's `Failing scenarios:` list
 * (`  features/jar.feature:12  Pour a cup`) and its count lines (`1 feature passed, 1 failed, 0 skipped`,
 * `3 scenarios passed, 2 failed, 0 skipped`).
 *
 * A scenario fails when a step under it ends `... failed` or `... error` (or when the list names it). Lines count only
 * under a `Feature:` line. The id is the scenario's title as printed (what `--name` selects; an outline's examples by
 * their printed title); placed at the `Failing scenarios:` entry's feature file and line when the list is there.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const FEATURE = /^\s*Feature: \S/;
const SCENARIO = /^\s*Scenario(?: Outline)?: (\S.*?)\s*$/;
const STEP =
  /^\s*(?:Given|When|Then|And|But|\*) .*? \.\.\. (passed|failed|error|skipped|undefined|untested)(?: in \d+(?:\.\d+)?s)?\s*$/;
const LIST = /^\s*Failing scenarios:\s*$/;
const ENTRY = /^\s+(\S+\.feature):(\d+)\s+(\S.*?)\s*$/;
const COUNT = /^\s*(\d+) scenarios? passed, (\d+) failed, (\d+) skipped\b/;

export function createBehaveParser(sink: ParserSink) {
  let inFeature = false;
  let listing = false;
  let scenario: { title: string; lineNo: number } | null = null;
  const failed = new Map<
    string,
    { start: number; end: number; message: string[]; file: string | null; line: number | null }
  >();
  let lastFailed: string | null = null;

  function mark(title: string, lineNo: number): void {
    const f = failed.get(title);
    if (f) f.end = lineNo;
    else if (failed.size < 10_000)
      failed.set(title, { start: lineNo, end: lineNo, message: [], file: null, line: null });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (listing) {
        const e = ENTRY.exec(text);
        if (e) {
          const title = own(e[3]!);
          mark(title, lineNo);
          const f = failed.get(title);
          if (f && f.file === null) {
            f.file = sink.path(e[1]!);
            f.line = Number(e[2]);
          }
          return true;
        }
        if (text.trim() === "") return true;
        listing = false;
      }
      if (FEATURE.test(text)) {
        inFeature = true;
        scenario = null;
        lastFailed = null;
        return true;
      }
      if (!inFeature) return false;
      if (LIST.test(text)) {
        listing = true;
        lastFailed = null;
        return true;
      }
      const s = SCENARIO.exec(text);
      if (s) {
        scenario = { title: own(s[1]!), lineNo };
        lastFailed = null;
        return true;
      }
      const st = STEP.exec(text);
      if (st) {
        lastFailed = null;
        if (scenario && (st[1] === "failed" || st[1] === "error")) {
          mark(scenario.title, lineNo);
          lastFailed = scenario.title;
          const f = failed.get(scenario.title);
          if (f) f.message.push(own(text.trim()));
        }
        return true;
      }
      const c = COUNT.exec(text);
      if (c) {
        sink.summary({ passed: Number(c[1]), failed: Number(c[2]), skipped: Number(c[3]) });
        return true;
      }
      if (lastFailed !== null && text.trim() !== "") {
        const f = failed.get(lastFailed);
        if (f && f.message.length < 40) f.message.push(own(text.trim()));
        if (f) f.end = lineNo;
        return true;
      }
      return false;
    },
    end(): void {
      for (const [title, f] of failed) {
        sink.test(title, "failed", f.file);
        sink.failure({
          category: "test",
          test: title,
          file: f.file,
          line: f.line,
          message: f.message.length > 0 ? f.message.join("\n") : `Scenario failed: ${title}`,
          start: f.start,
          end: f.end,
        });
      }
      failed.clear();
    },
  };
}

export const behaveFormat: FormatDefinition = {
  name: "behave",
  description:
    "behave's plain formatter: scenarios under `Feature:` with a step `... failed`, its `Failing scenarios:` list",
  create: createBehaveParser,
  wakesOn: [/^\s*Feature: /],
};
