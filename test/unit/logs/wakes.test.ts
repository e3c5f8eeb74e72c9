/**
 * A format that declares `wakesOn` (src/logs/parser.ts) is not offered lines until one matches. The declaration is a
 * promise about its parser: fresh, it returns false for every other line and keeps nothing of it. Checked here for
 * every declaring format against the lines of every bundled fixture and real corpus log: a fresh parser fed all the
 * lines that do not wake it, then a log, reports exactly what a fresh parser fed the log alone reports.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";
import type { ParserSink } from "../../../src/logs/parser.ts";
import { FORMATS } from "../../../src/logs/registry.ts";

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)],
  );
}
const fixtures = path.join(import.meta.dirname, "../../fixtures");
const logs = [
  ...walk(path.join(fixtures, "logs")).filter((f) => !/\.(expected\.json|md)$/.test(f)),
  ...walk(path.join(fixtures, "logs-real")).filter((f) => /^log\.(txt|xml)$/.test(path.basename(f))),
]
  .sort()
  .map((f) =>
    readFileSync(f, "utf8")
      .replace(/\r?\n$/, "")
      .split(/\r?\n/),
  );

/** Every call a parser makes on its sink, with the line numbers made relative to `base`. */
function recorder(base: number): { sink: ParserSink; calls: unknown[] } {
  const calls: unknown[] = [];
  const sink: ParserSink = {
    failure: (d) => calls.push(["failure", { ...d, start: d.start - base, end: d.end - base }]),
    test: (...a) => calls.push(["test", ...a]),
    summary: (c) => calls.push(["summary", c]),
    unnamed: () => calls.push(["unnamed"]),
    path: (p) => p,
  };
  return { sink, calls };
}

const sleepers = FORMATS.filter((f) => f.wakesOn !== undefined);

describe("wakesOn declarations", () => {
  it("are declared by the formats the engine puts before jest's lines, plain patterns only", () => {
    expect(sleepers.map((f) => f.name)).toEqual(
      expect.arrayContaining([
        "junit",
        "trx",
        "go-json",
        "junit-console",
        "ant-junit",
        "nunit-console",
        "hspec",
      ]),
    );
    for (const f of sleepers) for (const r of [f.wakesOn!].flat()) expect(r.flags, `${f.name} ${r}`).toBe("");
  });

  // The logs are checked in chunks, each an `it` of its own: a format that many logs wake (pytest, unittest) feeds the
  // whole corpus's quiet lines once per waking log, which on a loaded machine outlasts one test's timeout. Every log
  // is still checked, with the same assertions.
  const CHUNK = 20;
  for (const def of sleepers) {
    const patterns = [def.wakesOn!].flat();
    const wakes = (l: string) => patterns.some((r) => r.test(l));
    // Only logs that wake the format tell anything: the others it never sees.
    const woken = logs.filter((log) => log.some(wakes));
    let quiet: string[] | null = null;
    const quietLines = () => {
      quiet ??= logs.flat().filter((l) => !wakes(l));
      return quiet;
    };
    it(`${def.name}: the corpus holds many lines that do not wake it`, () => {
      expect(quietLines().length).toBeGreaterThan(10_000);
    });
    for (let from = 0; from < woken.length; from += CHUNK) {
      const chunk = woken.slice(from, from + CHUNK);
      it(`${def.name}: a fresh parser ignores, and keeps nothing of, every corpus line that does not wake it (logs ${from + 1}–${from + chunk.length} of ${woken.length})`, () => {
        const quiet = quietLines();
        for (const log of chunk) {
          const a = recorder(quiet.length);
          const pa = def.create(a.sink);
          quiet.forEach((l, i) => {
            if (pa.line(l, i + 1)) throw new Error(`${def.name} claimed a line that does not wake it: ${l}`);
          });
          for (const [i, l] of log.entries()) pa.line(l, quiet.length + i + 1);
          pa.end();
          const b = recorder(quiet.length);
          const pb = def.create(b.sink);
          for (const [i, l] of log.entries()) pb.line(l, quiet.length + i + 1);
          pb.end();
          expect(a.calls).toEqual(b.calls);
        }
      });
    }
  }

  it("a format that first appears late in a log is read from there, as when it is alone", () => {
    const junit = `<testsuite name="s" tests="1" failures="1"><testcase classname="a.B" name="c"><failure message="boom"/></testcase></testsuite>`;
    const noise = Array.from({ length: 50 }, (_, i) => `step ${i}: Testcase Test Count: ok <b>`).join("\n");
    const alone = parseLog(junit);
    const late = parseLog(`${noise}\n${junit}`);
    expect(late.failures.map((f) => [f.format, f.test, f.message])).toEqual(
      alone.failures.map((f) => [f.format, f.test, f.message]),
    );
    expect(late.failures.map((f) => f.test)).toEqual(["a.B.c"]);
  });
});
