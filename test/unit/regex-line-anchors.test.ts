/**
 * A class of host-time escape the red teams found three times (waves 2-4): a pattern anchored at a line start
 * under the `m` flag whose first element is `\s*` or `\s+`. `\s` also matches a newline, so at each line start
 * of a run of blank lines the pattern rescans the rest of the run: quadratic (cubic when the caller loops) in
 * text a report, log, repository file or test file controls. `[ \t]*` (indentation) is what such patterns mean.
 * This test reads src/ as text and names every such pattern, so the class cannot come back unnoticed.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(import.meta.dirname, "../../src");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
  );
}

/** A regex literal (no `/` inside a class handled: good enough for src's patterns) and its flags. */
const LITERAL = /\/((?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n[])+)\/([dgimsuvy]*)/g;
/** `^` followed by `\s*`, `\s+`, `\s{n,}` or `\s*?`, possibly inside a leading group. */
const LINE_START_SPACE = /\^(?:\(\?:)?\\s[*+{]/;

function spanningPatterns(text: string): string[] {
  const found: string[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (/^\s*(\/\/|\*)/.test(line)) continue;
    for (const m of line.matchAll(LITERAL)) {
      if (m[2]!.includes("m") && LINE_START_SPACE.test(m[1]!)) found.push(`${i + 1}: /${m[1]}/${m[2]}`);
    }
    // new RegExp("^\\s*…", "…m…")
    const ctor = /new RegExp\(\s*(["'`])(.*?)\1\s*,\s*["'`]([dgimsuvy]*)["'`]/.exec(line);
    if (ctor && ctor[3]!.includes("m") && /\^(?:\(\?:)?\\\\s[*+{]/.test(ctor[2]!))
      found.push(`${i + 1}: ${ctor[0]}`);
  }
  return found;
}

describe("line-anchored patterns never span lines", () => {
  it("the detector sees the class and lets its cure through", () => {
    expect(spanningPatterns("const a = /^\\s*import\\s+(\\w+)/gm;")).toHaveLength(1);
    expect(spanningPatterns("const a = /^(?:\\s+)at /m;")).toHaveLength(1);
    expect(spanningPatterns('const a = new RegExp("^\\\\s*x", "m");')).toHaveLength(1);
    expect(spanningPatterns("const a = /^[ \\t]*import\\s+(\\w+)/gm;")).toHaveLength(0);
    expect(spanningPatterns("const a = /^\\s*import/;")).toHaveLength(0); // no m flag: anchored once
    // And the class is real: a run of blank lines costs quadratic time under the spanning form only.
    const blank = "\n".repeat(20_000);
    const t0 = process.hrtime.bigint();
    /^[ \t]*import\s/m.test(blank);
    const linear = Number(process.hrtime.bigint() - t0);
    const t1 = process.hrtime.bigint();
    /^\s*import\s/m.test(blank);
    const spanning = Number(process.hrtime.bigint() - t1);
    expect(spanning).toBeGreaterThan(linear * 20);
  });

  it("no pattern in src/ starts a line with a whitespace run under the m flag", () => {
    const offenders = files(SRC).flatMap((f) =>
      spanningPatterns(readFileSync(f, "utf8")).map((hit) => `${path.relative(SRC, f)}:${hit}`),
    );
    expect(offenders).toEqual([]);
  });
});
