/**
 * A Node REPL session whose fence cut off the first prompt (pid/speakingurl#11's shape): the first line binds the
 * module (`slug=require("speakingurl")`) and its dump follows. That line is the session's first input, so the
 * name it binds is defined. Sessions written here.
 */
import { describe, expect, it } from "vitest";
import { parseTranscript } from "../../../src/repro/transcript.ts";

describe("a Node session's first input without its prompt", () => {
  it("binds the module the later inputs use", () => {
    const t = parseTranscript(
      `kebab=require("tiny-kebab")\n[Function: toKebab]\n> kebab("Hello World")\n'hello-world'\n`,
      "node",
    );
    expect(t.inputs).toEqual(['kebab=require("tiny-kebab")', 'kebab("Hello World")']);
    expect(t.output).toEqual(["'hello-world'"]);
  });

  it("only a module binding on the first line; other text before the first prompt stays out", () => {
    expect(parseTranscript(`Welcome to Node.js v18.0.0.\n> 1 + 1\n2\n`, "node").inputs).toEqual(["1 + 1"]);
    expect(parseTranscript(`kebab("x")\n> 1 + 1\n2\n`, "node").inputs).toEqual(["1 + 1"]);
    expect(parseTranscript(`note\nk = require("y")\n> 1 + 1\n2\n`, "node").inputs).toEqual(["1 + 1"]);
    // Python sessions are not read this way.
    expect(parseTranscript(`x = require("y")\n>>> 1 + 1\n2\n`, "python").inputs).toEqual(["1 + 1"]);
  });
});
