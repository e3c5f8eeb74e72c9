/**
 * The repository's package bound to a name the snippet calls without an import, in two more shapes (issue 12,
 * hold15/16): a function of that very name deeper in the export tree (a library of PHP ports exporting
 * `php.strings.number_format`), and a package that is one anonymous function the snippet calls under a name of
 * its own (`format(…)` for `module.exports = function (pattern, value) {…}`). Each only when nothing else could
 * be meant: one value found, one name called. Modules written for these tests.
 */
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { JS_BIND_PACKAGE } from "../../../src/repro/repository-binding.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

type Wanted = [string, string[], boolean, boolean][];
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

describe("a function of the name deeper in the package's exports", () => {
  const numberFormat = (n: number) => `${n}`;
  const ports = {
    php: { strings: { number_format: numberFormat, strlen: (s: string) => s.length } },
    c: { string: { strlen: (s: string) => s.length + 0 } },
  };

  it("is bound when exactly one value of that name is found, CommonJS or through a namespace's default", () => {
    expect(bind(ports, [["number_format", [], false, true]]).number_format).toBe(numberFormat);
    expect(bind({ default: ports }, [["number_format", [], false, true]]).number_format).toBe(numberFormat);
  });

  it("must not fire: two different values of the name, a non-function for a call, a name found nowhere", () => {
    expect(bind(ports, [["strlen", [], false, true]]).strlen).toBeUndefined();
    expect(bind({ a: { parse: 3 } }, [["parse", [], false, true]]).parse).toBeUndefined();
    expect(bind(ports, [["sprintf", [], false, true]]).sprintf).toBeUndefined();
    // Members read from it must all be there.
    expect(bind({ a: { cfg: { x: 1 } } }, [["cfg", ["y"], false, false]]).cfg).toBeUndefined();
  });

  it("must not fire: objects that are not plain data (a class instance, a function's properties) are not searched", () => {
    class Tools {
      inner = () => 1;
    }
    expect(bind({ tools: new Tools() }, [["inner", [], false, true]]).inner).toBeUndefined();
    const fn = Object.assign(() => 0, { inner: () => 1 });
    expect(bind({ tools: { fn } }, [["inner", [], false, true]]).inner).toBeUndefined();
  });
});

describe("the package's one anonymous function for the only name the snippet calls", () => {
  const anonymous = [(pattern: string, n: number) => `${pattern}:${n}`][0]!;

  it("is bound, whether the module is the function or its default", () => {
    expect(anonymous.name).toBe("");
    expect(bind(anonymous, [["format", [], false, true]]).format).toBe(anonymous);
    expect(bind({ default: anonymous }, [["format", [], false, true]]).format).toBe(anonymous);
  });

  it("must not fire: two names called, a function with another name, a name only read as an object", () => {
    expect(
      bind(anonymous, [
        ["format", [], false, true],
        ["render", [], false, true],
      ]).format,
    ).toBeUndefined();
    function SuperJSON() {}
    expect(bind({ default: SuperJSON }, [["helper", [], false, true]]).helper).toBeUndefined();
    expect(bind(anonymous, [["opts", ["locale"], false, false]]).opts).toBeUndefined();
  });

  it("a REPL line in an unlabelled fence asks the binder for the one called name", () => {
    const md =
      "# groups\n\n```\n> format(\"#,##0.###\", 2000000)\n'2,000,000'\n```\n(expected: `20,00,000`)\n";
    expect(wanted(md, "number-fmt")).toEqual([["format", [], false, true]]);
  });
});

describe("a REPL line starting with a keyword's letters is still an expression the prompt echoes", () => {
  it("echoes `format(…)`, `document.title`, `letters()`, `tryParse(…)`; not `for (…)`, `const x`, `do {`", async () => {
    const { nodeScriptFromTranscript, parseTranscript } = await import("../../../src/repro/transcript.ts");
    const session = [
      '> format("#,##0", 2000000)',
      "'2,000,000'",
      "> letters()",
      "> tryParse('x')",
      "> document.title",
      "> const x = 1",
      "> for (const y of [1]) y",
      "> do { } while (false)",
    ].join("\n");
    const script = nodeScriptFromTranscript(parseTranscript(session, "node"));
    expect(script).toContain('_echo(format("#,##0", 2000000));');
    expect(script).toContain("_echo(letters());");
    expect(script).toContain("_echo(tryParse('x'));");
    expect(script).toContain("_echo(document.title);");
    expect(script).not.toMatch(/_echo\((?:let|const) x/);
    expect(script).not.toMatch(/_echo\(for\s*\(/);
    expect(script).not.toMatch(/_echo\(do\s*\{/);
  });
});

describe("a result comment in another language names the value the line gives", () => {
  it("`//resultado X` under a statement and `// résultat : X` after one are the claimed values", async () => {
    const { reportedExpectations: claims } = await import("../../../src/repro/reported-behaviour.ts");
    const md = [
      "# x",
      "",
      "```js",
      "number_format(1029,2,',','.');",
      "//resultado 1.0.2.9,00",
      "console.log(f(1)) // résultat : 3",
      "```",
      "",
    ].join("\n");
    expect(claims(parseReport(md)).actual.output).toEqual(["1.0.2.9,00", "3"]);
  });

  it("must not fire: a comment that only contains the word further on is not a result", async () => {
    const { reportedExpectations: claims } = await import("../../../src/repro/reported-behaviour.ts");
    const md = [
      "# x",
      "",
      "```js",
      "number_format(1029,2,',','.');",
      "// el resultado 3 es correcto?",
      "```",
      "",
    ].join("\n");
    expect(claims(parseReport(md)).actual.output).toEqual([]);
  });
});
