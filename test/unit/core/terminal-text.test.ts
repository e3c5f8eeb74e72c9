import { describe, expect, it } from "vitest";
import { terminalJson, terminalText } from "../../../src/core/terminal-text.ts";
import { cpuMs } from "../../support/cpu-time.ts";

describe("terminalText: what a terminal is shown acts on nothing", () => {
  it("writes ESC sequences, C1 controls, backspace, carriage return and bidi controls as visible escapes", () => {
    expect(terminalText("a\u001b]52;c;eA==\u0007b")).toBe("a\\u{1b}]52;c;eA==\\u{7}b");
    expect(terminalText("\u001b[2J\u001b[H✅ Reproduced")).toBe("\\u{1b}[2J\\u{1b}[H✅ Reproduced");
    expect(terminalText("\u009b2J\u009d0;t\u0085")).toBe("\\u{9b}2J\\u{9d}0;t\\u{85}");
    expect(terminalText("test_x\b\b ok\rdone")).toBe("test_x\\u{8}\\u{8} ok\\u{d}done");
    expect(terminalText("all \u202edeliaf\u202c \u2066x\u2069")).toBe(
      "all \\u{202e}deliaf\\u{202c} \\u{2066}x\\u{2069}",
    );
  });

  it("keeps tabs, newlines, ordinary unicode and turns CRLF line ends into newlines (control)", () => {
    expect(terminalText("a\tb\nc ✖ é 中\r\nd")).toBe("a\tb\nc ✖ é 中\nd");
  });

  it("is linear: 256 KiB of ESC takes well under a second", () => {
    const { value, ms } = cpuMs(() => terminalText("\u001b".repeat(1 << 18)));
    expect(value.length).toBe(6 << 18);
    expect(ms).toBeLessThan(1_500);
  });
});

describe("terminalJson: the same document for a parser, inert on a terminal", () => {
  it("escapes C1 and bidi characters JSON.stringify leaves raw", () => {
    const value = { out: "\u009b2J \u202eevil \u2028 \u001b ok" };
    const json = terminalJson(JSON.stringify(value));
    expect(json).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2028]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});
