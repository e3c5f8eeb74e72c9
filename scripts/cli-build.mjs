/**
 * The compiled CLI: src/cli/main.ts bundled by esbuild into build/cli/ (our code only; dependencies stay in
 * node_modules), with one chunk per command so `retrace <command>` still loads only that command.
 *
 * Why: running the TypeScript through tsx costs a loader thread and a hook on every import — about 0.5 s and
 * 100 MB on a 2-core machine, most of a short command's time. bin/retrace.mjs uses the build when it is
 * newer than every file in src/, and falls back to tsx otherwise, so an edited source is never run stale.
 * Plain Node, imported by bin/retrace.mjs and scripts/setup.mjs; `node scripts/cli-build.mjs` builds.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const cliEntry = path.join(root, "build", "cli", "main.js");
const lockfile = path.join(root, "package-lock.json");
const thisFile = fileURLToPath(import.meta.url);

function newestMtime(dir) {
  let newest = 0;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    newest = Math.max(newest, d.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** True when build/cli exists and is at least as new as every source file, the lockfile and this script. */
export function cliBuildIsFresh() {
  let built;
  try {
    built = statSync(cliEntry).mtimeMs;
  } catch {
    return false;
  }
  const inputs = [
    newestMtime(path.join(root, "src")),
    ...[lockfile, thisFile].map((f) => statSync(f).mtimeMs),
  ];
  return inputs.every((t) => built >= t);
}

/** Chunks an earlier build wrote and this one did not, left an hour so a CLI started before the build can still
 * load its lazy chunks; without this build/cli kept every chunk of every build (270 files after a few days). */
function pruneStaleChunks(outdir, written) {
  const cutoff = Date.now() - 60 * 60_000;
  for (const name of readdirSync(outdir)) {
    const p = path.join(outdir, name);
    if (!written.has(p) && statSync(p).mtimeMs < cutoff) rmSync(p, { force: true });
  }
}

export async function buildCli() {
  const { build } = await import("esbuild");
  const outdir = path.join(root, "build", "cli");
  const result = await build({
    // The parse-log reading thread (a worker) is an entry of its own: build/cli/parse-log-worker.js, next to the
    // command's chunk, which starts it by that name.
    entryPoints: [
      path.join(root, "src", "cli", "main.ts"),
      path.join(root, "src", "cli", "parse-log-worker.ts"),
    ],
    outdir,
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    // Linked, not inline: an inline map tripled the size of the chunks `retrace parse-log` loads (1.5 MB for the log
    // parsers), and Node decodes and scans all of it at start-up; `--enable-source-maps` reads the .map file alike.
    sourcemap: "linked",
    logLevel: "warning",
    metafile: true,
  });
  pruneStaleChunks(outdir, new Set(Object.keys(result.metafile.outputs).map((o) => path.resolve(root, o))));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await buildCli();
  process.stderr.write(`built ${path.relative(root, cliEntry)}\n`);
}
