/**
 * A `> ` quote right under a code block, every line of it a value, is what that code printed (a common way to show
 * a result in an issue). A quoted sentence, a quote far from any code, or a quote of prose values is not. Reports
 * written for this test.
 */
import { describe, expect, it } from "vitest";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const report = (quote: string, between = "") =>
  [
    "# range() gives odd values",
    "",
    "With this call the first value comes out wrong:",
    "```js",
    "lib.range([3, 1, 2], 0.5)",
    "```",
    between,
    quote,
    "",
  ].join("\n");

describe("a quote under a code block", () => {
  it("is the code's output when every line is a value", () => {
    const parsed = parseReport(report("> [ NaN, 1.5, 2 ]"));
    expect(parsed.blocks.map((b) => [b.kind, b.value])).toEqual([
      ["code", "lib.range([3, 1, 2], 0.5)"],
      ["output", "[ NaN, 1.5, 2 ]"],
    ]);
    expect(reportedExpectations(parsed).actual).toMatchObject({
      kind: "output",
      output: ["[ NaN, 1.5, 2 ]"],
    });
    // The one expression above prints nothing itself: it is echoed, as a REPL shows it.
    expect(parsed.blocks[0]!.runValue).toBe("_echo(lib.range([3, 1, 2], 0.5));");
    expect(parsed.blocks[0]!.usesEcho).toBe(true);
  });

  it("is not when it quotes a sentence, or stands apart from the code", () => {
    for (const text of [
      report("> Note: the docs say this returns the sorted values."),
      report(
        "> [ NaN, 1.5, 2 ]",
        "Some words in between that say something else entirely.\n\nAnd more words.",
      ),
    ]) {
      expect(parseReport(text).blocks.map((b) => b.kind)).toEqual(["code"]);
    }
  });
});
