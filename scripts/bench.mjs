#!/usr/bin/env node
// `npm run bench -- <name> [args] [--record]`: runs bench/<name>.ts through tsx. Each benchmark prints one JSON
// object per line; the last line holds the headline figures. With --record, that line is appended to
// bench/results/<name>.jsonl with the date, the commit, the arguments and the machine's load, so the figures
// quoted in the README and the issue notes are committed beside the code that produced them.
import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const available = readdirSync(path.join(root, "bench"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.slice(0, -3))
  .sort();
const argv = process.argv.slice(2);
const record = argv.includes("--record");
const [name, ...rest] = argv.filter((a) => a !== "--record");
if (!name || !existsSync(path.join(root, "bench", `${name}.ts`))) {
  process.stderr.write(
    `usage: npm run bench -- <name> [args] [--record]\n${name ? `no benchmark named "${name}". ` : ""}available: ${available.join(", ")}\n`,
  );
  process.exit(2);
}
// With --record, stdout is passed through as it comes (a long benchmark shows its per-case lines while it runs)
// and kept to find the headline at the end.
const r = await new Promise((resolve) => {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "bench", `${name}.ts`), ...rest],
    {
      stdio: record ? ["inherit", "pipe", "inherit"] : "inherit",
      cwd: root,
    },
  );
  const chunks = [];
  child.stdout?.on("data", (chunk) => {
    process.stdout.write(chunk);
    chunks.push(chunk);
  });
  child.on("close", (status) => resolve({ status, stdout: Buffer.concat(chunks) }));
});
if (record) {
  const out = r.stdout?.toString() ?? "";
  const last = out
    .trim()
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("{"));
  if (last && r.status === 0) {
    let commit = "unknown";
    try {
      commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    } catch {}
    const entry = {
      date: new Date().toISOString(),
      commit,
      args: rest,
      loadAverage1m: Number(os.loadavg()[0].toFixed(2)),
      cpus: os.cpus().length,
      result: JSON.parse(last),
    };
    mkdirSync(path.join(root, "bench/results"), { recursive: true });
    appendFileSync(path.join(root, "bench/results", `${name}.jsonl`), `${JSON.stringify(entry)}\n`);
    process.stderr.write(`recorded in bench/results/${name}.jsonl\n`);
  } else process.stderr.write("not recorded: the benchmark failed or printed no result\n");
}
process.exit(r.status ?? 1);
