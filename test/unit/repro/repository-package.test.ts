/**
 * A report filed on a package's own repository calls the package without importing it (`filesize(…)`, `isodate.
 * parse_duration(…)`, `sj.serialize(…)`, `tabulate(…)`): with the repository's package known (`--package`,
 * ReproJobSpec.package) the completion binds it (repository-binding.ts), and a bare release in the prose is its
 * release. Without it, the name stays undefined and the verdict asks for the import. Reports written for these
 * tests.
 */
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { pinDependencies } from "../../../src/repro/dependencies.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { JS_BIND_PACKAGE, pythonImportName } from "../../../src/repro/repository-binding.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { findProseVersions } from "../../../src/repro/versions.ts";

const f = "```";
const complete = (md: string, pkg?: string) => {
  const report = parseReport(md);
  return completeProgram(report, reportedExpectations(report).invocation, pkg);
};
const program = (md: string, pkg?: string) => {
  const p = complete(md, pkg);
  return { code: p?.files[p.entry] ?? "", deps: p?.dependencies ?? [], entry: p?.entry ?? "" };
};
/** The names the generated program asks `_bindPackage` for. */
const wanted = (code: string) =>
  JSON.parse(/_bindPackage\(_repositoryPackage, (\[.*\])\);/.exec(code)?.[1] ?? "null") as
    | [string, string[], boolean, boolean][]
    | null;
/** Runs the binder on a module object in a fresh context; returns what each name resolves to there. */
const bind = (module: unknown, list: [string, string[], boolean, boolean][]) => {
  const sandbox: Record<string, unknown> = { module };
  runInNewContext(`${JS_BIND_PACKAGE}\n_bindPackage(module, ${JSON.stringify(list)});`, sandbox);
  return sandbox;
};

