/**
 * The boundaries docs/architecture.md draws, checked against the imports of src/ (relative imports and
 * package imports, read as text): no import cycle between files; the pure layers (core and the pipelines)
 * import no adapter, entry or the job layer, and no I/O package; entries reach the pipelines only through the
 * job layer.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(import.meta.dirname, "../../src");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
  );
}

const IMPORT = /(?:import|export)\s[^'";]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
const graph = new Map<string, { local: string[]; packages: string[] }>();
for (const f of files(SRC)) {
  const text = readFileSync(f, "utf8");
  const local: string[] = [];
  const packages: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = (m[1] ?? m[2])!;
    if (spec.startsWith(".")) local.push(path.normalize(path.join(path.dirname(f), spec)));
    else packages.push(spec);
  }
  graph.set(path.relative(SRC, f), { local: local.map((t) => path.relative(SRC, t)), packages });
}
const room = (rel: string) => rel.split(path.sep)[0]!;

const PURE = ["core", "repro", "fix", "logs", "policy", "report"];
const ADAPTERS_AND_ABOVE = [
  "llm",
  "sandbox",
  "git",
  "github",
  "install",
  "config",
  "jobs",
  "app",
  "action",
  "cli",
];
const IO_PACKAGES =
  /^(?:node:(?:fs|child_process|net|http|https)|fs|child_process|dockerode|@anthropic-ai\/|@octokit\/|probot|simple-git|tar-stream)/;

describe("the layers of docs/architecture.md", () => {
  it("has no import cycle between files", () => {
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    let n = 0;
    const visit = (v: string) => {
      index.set(v, n);
      low.set(v, n++);
      stack.push(v);
      onStack.add(v);
      for (const w of graph.get(v)?.local ?? []) {
        if (!graph.has(w)) continue;
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const c: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          c.push(w);
        } while (w !== v);
        if (c.length > 1) cycles.push(c);
      }
    };
    for (const v of graph.keys()) if (!index.has(v)) visit(v);
    expect(cycles).toEqual([]);
  });

  it("keeps core and the pipelines free of adapters, entries, the job layer and I/O packages", () => {
    const crossings: string[] = [];
    for (const [file, { local, packages }] of graph) {
      if (!PURE.includes(room(file))) continue;
      for (const t of local) if (ADAPTERS_AND_ABOVE.includes(room(t))) crossings.push(`${file} -> ${t}`);
      for (const p of packages) if (IO_PACKAGES.test(p)) crossings.push(`${file} -> ${p}`);
    }
    expect(crossings).toEqual([]);
  });

  it("lets the entries reach a pipeline only through the job layer", () => {
    const entryPoints = ["repro/run-repro.ts", "fix/pipeline.ts", "fix/verify.ts"];
    const direct: string[] = [];
    for (const [file, { local }] of graph) {
      if (!["app", "action", "cli"].includes(room(file))) continue;
      // Type-only imports of a result shape are fine; a pipeline's entry function is not.
      const text = readFileSync(path.join(SRC, file), "utf8");
      for (const t of local) {
        if (!entryPoints.includes(t)) continue;
        const rel = path
          .relative(path.dirname(path.join(SRC, file)), path.join(SRC, t))
          .replaceAll(path.sep, "/");
        const typeOnly = new RegExp(
          `import type [^;]+from ["'](?:\\./)?${rel.replace(/[.]/g, "\\.")}["']`,
        ).test(text);
        if (!typeOnly) direct.push(`${file} -> ${t}`);
      }
    }
    expect(direct).toEqual([]);
  });
});
