#!/usr/bin/env node
/**
 * Bundle the Action (src/action/main.ts) into dist/index.mjs with esbuild, for `runs.using: node24`.
 * `--check` rebuilds into memory and fails when the committed dist/ differs (stale bundle), like
 * actions/checkout's check-dist workflow.
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outfile = join(root, "dist", "index.mjs");
const check = process.argv.includes("--check");

const result = await build({
  entryPoints: [join(root, "src", "action", "main.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile,
  write: false,
  legalComments: "none",
  // ssh2 (through dockerode) loads optional native addons in try/catch; the Action never uses SSH.
  external: ["cpu-features", "*.node"],
  // CommonJS dependencies call require() for Node built-ins; give the ESM bundle one.
  // CommonJS dependencies also read __dirname/__filename.
  banner: {
    js: [
      'import { createRequire as __retraceCreateRequire } from "node:module";',
      'import { fileURLToPath as __retraceFileURLToPath } from "node:url";',
      'import { dirname as __retraceDirname } from "node:path";',
      "const require = __retraceCreateRequire(import.meta.url);",
      "const __filename = __retraceFileURLToPath(import.meta.url);",
      "const __dirname = __retraceDirname(__filename);",
    ].join("\n"),
  },
  logLevel: "warning",
});
const code = result.outputFiles[0].text;
if (check) {
  let committed = "";
  try {
    committed = readFileSync(outfile, "utf8");
  } catch {}
  if (committed !== code) {
    console.error("dist/index.mjs is stale: run `npm run build` and commit dist/.");
    process.exit(1);
  }
  console.log("dist/index.mjs is up to date.");
} else {
  mkdirSync(dirname(outfile), { recursive: true });
  writeFileSync(outfile, code);
  console.log(`wrote dist/index.mjs (${(code.length / 1024).toFixed(0)} KiB)`);
}
