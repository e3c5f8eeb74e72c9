/**
 * The runtime rule when the report claims an error (issue 12, hold22 typing-143407): a run that stops parsing on
 * syntax a later release added (a 3.12 `type` alias on 3.11) never ran the report's code, so the shortfall stands
 * even when the report claims "an error" or a SyntaxError — the run's error then matches the claim only by name.
 * A claimed SyntaxError on a line holding no newer syntax stays the report's (judged normally). Errors written for
 * these tests.
 */
import { describe, expect, it } from "vitest";
import { runtimeShortfall } from "../../../src/repro/runtime-rule.ts";

const parseError = (line: string, message = "invalid syntax") => ({
  exception: { type: "SyntaxError", message },
  stderr: `@@retrace-runtime 3.11.2\n  File "/workspace/reproduction.py", line 2\n${line}\n         ^^\nSyntaxError: ${message}\n`,
});
const base = { runtime: "python" as const, sandbox: "3.11.2", claims: true, named: ["3.14"] };

describe("a claimed error never excuses syntax this runtime lacks", () => {
  it("a `type` alias under a claim of `Error`, of a SyntaxError, of its very message", () => {
    for (const [claimedType, claimedMessage] of [
      ["Error", null],
      ["SyntaxError", null],
      ["SyntaxError", "invalid syntax"],
      ["TypeError", "typealias() takes exactly 2 positional arguments (3 given)"],
    ] as const) {
      const d = runtimeShortfall({
        ...base,
        claimedType,
        claimedMessage,
        runs: [parseError("    type TA = int"), parseError("    type TA = int")],
      });
      expect(d).toMatchObject({ needs: "3.14", syntax: true, ran: "3.11.2" });
      expect(d?.why).toContain("a `type` alias (PEP 695), syntax Python 3.12 added");
    }
    // No runtime named: the syntax's own release.
    expect(
      runtimeShortfall({
        ...base,
        named: [],
        claimedType: "SyntaxError",
        runs: [parseError("    def first[T](xs: list[T]) -> T:")],
      }),
    ).toMatchObject({ needs: "3.12", syntax: true });
  });

  it("must not fire: a claimed SyntaxError on a line with no newer syntax, a sandbox that has the syntax", () => {
    expect(
      runtimeShortfall({ ...base, claimedType: "SyntaxError", runs: [parseError("    print(a b)")] }),
    ).toBeNull();
    expect(
      runtimeShortfall({
        ...base,
        sandbox: "3.12.1",
        claimedType: "SyntaxError",
        runs: [parseError("    type TA = int")],
      }),
    ).toBeNull();
  });

  it("must not fire (rv21 F3): the report names the sandbox's own line and quotes this very error", () => {
    // Python `type Point = …` reported on 3.11 to give `SyntaxError: invalid syntax`: the report's run was ours.
    expect(
      runtimeShortfall({
        ...base,
        named: ["3.11"],
        claimedType: "SyntaxError",
        claimedMessage: "invalid syntax",
        runs: [parseError("    type Point = tuple[float, float]")],
      }),
    ).toBeNull();
    // Node 18 report ("lib@N breaks on Node 18") claiming "Invalid regular expression flags" for a `v` flag.
    expect(
      runtimeShortfall({
        runtime: "node",
        sandbox: "v18.20.4",
        claims: true,
        named: ["18"],
        claimedType: "SyntaxError",
        claimedMessage: "Invalid regular expression flags",
        runs: [
          {
            exception: { type: "SyntaxError", message: "Invalid regular expression flags" },
            stderr:
              "/workspace/reproduction.cjs:2\nconst re = /[\\p{L}--[a-z]]/v;\n           ^\n\nSyntaxError: Invalid regular expression flags\n    at internalCompileFunction (node:internal/vm:76:18)\n    at wrapSafe (node:internal/modules/cjs/loader:1283:20)\n    at Module._compile (node:internal/modules/cjs/loader:1328:27)\n    at node:internal/main/run_main_module:28:49\n\nNode.js v18.20.4\n",
          },
        ],
      }),
    ).toBeNull();
  });

  it("still fires (typing-143407's shape): the sandbox's line named but the message not quoted, or another line named", () => {
    expect(
      runtimeShortfall({
        ...base,
        named: ["3.11", "3.14"],
        claimedType: "SyntaxError",
        claimedMessage: null,
        runs: [parseError("    type TA = int")],
      }),
    ).toMatchObject({ syntax: true });
    expect(
      runtimeShortfall({
        ...base,
        named: ["3.14"],
        claimedType: "SyntaxError",
        claimedMessage: "invalid syntax",
        runs: [parseError("    type TA = int")],
      }),
    ).toMatchObject({ needs: "3.14", syntax: true });
  });

  it("other lacks keep the claimed-error exemption and carry no syntax mark", () => {
    const kw = {
      exception: { type: "TypeError", message: "f() got an unexpected keyword argument 'strict'" },
      stderr:
        "Traceback (most recent call last):\nTypeError: f() got an unexpected keyword argument 'strict'\n",
    };
    expect(runtimeShortfall({ ...base, claimedType: "TypeError", runs: [kw] })).toBeNull();
    const d = runtimeShortfall({ ...base, claimedType: "ValueError", runs: [kw] });
    expect(d).not.toBeNull();
    expect(d?.syntax).toBeUndefined();
  });
});
