/**
 * A `require` of a path into the package's own source tree (issue 12, tainted hold20 kriszyp/json-schema#20's
 * shape, fixer f12ac): bound at run time to the installed package's file of that name when exactly one place in
 * it has the file. The rewritten expression runs here on a fake package tree, as it runs in the sandbox.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ownSourceTreePaths } from "../../../src/repro/own-package-path.ts";

/** A directory with node_modules/<pkg> holding the given files; a require rooted in it. */
function tree(pkg: string, files: Record<string, string>) {
  const root = mkdtempSync(path.join(tmpdir(), "srctree-"));
  const base = path.join(root, "node_modules", pkg);
  mkdirSync(base, { recursive: true });
  writeFileSync(path.join(base, "package.json"), JSON.stringify({ name: pkg, version: "1.0.0" }));
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(base, f)), { recursive: true });
    writeFileSync(path.join(base, f), text);
  }
  return createRequire(path.join(root, "reproduction.cjs"));
}

/** The value of the rewritten `require(…)` expression, evaluated with that require. */
function load(code: string, req: NodeRequire): unknown {
  const expr = /=\s*(require\([\s\S]*\))\s*;/.exec(code)![1]!;
  return new Function("require", `return ${expr};`)(req);
}

describe("a require of a path into the package's own source tree", () => {
  const code = "var check = require('../vendor/schema_kit/check');\n";
  it("loads the installed package's file of that name (lib/ here)", () => {
    const { code: out, read } = ownSourceTreePaths(code, "schema-kit");
    expect(read).toEqual(["../vendor/schema_kit/check"]);
    const req = tree("schema-kit", { "lib/check.js": "module.exports = { ok: 'from lib' };" });
    expect(load(out, req)).toEqual({ ok: "from lib" });
  });
  it("keeps the report's path (failing as it would) when two places hold the file", () => {
    const { code: out } = ownSourceTreePaths(code, "schema-kit");
    const req = tree("schema-kit", {
      "lib/check.js": "module.exports = 1;",
      "src/check.js": "module.exports = 2;",
    });
    expect(() => load(out, req)).toThrow(/Cannot find module '\.\.\/vendor\/schema_kit\/check'/);
  });
  it("keeps the report's path when the package has no such file", () => {
    const { code: out } = ownSourceTreePaths(code, "schema-kit");
    const req = tree("schema-kit", { "lib/other.js": "module.exports = 1;" });
    expect(() => load(out, req)).toThrow(/Cannot find module/);
  });
  it("never fires on a relative path without a folder named as the package", () => {
    for (const c of ["var u = require('./utils');\n", "var x = require('../lib/check');\n"]) {
      expect(ownSourceTreePaths(c, "schema-kit")).toEqual({ code: c, read: [] });
    }
    // Named as another package, or the folder is the last segment (the root: own-package-path's rule).
    expect(ownSourceTreePaths(code, "ajv").read).toEqual([]);
    expect(ownSourceTreePaths("var s = require('../schema-kit');\n", "schema-kit").read).toEqual([]);
    // A bare specifier is the registry's, not the reporter's tree.
    expect(ownSourceTreePaths("var s = require('schema-kit/check');\n", "schema-kit").read).toEqual([]);
    // Going up again after the package's folder leaves it.
    expect(ownSourceTreePaths("var s = require('../schema_kit/../x');\n", "schema-kit").read).toEqual([]);
  });
});
