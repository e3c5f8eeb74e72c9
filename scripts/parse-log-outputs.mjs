#!/usr/bin/env node
/**
 * `node scripts/parse-log-outputs.mjs record DIR [--cli PATH] [--extra FILE...]` /
 * `node scripts/parse-log-outputs.mjs compare DIR [--cli PATH] [--extra FILE...] [--threads 1|2]`
 *
 * The compiled CLI's `retrace parse-log FILE --json` output for every log of test/fixtures/logs-real (every
 * split and prefix; outputs only, no scoring) and of the bundled fixtures in test/fixtures/logs (with
 * `--format auto`, and with the format its folder names when that is a format), plus two mixed logs (every
 * bundled fixture, then every real log, one after the other, so parsers meet each other's lines mid-log) and any
 * `--extra` file (e.g. the bench's 50 MB log kept with `npm run bench -- parse-log --keep`). `record` writes them
 * under DIR; `compare` runs them again and prints every case whose output (stdout, stderr or exit code) differs,
 * exiting 1 when any does. A performance change to the log engine must compare with zero differences.
 *
 * The CLI is build/cli/main.js (rebuilt first by scripts/cli-build.mjs), or `--cli PATH` to another build's
 * main.js (e.g. an old build kept for a side-by-side run). Every case runs in this one process through the CLI's
 * `main`, with stdout and stderr captured.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [mode, outDir, ...rest] = process.argv.slice(2);
if ((mode !== "record" && mode !== "compare") || !outDir) {
  process.stderr.write(
    "usage: node scripts/parse-log-outputs.mjs record|compare DIR [--cli PATH] [--extra FILE...] [--threads 1|2]\n",
  );
  process.exit(2);
}
// `--threads 2`: every case parsed with the reading thread (the CLI reads files of 4 MiB and up on a second thread);
// `--threads 1`: none on it. Default: the CLI's own choice.
const threadsAt = rest.indexOf("--threads");
if (threadsAt >= 0) process.env.RETRACE_PARSE_LOG_THREADS = rest[threadsAt + 1];
const cliAt = rest.indexOf("--cli");
let cli = cliAt >= 0 ? path.resolve(rest[cliAt + 1]) : null;
const extras = [];
for (let i = 0; i < rest.length; i++) if (rest[i] === "--extra") extras.push(path.resolve(rest[i + 1]));
if (!cli) {
  execFileSync(process.execPath, [path.join(root, "scripts/cli-build.mjs")], { cwd: root, stdio: "inherit" });
  cli = path.join(root, "build/cli/main.js");
}

function walk(dir) {
  const out = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out.sort();
}

const realDir = path.join(root, "test/fixtures/logs-real");
const bundledDir = path.join(root, "test/fixtures/logs");
const real = walk(realDir).filter((f) => /^log\.(txt|xml)$/.test(path.basename(f)));
const bundled = walk(bundledDir).filter((f) => !f.endsWith(".expected.json") && !f.endsWith(".md"));

// Captured output: the CLI writes through process.stdout/stderr.write (its workflow-command guard wraps these).
let captured = { out: [], err: [] };
const realOut = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...a) => {
  captured.out.push(String(chunk));
  const cb = a.find((x) => typeof x === "function");
  if (cb) cb();
  return true;
};
process.stderr.write = (chunk, ...a) => {
  captured.err.push(String(chunk));
  const cb = a.find((x) => typeof x === "function");
  if (cb) cb();
  return true;
};
const { main } = await import(pathToFileURL(cli).href);

async function run(args) {
  captured = { out: [], err: [] };
  process.exitCode = undefined;
  const code = await main(args);
  process.exitCode = undefined;
  return `exit ${code}\n--- stderr\n${captured.err.join("")}--- stdout\n${captured.out.join("")}`;
}

// The cases: [name, args].
const cases = [];
for (const f of real) cases.push([`real/${path.relative(realDir, f)}`, ["parse-log", f, "--json"]]);
const known = new Set(
  [...(await run(["parse-log", "--help"])).matchAll(/one of: ([^)]*)/g)].flatMap((m) =>
    m[1].split(/,\s*/).map((s) => s.trim()),
  ),
);
for (const f of bundled) {
  const rel = path.relative(bundledDir, f);
  cases.push([`bundled/${rel}`, ["parse-log", f, "--json"]]);
  const dirFormat = rel.split(path.sep)[0];
  if (known.has(dirFormat))
    cases.push([`bundled-format/${rel}`, ["parse-log", f, "--json", "--format", dirFormat]]);
}
const mixedDir = path.join(tmpdir(), "retrace-parse-log-outputs");
mkdirSync(mixedDir, { recursive: true });
const mixedBundled = path.join(mixedDir, "mixed-bundled.log");
writeFileSync(mixedBundled, bundled.map((f) => readFileSync(f, "utf8")).join("\n"));
const mixedReal = path.join(mixedDir, "mixed-real.log");
writeFileSync(
  mixedReal,
  real
    .filter((f) => f.endsWith(".txt"))
    .map((f) => readFileSync(f, "utf8"))
    .join("\n"),
);
cases.push(["mixed/bundled", ["parse-log", mixedBundled, "--json"]]);
cases.push(["mixed/real", ["parse-log", mixedReal, "--json"]]);
for (const f of extras) cases.push([`extra/${path.basename(f)}`, ["parse-log", f, "--json"]]);

const stored = (name) => path.join(outDir, `${name.replace(/[^\w.-]+/g, "__")}.out`);
let differ = 0;
const started = Date.now();
for (const [name, args] of cases) {
  let text = await run(args);
  // A big output is stored as its hash.
  if (text.length > 4_000_000) text = `sha256 ${createHash("sha256").update(text).digest("hex")}\n`;
  const file = stored(name);
  if (mode === "record") {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(file, text);
  } else {
    let before = null;
    try {
      before = readFileSync(file, "utf8");
    } catch {}
    if (before !== text) {
      differ++;
      realOut(
        `DIFFERS ${name} (${before === null ? "not recorded" : `${before.length} -> ${text.length} chars`})\n`,
      );
    }
  }
}
realOut(
  `${mode}: ${cases.length} cases (${real.length} real logs, ${bundled.length} bundled fixtures, 2 mixed, ${extras.length} extra) in ${Math.round((Date.now() - started) / 1000)} s${mode === "compare" ? `; ${differ} differ` : ""}\n`,
);
process.exit(differ > 0 ? 1 : 0);
