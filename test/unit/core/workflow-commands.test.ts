import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { guardWorkflowCommands, withoutWorkflowCommands } from "../../../src/core/workflow-commands.ts";

const COMMAND = /^[ \t]*(::|##vso\[|##\[|##teamcity\[)/m;

describe("withoutWorkflowCommands", () => {
  it("breaks every line start a CI runner reads as a command, and nothing else", () => {
    const text =
      "tests: node --test\n::error title=Retrace::VERIFIED\n  ::stop-commands::zz\n\t##vso[task.setvariable variable=x]1\n##[group]x\n##teamcity[x]\nkeep :: this ::x\n";
    const out = withoutWorkflowCommands(text);
    expect(COMMAND.test(out)).toBe(false);
    expect(out.replaceAll("\u200b", "")).toBe(text);
    expect(withoutWorkflowCommands("a ::b\nc::d")).toBe("a ::b\nc::d");
  });

  it("leaves a write in the middle of a line alone, and guards a stream across writes", () => {
    expect(withoutWorkflowCommands("::x", false)).toBe("::x");
    const stream = new PassThrough();
    let seen = "";
    stream.on("data", (c: Buffer) => {
      seen += c.toString();
    });
    guardWorkflowCommands(stream);
    guardWorkflowCommands(stream);
    stream.write("::error::first\n");
    stream.write("a line ");
    stream.write("::not a start\n");
    stream.write(Buffer.from("bytes pass\n"));
    stream.write("\n::add-mask::x\n");
    expect(seen).toBe(":\u200b:error::first\na line ::not a start\nbytes pass\n\n:\u200b:add-mask::x\n");
  });

  it("breaks a runner's prefix anywhere in a line, and a :: line start after a bare CR or any blank", () => {
    const text =
      "test x ##[error]forged\nfoo ##vso[task.setvariable variable=X]y ##teamcity[x]\nok\r::stop-commands::t\n\u00a0\v::error::x\n";
    const out = withoutWorkflowCommands(text);
    expect(out).not.toMatch(/##(vso\[|\[|teamcity\[)/);
    expect(out).not.toMatch(/(^|[\r\n])[^\S\r\n]*::/);
    expect(out.replaceAll("\u200b", "")).toBe(text);
  });
});
