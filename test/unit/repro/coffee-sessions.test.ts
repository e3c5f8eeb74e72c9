/**
 * A CoffeeScript REPL session (`coffee> x = require 'y'`) read as the Node session it stands for, the module dump
 * a `require` echoes left out of the claim, and "my version is `1.6.10`" read as the release used. Reports written
 * for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { coffeeAsNode, parseTranscript } from "../../../src/repro/transcript.ts";
import { findBareVersions } from "../../../src/repro/versions.ts";
import { cpuMs } from "../../support/cpu-time.ts";

const f = "```";
const session = [
  "$ coffee",
  "coffee> slug = require 'tiny-slug'",
  "{ [Function: slug]",
  "  options: { lower: true } }",
  "coffee> slug 'Hello World'",
  "'hello_world'",
  "coffee> slug('A  B').length",
  "4",
].join("\n");
const report = `# slug joins words with an underscore\n\nMy version is \`2.1.0\`:\n\n${f}\n${session}\n${f}\n\nThe docs say words are joined with \`-\`.\n`;

describe("a CoffeeScript REPL session", () => {
  it("is a Node session whose calls without parentheses get them", () => {
    expect(coffeeAsNode(session)).toBe(
      [
        "$ coffee",
        "> slug = require('tiny-slug')",
        "{ [Function: slug]",
        "  options: { lower: true } }",
        "> slug('Hello World')",
        "'hello_world'",
        "> slug('A  B').length",
        "4",
      ].join("\n"),
    );
    expect(coffeeAsNode("> 1 + 1\n2")).toBeNull();
  });

  it("leaves other CoffeeScript as typed, for the run to name the line", () => {
    expect(coffeeAsNode("coffee> square = (x) -> x * x")).toBe("> square = (x) -> x * x");
  });

  it("runs as a Node script, and the claim is what the calls printed, not the module's dump", () => {
    const r = parseReport(report);
    expect(r.blocks[0]?.kind).toBe("node-transcript");
    const e = reportedExpectations(r);
    expect(e.actual).toMatchObject({ kind: "output", output: ["'hello_world'", "4"] });
    const p = completeProgram(r);
    expect(p?.files[p.entry]).toContain("_echo(slug('Hello World'));");
    expect(p?.dependencies).toEqual(["tiny-slug"]);
    expect(r.bareVersions).toEqual(["2.1.0"]);
  });
});

describe("a module's dump under a require at a Node prompt", () => {
  it("is not printed output of the session", () => {
    const t = parseTranscript(
      "> const m = require('mod');\n> m = require(\"mod\")\n{ a: [Function: a] }\n> m.a(1)\n2",
      "node",
    );
    expect(t.output).toEqual(["2"]);
  });
});

describe("a version named with `is`", () => {
  it("is read like `version 1.2`, in linear time after a long run of spaces", () => {
    expect(findBareVersions("Version is 4.2.0 here; release: 1.0")).toEqual(["4.2.0", "1.0"]);
    const { ms } = cpuMs(() =>
      findBareVersions(`version is${" ".repeat(60_000)}x\n1.2.3${" ".repeat(60_000)}x`),
    );
    expect(ms).toBeLessThan(500);
  });
});
