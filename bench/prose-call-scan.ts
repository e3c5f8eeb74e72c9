/**
 * Which cases of the real corpus the prose-call rule (src/repro/prose-call.ts) touches, without Docker: for each
 * report, whether its own code completes into a program (then the rule never fires) and, when it does not, what
 * the rule reads from its prose (a call plan with the claimed lines, or a question). Each touched case is to be
 * checked by reading: a case whose expected verdict is NEEDS_INFO must never end REPRODUCED.
 *
 *   npx tsx bench/prose-call-scan.ts
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { completeProgram } from "../src/repro/complete.ts";
import { readExpectations } from "../src/repro/context.ts";
import { impliedLoad } from "../src/repro/load-error.ts";
import { parseReport } from "../src/repro/parse-report.ts";
import { proseCallFor } from "../src/repro/prose-call-program.ts";

const root = path.join(import.meta.dirname, "..", "test", "fixtures", "repro-real");
const packages = JSON.parse(readFileSync(path.join(root, "repository-packages.json"), "utf8"))
  .repositories as Record<string, string>;
let cases = 0;
for (const id of readdirSync(root).sort()) {
  const file = path.join(root, id, "report.md");
  if (!existsSync(file)) continue;
  cases++;
  const md = readFileSync(file, "utf8");
  const c = JSON.parse(readFileSync(path.join(root, id, "case.json"), "utf8")) as {
    source: string;
    expected: string;
  };
  const repo = /^([\w.-]+\/[\w.-]+)#/.exec(c.source)?.[1];
  const pkg = repo ? packages[repo] : undefined;
  const report = parseReport(md);
  const { expectations } = readExpectations(report);
  const own =
    completeProgram(report, expectations.invocation, pkg) ??
    (expectations.actual.kind === "unknown" ? impliedLoad(md, pkg)?.program : null) ??
    null;
  if (own) continue;
  const r = proseCallFor(report, md, pkg);
  if (!r) continue;
  const what = "program" in r ? `PLAN ${JSON.stringify(r.actual.output)}` : `ASK ${r.ask.question}`;
  console.log(`${id}\texpected ${c.expected}\t${what}`);
}
console.error(`${cases} cases scanned`);
