/**
 * Which cases of the real corpus the package-use guard (src/repro/package-use.ts) may turn, without Docker: each
 * case whose last recorded verdict in this session's result files is REPRODUCED (or PARTIAL), whose source
 * repository maps to a package (repository-packages.json), and whose program, completed from the report as
 * `retrace repro` completes it (else the load-error or prose-call program), does not load that package. Those are
 * the cases to re-run with `npm run bench -- repro-real --only … --jobs 1`.
 *
 *   npx tsx bench/package-use-scan.ts [results.jsonl …]   (default: the s18 dev run and the hold*-first/tainted files)
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { completeProgram } from "../src/repro/complete.ts";
import { readExpectations } from "../src/repro/context.ts";
import { impliedLoad } from "../src/repro/load-error.ts";
import { isRuntimePackage, packageNotUsed, programLoadsPackage } from "../src/repro/package-use.ts";
import { parseReport } from "../src/repro/parse-report.ts";
import { proseCallFor } from "../src/repro/prose-call-program.ts";

const here = path.join(import.meta.dirname);
const root = path.join(here, "..", "test", "fixtures", "repro-real");
const resultsDir = path.join(here, "results");
const packages = JSON.parse(readFileSync(path.join(root, "repository-packages.json"), "utf8"))
  .repositories as Record<string, string>;

const given = process.argv.slice(2);
const files = (
  given.length > 0
    ? given
    : readdirSync(resultsDir)
        .filter(
          (n) =>
            n === "repro-real-dev-s18-fac06a8a-2026-11-28.jsonl" ||
            /^repro-real-hold\d+.*(?:first|tainted).*\.jsonl$/.test(n),
        )
        .map((n) => path.join(resultsDir, n))
)
  // Oldest first, so the last line read for a case is its last recorded verdict.
  .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs || a.localeCompare(b));
const last = new Map<string, { got: string; file: string }>();
for (const file of files)
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.startsWith('{"id"')) continue;
    const r = JSON.parse(line) as { id: string; got: string };
    last.set(r.id, { got: r.got, file: path.basename(file) });
  }

let scanned = 0;
for (const [id, { got, file }] of [...last].sort()) {
  if (got !== "REPRODUCED" && got !== "PARTIAL") continue;
  const dir = path.join(root, id);
  if (!existsSync(path.join(dir, "report.md"))) continue;
  scanned++;
  const md = readFileSync(path.join(dir, "report.md"), "utf8");
  const c = JSON.parse(readFileSync(path.join(dir, "case.json"), "utf8")) as {
    source: string;
    expected: string;
  };
  const repo = /^([\w.-]+\/[\w.-]+)#/.exec(c.source)?.[1];
  const pkg = repo ? packages[repo] : undefined;
  if (!pkg || isRuntimePackage(pkg)) continue;
  const report = parseReport(md);
  const { expectations } = readExpectations(report);
  const prose = proseCallFor(report, md, pkg);
  const program =
    completeProgram(report, expectations.invocation, pkg) ??
    (expectations.actual.kind === "unknown" ? impliedLoad(md, pkg)?.program : null) ??
    (prose && "program" in prose ? prose.program : null);
  if (!program) continue;
  const why = packageNotUsed(program, pkg, report);
  const loads = programLoadsPackage(program, pkg);
  if (!loads)
    console.log(
      `${id}\tlast ${got} (${file})\texpected ${c.expected}\t${pkg}\t${program.runtime}\t${why ? "GUARD FIRES (the other language's code uses it)" : "stands (no code of the other language uses it)"}`,
    );
}
console.error(`${files.length} result files, ${scanned} cases last REPRODUCED/PARTIAL scanned`);
