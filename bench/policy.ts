/**
 * Gate throughput: evaluatePatch on a generated multi-file git diff (every rule enabled, caps raised so all
 * rules run over every line). Prints one JSON line per size; the last line has the headline figures.
 */
import { createTwoFilesPatch } from "diff";
import { evaluatePatch } from "../src/policy/index.ts";

function makePatch(files: number, linesPerFile: number): string {
  let out = "";
  for (let f = 0; f < files; f++) {
    const before = Array.from(
      { length: linesPerFile },
      (_, i) => `    value_${i} = compute(${i})  # line ${i}`,
    ).join("\n");
    const after = before.replace(/compute\((\d*7)\)/g, "compute($1 + 1)");
    const body = createTwoFilesPatch(`a/src/m${f}.py`, `b/src/m${f}.py`, `${before}\n`, `${after}\n`)
      .split("\n")
      .filter((l) => !l.startsWith("===="))
      .join("\n");
    out += `diff --git a/src/m${f}.py b/src/m${f}.py\nindex 1111111..2222222 100644\n${body}`;
  }
  return out;
}

const config = { sizeCaps: { maxFiles: 10_000, maxChangedLines: 10_000_000 } };
let last: Record<string, unknown> = {};
for (const [files, lines] of [
  [1, 200],
  [20, 500],
  [200, 1000],
] as const) {
  const patch = makePatch(files, lines);
  evaluatePatch(patch, config); // warm-up
  const runs = 5;
  const t0 = performance.now();
  let allowed = false;
  for (let i = 0; i < runs; i++) allowed = evaluatePatch(patch, config).allowed;
  const ms = (performance.now() - t0) / runs;
  // The patch is benign: a blocked verdict means the gate stopped early (a parse refusal, a cap) and the
  // time measured is not the time of every rule over every line. That is a broken bench, not a figure.
  if (!allowed) {
    process.stderr.write(
      `policy bench: the gate blocked the benign ${files}-file patch: ${JSON.stringify(evaluatePatch(patch, config).violations.slice(0, 3))}\n`,
    );
    process.exit(1);
  }
  last = {
    bench: "policy",
    files,
    patchBytes: patch.length,
    patchLines: patch.split("\n").length,
    msPerPatch: Number(ms.toFixed(2)),
    mbPerSec: Number((patch.length / 1e6 / (ms / 1000)).toFixed(1)),
    allowed,
  };
  process.stdout.write(`${JSON.stringify(last)}\n`);
}
