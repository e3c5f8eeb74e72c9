/**
 * The package's own name (`dotProp` for dot-prop, camelCase of the package's name) read only through member
 * calls, on a release that no longer has those members (issue 12, hold19 dot-prop-38/-74: dot-prop 7 renamed
 * `get` to `getProperty`): bound to the module all the same, so the call fails as a missing API
 * (`TypeError: dotProp.get is not a function`), which the older-release step recognises, instead of a name the
 * report "never defines". Reports and modules written for these tests.
 */
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { missingApi } from "../../../src/repro/attempt.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import {
  JS_BIND_PACKAGE,
  jsBindingLines,
  jsFreeBindings,
  lackingOwnMember,
} from "../../../src/repro/repository-binding.ts";

const f = "```";
type Wanted = (string | string[] | boolean)[][];
const bind = (module: unknown, list: Wanted) => {
  const sandbox: Record<string, unknown> = { module };
  runInNewContext(`${JS_BIND_PACKAGE}\n_bindPackage(module, ${JSON.stringify(list)});`, sandbox);
  return sandbox;
};
const wanted = (md: string, pkg: string) => {
  const report = parseReport(md);
  const p = completeProgram(report, reportedExpectations(report).invocation, pkg);
  const code = p?.files[p.entry] ?? "";
  return JSON.parse(
    /_bindPackage\(_repositoryPackage, (\[.*\])\);/.exec(code)?.[1] ?? "null",
  ) as Wanted | null;
};

describe("the package's own name on a release lacking the members it calls", () => {
  const renamed = { getProperty: () => 1, setProperty: () => 2 };

  it("is bound to the module, so the call names the missing API", () => {
    const s = bind(renamed, [["dotProp", ["get"], true, false, true]]);
    expect(s.dotProp).toBe(renamed);
    let thrown: unknown;
    try {
      runInNewContext("dotProp.get({}, 'a')", s);
    } catch (error) {
      thrown = error;
    }
    const e = thrown as Error;
    expect(e.name).toBe("TypeError");
    expect(e.message).toBe("dotProp.get is not a function");
    expect(
      missingApi({ exception: { type: e.name, message: e.message } } as Parameters<typeof missingApi>[0]),
    ).toBe("TypeError: dotProp.get is not a function");
  });

  it("must not fire: a member also read as a value, a name that is not the package's own, a missing module", () => {
    expect(bind(renamed, [["dotProp", ["get"], true, false]]).dotProp).toBeUndefined();
    expect(bind(renamed, [["helper", ["get"], false, false, true]]).helper).toBeUndefined();
    expect(bind(undefined, [["dotProp", ["get"], true, false, true]]).dotProp).toBeUndefined();
    // A release that has the member binds as before.
    const old = { get: () => 0 };
    expect(bind(old, [["dotProp", ["get"], true, false, true]]).dotProp).toBe(old);
  });

  it("is marked only when the own name's every member is called", () => {
    // A scan: string literals already blanked.
    const scan = "const r = dotProp.get(obj, key, fallback);\nconsole.log(r);";
    const free = jsFreeBindings(scan, new Set(["r", "obj", "key", "fallback"]), "dot-prop");
    expect(jsBindingLines("dot-prop", free, "esm", scan)[2]).toBe(
      '_bindPackage(_repositoryPackage, [["dotProp",["get"],true,false,true]]);',
    );
    const read = "const g = dotProp.get;\nconsole.log(dotProp.get(obj, key));";
    const freeRead = jsFreeBindings(read, new Set(["g", "obj", "key"]), "dot-prop");
    expect(jsBindingLines("dot-prop", freeRead, "esm", read)[2]).toBe(
      '_bindPackage(_repositoryPackage, [["dotProp",["get"],true,false]]);',
    );
    // Not the package's own name: never marked.
    const other = "tools.get(obj, key);";
    const freeOther = jsFreeBindings(other, new Set(["obj", "key"]), "dot-prop");
    expect(jsBindingLines("dot-prop", freeOther, "esm", other)[2]).toBe(
      '_bindPackage(_repositoryPackage, [["tools",["get"],false,false]]);',
    );
  });

  it("a report filed in the package's repository gets the mark (PascalCase and a scoped package's last segment too)", () => {
    const md = (code: string) =>
      `# default is not returned\n\n${f}js\n${code}\n${f}\n\nIt gives back undefined.\n`;
    expect(
      wanted(md("const r = dotProp.get(undefined, 'a.b', false);\nconsole.log(r);"), "dot-prop"),
    ).toEqual([["dotProp", ["get"], true, false, true]]);
    expect(wanted(md("console.log(DotProp.get({}, 'a', 1));"), "dot-prop")).toEqual([
      ["DotProp", ["get"], true, false, true],
    ]);
    expect(wanted(md("console.log(dotProp.get({}, 'a', 1));"), "@acme/dot-prop")).toEqual([
      ["dotProp", ["get"], true, false, true],
    ]);
  });
});

describe("no release tried has the member the own name calls", () => {
  const marked = '_bindPackage(_repositoryPackage, [["dotProp",["get"],true,false,true]]);\nconst r = 1;';
  const stop = { exception: { type: "TypeError", message: "dotProp.get is not a function" } };

  it("names it when every run stopped on that call of a marked name", () => {
    expect(lackingOwnMember(marked, [stop, stop, stop])).toBe("dotProp.get");
  });

  it("must not fire: an unmarked binding, another error, a run that got past it, another name", () => {
    const unmarked = '_bindPackage(_repositoryPackage, [["dotProp",["get"],true,false]]);';
    expect(lackingOwnMember(unmarked, [stop])).toBeNull();
    expect(lackingOwnMember(marked, [stop, { exception: null }])).toBeNull();
    expect(
      lackingOwnMember(marked, [
        { exception: { type: "RangeError", message: "dotProp.get is not a function" } },
      ]),
    ).toBeNull();
    expect(
      lackingOwnMember(marked, [{ exception: { type: "TypeError", message: "x.get is not a function" } }]),
    ).toBeNull();
    expect(lackingOwnMember("const a = 1;", [stop])).toBeNull();
  });
});
