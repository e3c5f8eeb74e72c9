/**
 * The CLI's human output goes through terminalText: a report's program output, a patch path and a config key
 * reach the terminal inert (the real CLI, from source).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { printCommandOutput } from "../../../src/cli/print.ts";

const BIN = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../../bin/retrace.mjs");
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function cli(args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    env: { ...process.env, RETRACE_CLI_FROM_SOURCE: "1" },
    timeout: 60_000,
  });
}

describe("retrace prints nothing a terminal acts on", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "retrace-print-"));

  it("policy: a patch path holding OSC and a bidi override is shown escaped", () => {
    const name = "src/\u001b]0;t\u0007\u202eevil.js";
    const p = path.join(dir, "p.diff");
    writeFileSync(
      p,
      `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n@@ -1 +1 @@\n-a\n+b // eslint-disable-line\n`,
    );
    const r = cli(["policy", p]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("\\u{1b}]0;t\\u{7}\\u{202e}evil.js");
    expect(r.stdout + r.stderr).not.toMatch(ACTIVE);
  }, 60_000);

  it("a config error quoting keys written with escapes is shown escaped; --json stays parseable", () => {
    const c = path.join(dir, "retrace.yml");
    writeFileSync(c, `"\\e]0;t\\a": 1\n`);
    const p = path.join(dir, "ok.diff");
    writeFileSync(p, "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
    const r = cli(["policy", p, "--config", c]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("\\u{1b}]0;t\\u{7}");
    expect(r.stderr).not.toMatch(ACTIVE);
    const j = cli(["policy", "--json", path.join(dir, "p.diff")]);
    expect(j.stdout).not.toMatch(ACTIVE);
    expect(JSON.parse(j.stdout).violations[0].file).toContain("\u202eevil.js");
  }, 60_000);
});

describe("printCommandOutput (retrace sandbox run): inert on a terminal, exact to a pipe", () => {
  const sink = (isTTY: boolean) => {
    const written: string[] = [];
    return { isTTY, written, write: (t: string) => written.push(t) > 0 };
  };
  const text = "A\u001b]52;c;eHh4\u0007B\u009b2J\u202e\r\nC\u0000\n";

  it("a terminal is shown every control as a visible escape", () => {
    const tty = sink(true);
    printCommandOutput(text, tty);
    expect(tty.written.join("")).toBe("A\\u{1b}]52;c;eHh4\\u{7}B\\u{9b}2J\\u{202e}\nC\\u{0}\n");
  });

  it("a pipe or file gets the exact text", () => {
    const pipe = sink(false);
    printCommandOutput(text, pipe);
    expect(pipe.written.join("")).toBe(text);
  });
});
