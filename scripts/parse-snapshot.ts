/**
 * What the reproduction pipeline derives from a report before it runs anything (the sanitized text's reading:
 * code blocks, versions, inline code, expectations, or why it was unreadable), for every bundled report: each
 * test/fixtures/repro-real/<id>/report.md (all prefixes, held-out sets included), test/fixtures/repro-corpus
 * and test/fixtures/gaming and test/fixtures/bound-markdown reports, and examples/*.md. One JSON line per report, sorted, so two source trees can
 * be diffed (issue 14: neutralising pathological markdown must not change a real report's reading):
 *
 *   node --import tsx scripts/parse-snapshot.ts [--src <dir of a checkout's src>] > after.jsonl
 *   node --import tsx scripts/parse-snapshot.ts --src /path/to/old/src > before.jsonl && diff before.jsonl after.jsonl
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.join(import.meta.dirname, "..");
const args = process.argv.slice(2);
const src = path.resolve(args.includes("--src") ? args[args.indexOf("--src") + 1]! : path.join(root, "src"));
const { readReport, readExpectations } = (await import(
  path.join(src, "repro", "context.ts")
)) as typeof import("../src/repro/context.ts");

function reports(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...reports(p));
    else if (e.name.endsWith(".md") && e.name !== "README.md") out.push(p);
  }
  return out;
}
const files = [
  ...[
    "test/fixtures/repro-real",
    "test/fixtures/repro-corpus",
    "test/fixtures/gaming",
    "test/fixtures/bound-markdown",
    "examples",
  ].flatMap((d) =>
    statSync(path.join(root, d), { throwIfNoEntry: false }) ? reports(path.join(root, d)) : [],
  ),
].sort();
// A generous limit: this records readings, not speed (the machine is shared).
const LIMIT_MS = 60_000;
for (const file of files) {
  const markdown = readFileSync(file, "utf8");
  const read = readReport(markdown, LIMIT_MS);
  const expected = read.unreadable ? null : readExpectations(read.report, LIMIT_MS);
  console.log(
    JSON.stringify({
      file: path.relative(root, file),
      unreadable: read.unreadable ?? expected?.unreadable ?? null,
      sanitized: read.sanitized.text,
      removed: read.sanitized.removed,
      report: read.report,
      expectations: expected?.expectations ?? null,
    }),
  );
}
