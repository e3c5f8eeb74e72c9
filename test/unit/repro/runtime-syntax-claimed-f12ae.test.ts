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
