#!/usr/bin/env node
// `npm run bench -- <name>`: runs bench/<name>.ts through tsx. Each benchmark prints one JSON object per line;
// the last line holds the headline figures.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const available = readdirSync(path.join(root, "bench"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.slice(0, -3))
  .sort();
const [name, ...rest] = process.argv.slice(2);
if (!name || !existsSync(path.join(root, "bench", `${name}.ts`))) {
  process.stderr.write(
    `usage: npm run bench -- <name> [args]\n${name ? `no benchmark named "${name}". ` : ""}available: ${available.join(", ")}\n`,
  );
  process.exit(2);
}
const r = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "bench", `${name}.ts`), ...rest], {
  stdio: "inherit",
  cwd: root,
});
process.exit(r.status ?? 1);