describe("the repository's own package", () => {
  it("JavaScript: a call of the package's camel-cased binding is bound to the package, run as a module", () => {
    const md = `# wrong unit\n\n${f}\nconsole.log(sizeOf(4096)) // "4 KiB"\n${f}\n`;
    expect(program(md).code).not.toContain("size-of");
    const { code, deps, entry } = program(md, "size-of");
    // A module: an ES-module-only release loads as well as a CommonJS one.
    expect(entry).toBe("reproduction.mjs");
    expect(code).toContain('import * as _repositoryPackage from "size-of";');
    expect(wanted(code)).toEqual([["sizeOf", [], true, true]]);
    expect(deps).toEqual(["size-of"]);
  });

  it("Python: a module attribute of the package gets its import", () => {
    const md = `# wrong period\n\n${f}python\nprint(periods.parse("P1W"))  # 7 days\n${f}\n`;
    const { code, deps } = program(md, "periods");
    expect(code).toMatch(/^import periods$/m);
    expect(deps).toEqual(["periods"]);
  });

  it("a name the code binds itself is left alone; other bare calls are the package's named exports", () => {
    const md = `# x\n\n${f}js\nconst sizeOf = (n) => n;\nconsole.log(sizeOf(1), parse("2 KiB"))\n${f}\n`;
    const { code } = program(md, "size-of");
    // `parse(…)` is asked for as a named export (not the package's own name: never the module itself).
    expect(wanted(code)).toEqual([["parse", [], false, true]]);
  });

  it("the binder: a named export, else the module for its own name or an object with every member read, else nothing", () => {
    const fn = Object.assign((n: number) => `${n} B`, { partial: () => 1 });
    // A CommonJS module that is the function (filesize 9): the own name gets it.
    expect(bind(fn, [["filesize", [], true, true]]).filesize).toBe(fn);
    // An ES module namespace whose default is the function (pretty-bytes 7).
    expect(bind({ default: fn }, [["prettyBytes", [], true, true]]).prettyBytes).toBe(fn);
    // A named export of that name wins (filesize 11: `{ filesize, partial }`).
    const named = { filesize: fn, partial: () => 2 };
    expect(bind(named, [["filesize", [], true, true]]).filesize).toBe(fn);
    // An alias (`sj`) is the default export only when it has every member the snippet reads.
    // A class with static methods, as superjson's default export is.
    const SuperJSON = Object.assign(function SuperJSON() {}, { serialize() {}, deserialize() {} });
    const ns = { default: SuperJSON, stringify: () => "s" };
    expect(bind(ns, [["sj", ["serialize", "deserialize"], false, false]]).sj).toBe(SuperJSON);
    expect(bind(ns, [["sj", ["serialize", "nope"], false, false]]).sj).toBeUndefined();
    // A CommonJS module transpiled from an ES module (superjson 1): its default is `.default` of the exports,
    // which an ES module namespace shows as `default.default`.
    const transpiled = { __esModule: true, default: SuperJSON };
    expect(bind({ default: transpiled }, [["sj", ["serialize", "deserialize"], false, false]]).sj).toBe(
      SuperJSON,
    );
    expect(bind(transpiled, [["superjson", [], true, false]]).superjson).toBe(SuperJSON);
    // Members every object or function has (`name`, `toString`) prove nothing.
    expect(bind({ default: fn }, [["item", ["name"], false, false]]).item).toBeUndefined();
    // The package's own name gets the module only when it has what the snippet uses: npm's `isodate` (no
    // `parse_duration`) for a Python report's `isodate.parse_duration(…)` binds nothing; a call needs a function.
    expect(bind({ default: {} }, [["isodate", ["parse_duration"], true, false]]).isodate).toBeUndefined();
    expect(bind({ default: { a: 1 } }, [["sizeOf", [], true, true]]).sizeOf).toBeUndefined();
    // A bare call that is not the package's name: its named export, else nothing (the run's ReferenceError).
    expect(bind(ns, [["stringify", [], false, true]]).stringify).toBe(ns.stringify);
    expect(bind(ns, [["helper", [], false, true]]).helper).toBeUndefined();
  });

  it("free names: members read and calls recorded; parameters, catch bindings, methods and globals are not free", () => {
    const md = [
      "# sj drops undefined",
      "",
      `${f}js`,
      "const out = sj.serialize({ a: undefined });",
      "[1, 2].forEach((item) => item.toFixed(1));",
      "try { sj.deserialize(out); } catch (err) { err.message; }",
      "const o = { run(x) { return x; } };",
      "console.log(JSON.stringify(out), Math.max(1, 2));",
      f,
      "",
    ].join("\n");
    expect(wanted(program(md, "superjson").code)).toEqual([
      ["sj", ["serialize", "deserialize"], false, false],
    ]);
  });

  it("a default import the report writes elsewhere names the package's own binding", () => {
    const md = [
      "# x",
      "",
      "I import it with `import sj from 'superjson'`.",
      "",
      `${f}js`,
      "console.log(sj(1))",
      f,
      "",
    ].join("\n");
    expect(wanted(program(md, "superjson").code)).toEqual([["sj", [], true, true]]);
  });

  it("TypeScript type arguments on a bare call (`parse<T>(x)`) still make it a call of the package", () => {
    const md = `# x\n\n${f}typescript\nconst a = stringify(new Float64Array([NaN]));\nconsole.log(parse<Float64Array>(a)); // [0]\n${f}\n`;
    const p = complete(md, "superjson")!;
    expect(p.entry).toBe("reproduction.ts");
    expect(p.moduleFormat).toBe("esm");
    expect(wanted(p.files[p.entry]!)).toEqual([
      ["stringify", [], false, true],
      ["parse", [], false, true],
    ]);
  });

  it("a REPL assignment without a declaration is declared when the session runs as a module (strict)", () => {
    const md = `# x\n\n${f}\n> x = sj.serialize({a: 1})\n{ json: { a: 1 } }\n> sj.deserialize(x)\n{ a: 1 }\n${f}\n`;
    const { code, entry } = program(md, "superjson");
    expect(entry).toBe("reproduction.mjs");
    expect(code).toMatch(/^var x;$/m);
    expect(wanted(code)).toEqual([["sj", ["serialize", "deserialize"], false, false]]);
  });

  it("a script that needs CommonJS (`__dirname`, `module.exports`) stays CommonJS, the package required", () => {
    const md = `# x\n\n${f}js\nconsole.log(__dirname, sizeOf(1))\n${f}\n`;
    const { code, entry } = program(md, "size-of");
    expect(entry).toBe("reproduction.cjs");
    expect(code).toContain('const _repositoryPackage = require("size-of");');
  });

  it("a report that names the package itself keeps the plain import of a named package", () => {
    const md = `# x\n\nWith size-of@1.2.3:\n\n${f}js\nconsole.log(sizeOf(1))\n${f}\n`;
    const { code } = program(md, "size-of");
    expect(code).toContain('const sizeOf = require("size-of");');
    expect(code).not.toContain("_bindPackage");
  });

  it("Python: the module's name called (`tabulate(…)`) is its function; a `from pkg import x` in another block binds x", () => {
    const call = `# x\n\n${f}\nIn [3]: print(tabulate([("a", 1.5)]))\n-  ---\na  1.5\n-  ---\n${f}\n`;
    const t = program(call, "tabulate");
    expect(t.code).toMatch(/^from tabulate import tabulate$/m);
    expect(t.deps).toEqual(["tabulate"]);
    const other = [
      "# x",
      "",
      "I import it as `from periods.parser import parse_period, Period`, then:",
      "",
      `${f}python`,
      "print(parse_period('P1W'))  # 7 days",
      f,
      "",
    ].join("\n");
    // The import line is in the prose; the block's free name is bound by it (only the names the block uses).
    expect(program(other, "periods").code).toMatch(/^from periods\.parser import parse_period$/m);
    expect(program(other).code).not.toContain("import parse_period");
    expect(pythonImportName("python-dateutil")).toBe("dateutil");
    expect(pythonImportName("Foo.Bar")).toBe("foo_bar");
  });

  it("a bare release in the prose is the repository package's when the report names no other package", () => {
    expect(findProseVersions("I'm on 1.10.0, and running it on Node 18")).toEqual(["1.10.0"]);
    expect(findProseVersions("Tested with 4.0.2, running v7.0.0 now")).toEqual(["4.0.2", "7.0.0"]);
    expect(findProseVersions("see 1.2 and page 3")).toEqual([]);
    const pin = (md: string, pkg?: string) => {
      const report = parseReport(md);
      const p = completeProgram(report, null, pkg)!;
      return pinDependencies(p, report, null, pkg).map((x) => `${x.name}@${x.version}`);
    };
    const md = `# wrong\n\nI'm on 1.10.0, and running:\n\n${f}\nconsole.log(sizeOf(4096))\n${f}\n`;
    expect(pin(md, "size-of")).toEqual(["size-of@1.10.0"]);
    // Two releases in the prose: which is which is not known, so none is taken.
    expect(pin(md.replace("running:", "running (also on 1.9.0):"), "size-of")).toEqual(["size-of@null"]);
    // Unless the prose calls one of them good: the other is the release the report is about.
    expect(pin(md.replace("running:", "running (it worked on 1.9.0):"), "size-of")).toEqual([
      "size-of@1.10.0",
    ]);
    // Another package named with a version: the bare one may be its, so none is taken.
    const other = md.replace("running:", "running with left-pad@1.3.0:");
    expect(pin(other, "size-of")).toContain("size-of@null");
  });

  it("the job spec takes npm and PyPI names only", () => {
    const base = { kind: "repro", id: "r1", markdown: "# x" };
    for (const ok of ["filesize", "@scope/name", "python-dateutil", "zope.interface"])
      expect(ReproJobSpec.safeParse({ ...base, package: ok }).success, ok).toBe(true);
    for (const bad of ["../x", "a b", "", "https://evil.example/x.tgz", "x@1.0.0", "git+ssh://h/r"])
      expect(ReproJobSpec.safeParse({ ...base, package: bad }).success, bad).toBe(false);
  });
});
