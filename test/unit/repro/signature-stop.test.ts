/**
 * A run that stops on a call its callee does not take (Python's "missing N required positional arguments", "takes N
 * positional arguments but M were given", "got an unexpected keyword argument"), raised at the code's own line: the
 * call as written (a sentence naming `f()` without its arguments, another release's signature) never reached the
 * reported behaviour, so the answer is a question, not PARTIAL. Raised inside the library, or reported as the bug,
 * it stays evidence. Runs written for this test.
 */
import { describe, expect, it } from "vitest";
import { matchRun } from "../../../src/repro/match.ts";
import type { ReportedBehaviour } from "../../../src/repro/result.ts";
import { run } from "./observed-run.ts";

const unknown: ReportedBehaviour = {
  kind: "unknown",
  exceptionType: null,
  exceptionMessage: null,
  output: [],
  source: "nothing in the report",
};
const outputClaim: ReportedBehaviour = { ...unknown, kind: "output", output: ["b'\\x00'"] };
const typeErrorClaim: ReportedBehaviour = {
  ...unknown,
  kind: "exception",
  exceptionType: "TypeError",
  exceptionMessage: null,
};

const ownLine = (message: string) =>
  run({
    exitCode: 1,
    stderr: `Traceback (most recent call last):\n  File "/work/reproduction.py", line 3, in <module>\n    mac.digest()\nTypeError: ${message}\n`,
    exception: { type: "TypeError", message },
  });

describe("a call the code's own line makes with arguments its callee does not take", () => {
  it("is a question naming the call, not a partial reproduction", () => {
    for (const message of [
      "digest() missing 3 required positional arguments: 'key', 'msg', and 'digest'",
      "pack() takes 2 positional arguments but 3 were given",
      "dumps() got an unexpected keyword argument 'indnt'",
    ]) {
      for (const claim of [unknown, outputClaim]) {
        const m = matchRun(claim, ownLine(message));
        expect(m.kind, message).toBe("needs");
        expect(m.question).toContain(`${message.split("(")[0]}()`);
      }
    }
  });

  it("stays evidence when the report names that TypeError as the bug", () => {
    const m = matchRun(typeErrorClaim, ownLine("pack() takes 2 positional arguments but 3 were given"));
    expect(m.kind).not.toBe("needs");
  });

  it("stays evidence when raised inside the library, or for another TypeError", () => {
    const inLibrary = run({
      exitCode: 1,
      stderr:
        'Traceback (most recent call last):\n  File "/work/reproduction.py", line 3, in <module>\n    mac.digest()\n  File "/usr/lib/python3.11/hmac.py", line 180, in digest\n    return inner(msg)\nTypeError: inner() missing 1 required positional argument: \'x\'\n',
      exception: { type: "TypeError", message: "inner() missing 1 required positional argument: 'x'" },
    });
    expect(matchRun(unknown, inLibrary).kind).not.toBe("needs");
    expect(matchRun(unknown, ownLine("unsupported operand type(s) for +: 'int' and 'str'")).kind).not.toBe(
      "needs",
    );
  });
});
