/**
 * elixir-koans' own runner (`mix meditate`): it runs the koans in order and stops at the first one that fails,
 * printing `Now meditate upon <Module>`, in later versions a progress bar (`|=====>     | 114 of 180`), a rule of
 * dashes, the koan's name on a line of its own, then `Assertion failed in <file>:<line>` (an ExUnit assertion) or
 * `Error in <file>:<line>` (any other error) and the expression or error below. That one koan is the failure: its id
 * is the koan's name as printed (the `koan "…"` title), placed at the file and line the runner names. A run that
 * passes prints no such block.
 *
 * Read only in that exact order, each line right below the one before (the progress bar may be left out): an
 * `Assertion failed in` line without the runner's heading, rule and name above it is no koan's.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const HEADING = /^Now meditate upon ([A-Z]\w*(?:\.[A-Z]\w*)*)$/;
const PROGRESS = /^\|=*>?\s*\| \d+ of \d+$/;
const RULE = /^-{10,}$/;
const VERDICT = /^(Assertion failed|Error) in ((?:[\w.-]+\/)*[\w.-]+\.exs?):(\d+)$/;

export function createElixirKoansParser(sink: ParserSink) {
  /** `heading`: after the heading (or its progress bar); `rule`: after the rule; `name`: after the koan's name. */
  let state: "none" | "heading" | "rule" | "name" = "none";
  let start = 0;
  let name = "";
  let reported = 0;

  return {
    line(text: string, lineNo: number): boolean {
      const t = text.trimEnd();
      if (HEADING.test(t)) {
        state = "heading";
        start = lineNo;
        return true;
      }
      if (state === "heading") {
        if (PROGRESS.test(t)) return true;
        state = RULE.test(t) ? "rule" : "none";
        return state === "rule";
      }
      if (state === "rule") {
        state = t.trim() !== "" && !RULE.test(t) ? "name" : "none";
        if (state === "name") name = t.trim();
        return state === "name";
      }
      if (state === "name") {
        state = "none";
        const v = VERDICT.exec(t);
        if (!v || reported >= 1000) return false;
        reported++;
        const test = own(name);
        sink.test(test, "failed");
        sink.failure({
          category: "test",
          test,
          file: own(sink.path(v[2]!)),
          line: Number(v[3]),
          errorType: v[1] === "Assertion failed" ? "ExUnit.AssertionError" : null,
          message: own(`${v[1]} in ${v[2]}:${v[3]}`),
          start,
          end: lineNo,
        });
        return true;
      }
      return false;
    },
    end(): void {},
  };
}

export const elixirKoansFormat: FormatDefinition = {
  name: "elixir-koans",
  description:
    "elixir-koans' `mix meditate`: the koan named under `Now meditate upon Module`, failed at file:line",
  create: createElixirKoansParser,
  wakesOn: /^Now meditate upon /,
};
