// `npx tsx scripts/parse-log-outputs-score.ts DIR`: scores the CLI outputs `scripts/parse-log-outputs.mjs record DIR`
// wrote for every real log with bench/parse-log-real.ts's matching rules (recall, precision, location accuracy per
// split), so a whole-corpus figure comes from one 20 s record instead of one CLI process per case.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { splitOf } from "../bench/lib/split.ts";

interface Rep {
  test?: string | null;
  file?: string | null;
  line?: number | null;
}
interface Exp {
  green?: boolean;
  failures: { test?: string; file?: string; places?: { file: string; line: number }[] }[];
}
const dir = process.argv[2] ?? "";
const corpus = path.join(import.meta.dirname, "../test/fixtures/logs-real");
const tally = new Map<
  string,
  { e: number; f: number; r: number; l: number; L: number; g: number; gw: number }
>();
for (const id of readdirSync(corpus)
  .filter((d) => existsSync(path.join(corpus, d, "expected.json")))
  .sort()) {
  const exp = JSON.parse(readFileSync(path.join(corpus, id, "expected.json"), "utf8")) as Exp;
  const meta = JSON.parse(readFileSync(path.join(corpus, id, "case.json"), "utf8")) as { log?: string };
  const out = readFileSync(path.join(dir, `real__${id}__${meta.log ?? "log.txt"}.out`), "utf8");
  const json = out.slice(out.indexOf("\n{") + 1);
  const got = (JSON.parse(json.slice(0, json.indexOf("\n}") + 2)) as { failures: Rep[] }).failures;
  const split = splitOf(id);
  const s = tally.get(split) ?? { e: 0, f: 0, r: 0, l: 0, L: 0, g: 0, gw: 0 };
  tally.set(split, s);
  const used = new Set<number>();
  for (const e of exp.failures) {
    const i = got.findIndex(
      (r, k) =>
        !used.has(k) &&
        (e.test !== undefined
          ? r.test === e.test
          : r.test == null && e.file !== undefined && r.file === e.file),
    );
    if (i < 0) continue;
    used.add(i);
    if (e.places?.length) {
      s.L++;
      if (e.places.some((p) => p.file === got[i]!.file && p.line === got[i]!.line)) s.l++;
    }
  }
  s.e += exp.failures.length;
  s.f += used.size;
  s.r += got.length;
  if (exp.green) {
    s.g++;
    if (got.length) s.gw++;
  }
}
const r3 = (a: number, b: number) => Number((a / b).toFixed(3));
for (const [k, s] of [...tally].sort())
  console.log(
    k,
    JSON.stringify({
      recall: r3(s.f, s.e),
      precision: r3(s.f, s.r),
      locationAccuracy: r3(s.l, s.L),
      expectedFailures: s.e,
      reportedFailures: s.r,
      greenLogs: s.g,
      greenLogsWithFailures: s.gw,
    }),
  );
