/**
 * The runtime rule for Node (issue 12): a parse error of the script itself, with a stack of Node's own loader only,
 * on a line holding syntax a later Node added (`using`, the RegExp `v` flag, RegExp modifiers) is the runtime's
 * lack — an infrastructure error naming the Node the code needs, never a verdict, whatever the report claims. A
 * SyntaxError the code raises while it runs, or a parse error on a line with no newer syntax, stays the report's.
 * The stderr shapes are Node 18.20.4's in the sandbox image, for programs written here.
 */
import { describe, expect, it } from "vitest";
import { runtimeShortfall } from "../../../src/repro/runtime-rule.ts";

const loader = [
  "    at internalCompileFunction (node:internal/vm:76:18)",
  "    at wrapSafe (node:internal/modules/cjs/loader:1283:20)",
  "    at Module._compile (node:internal/modules/cjs/loader:1328:27)",
  "    at node:internal/main/run_main_module:28:49",
].join("\n");
const parseError = (
  line: string,
  caret: string,
  message: string,
  file = "/workspace/reproduction.cjs:2",
) => ({
  exception: { type: "SyntaxError", message },
  stderr: `${file}\n${line}\n${caret}\n\nSyntaxError: ${message}\n${loader}\n\nNode.js v18.20.4\n`,
});
const base = { runtime: "node" as const, sandbox: "v18.20.4", claims: true, named: [] as string[] };

describe("syntax a later Node added, on the line Node 18 stopped parsing", () => {
  it("`using`, the `v` flag, a modifier group: a shortfall naming the Node that has it, even under a claimed error", () => {
    const cases = [
      [parseError("  using res = open();", "        ^^^", "Unexpected identifier"), "24", "`using`"],
      [
        parseError("const re = /[\\p{L}--[a-z]]/v;", "           ^", "Invalid regular expression flags"),
        "20",
        "`v` flag",
      ],
      [
        parseError(
          "const re = /(?i:a)b/;",
          "           ^^^^^^^^^",
          "Invalid regular expression: /(?i:a)b/: Invalid group",
          "file:///workspace/reproduction.mjs:1",
        ),
        "23",
        "modifier",
      ],
    ] as const;
    for (const [run, needs, what] of cases)
      for (const claimedType of [null, "Error", "SyntaxError", "TypeError"]) {
        const d = runtimeShortfall({ ...base, claimedType, runs: [run, run] });
        expect(d).toMatchObject({ needs, syntax: true, ran: "18.20.4", runtime: "node" });
        expect(d?.why).toContain(what);
      }
  });

  it("must not fire: a report about a SyntaxError the code raises while it runs (a frame of its own)", () => {
    const run = {
      exception: { type: "SyntaxError", message: "Invalid regular expression flags" },
      stderr:
        "/workspace/reproduction.cjs:2\nconst re = /[a]/v;\n           ^\n\nSyntaxError: Invalid regular expression flags\n    at new Function (<anonymous>)\n    at Object.<anonymous> (/workspace/reproduction.cjs:3:1)\n    at node:internal/main/run_main_module:28:49\n",
    };
    expect(runtimeShortfall({ ...base, claimedType: "SyntaxError", runs: [run] })).toBeNull();
    const json = {
      exception: { type: "SyntaxError", message: "Unexpected end of JSON input" },
      stderr:
        "undefined:1\n{\n\nSyntaxError: Unexpected end of JSON input\n    at JSON.parse (<anonymous>)\n    at Object.<anonymous> (/workspace/reproduction.cjs:1:6)\n",
    };
    expect(runtimeShortfall({ ...base, claimedType: "SyntaxError", runs: [json] })).toBeNull();
  });

  it("must not fire: a parse error on a line with no newer syntax, or another error on a `using` line", () => {
    const typo = parseError("const x = ;", "          ^", "Unexpected token ';'");
    expect(runtimeShortfall({ ...base, claimedType: "SyntaxError", runs: [typo] })).toBeNull();
    expect(runtimeShortfall({ ...base, claimedType: null, runs: [typo] })).toBeNull();
    // `using` as an ordinary name (`using = 1`), and a division that is no regular expression.
    expect(
      runtimeShortfall({
        ...base,
        claimedType: null,
        runs: [parseError("let using = 1 +;", "  ^", "Unexpected token ';'")],
      }),
    ).toBeNull();
    const divide = parseError("const r = a / b /v;", "     ^", "Invalid regular expression flags");
    expect(runtimeShortfall({ ...base, claimedType: null, runs: [divide] })).toBeNull();
    // A sandbox whose Node has the syntax.
    const v = parseError("const re = /[a]/v;", "           ^", "Invalid regular expression flags");
    expect(runtimeShortfall({ ...base, sandbox: "v22.1.0", claimedType: null, runs: [v] })).toBeNull();
  });
});
