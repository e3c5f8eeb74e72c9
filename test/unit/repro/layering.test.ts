/**
 * `src/repro` is pure (DESIGN.md "Layout"): it takes ports and never imports an adapter. Type-only imports of
 * the ports' types are fine; a value import of an adapter module (model names from src/llm/pricing.ts, the
 * Docker driver, fs, the SDK) is not.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.resolve(import.meta.dirname, "../../../src/repro");
/**
 * Value imports allowed: the pipeline's own files, the pure core, and parsing/schema libraries. `node:vm` too,
 * in bounded.ts only: it does no I/O, it puts a time limit on parsing the report (issue 14).
 */
const allowed = (from: string, file: string) =>
  from.startsWith("./") ||
  from.startsWith("../core/") ||
  ["zod", "mdast-util-from-markdown", "mdast-util-gfm", "micromark-extension-gfm"].includes(from) ||
  (file === "bounded.ts" && from === "node:vm");

describe("src/repro layering", () => {
  it("imports no adapter (only types from src/llm, src/sandbox, src/jobs)", async () => {
    const offending: string[] = [];
    for (const file of (await readdir(dir)).filter((f) => f.endsWith(".ts"))) {
      const code = await readFile(path.join(dir, file), "utf8");
      for (const m of code.matchAll(/^import\s+(type\s+)?[^;]*?from\s+"([^"]+)";/gms)) {
        const from = m[2] as string;
        if (!m[1] && !allowed(from, file)) offending.push(`${file}: ${from}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
