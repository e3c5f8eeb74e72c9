/**
 * The runtime rule for code a newer Python added (issue 12, hold17): a parse error on syntax a later release added
 * (template strings, 3.14; PEP 695, 3.12) needs that release whatever the report names, and an AttributeError on an
 * attribute only the standard library could hold (no package installed, the code never defines it, the object's
 * class inherits it) is the runtime's lack when the report names a newer Python and none of ours. Each with
 * counter-examples where the rule must not fire. Reports and errors written for these tests.
 */
import { describe, expect, it } from "vitest";
import { runtimeShortfall } from "../../../src/repro/runtime-rule.ts";

const parseError = (line: string, message = "invalid syntax") => ({
  exception: { type: "SyntaxError", message },
  stderr: `@@retrace-runtime 3.11.2\n  File "/workspace/reproduction.py", line 2\n${line}\n          ^^^^^\nSyntaxError: ${message}\n`,
});
const base = { runtime: "python" as const, sandbox: "3.11.2", claims: true, claimedType: null };

describe("syntax a later Python added", () => {
  it("a template string needs 3.14, even with no runtime named", () => {
    const d = runtimeShortfall({ ...base, named: [], runs: [parseError("    tp = t'hello world! {a}'")] });
    expect(d).toMatchObject({ ran: "3.11.2", needs: "3.14", source: "the syntax's release" });
    expect(d?.why).toBe(
      "the code uses a template string (PEP 750), syntax Python 3.14 added; here the run stopped on SyntaxError: invalid syntax",
    );
    expect(
      runtimeShortfall({ ...base, named: ["3.14"], runs: [parseError('    x = Tr"a{b}"')] }),
    ).toMatchObject({
      needs: "3.14",
    });
  });

  it("type parameters and a `type` alias need 3.12", () => {
    for (const line of ["    def first[T](xs: list[T]) -> T:", "    type Pair = tuple[int, int]"])
      expect(runtimeShortfall({ ...base, named: [], runs: [parseError(line)] })).toMatchObject({
        needs: "3.12",
      });
  });

  it("must not fire: a typo, a quote after a name, a string holding a t, a sandbox that has the syntax", () => {
    for (const line of [
      "    This worked before",
      "    print(it's broken)",
      "    print('t' 'x' +)",
      "    don't = 1",
    ])
      expect(runtimeShortfall({ ...base, named: ["3.14"], runs: [parseError(line)] })).toBeNull();
    expect(
      runtimeShortfall({ ...base, sandbox: "3.14.0", named: [], runs: [parseError("    tp = t'x {a}'")] }),
    ).toBeNull();
  });
});

describe("an attribute only the standard library could hold", () => {
  const code = [
    "from html.parser import HTMLParser",
    "class CdataBugParser(HTMLParser):",
    "    def unknown_decl(self, data):",
    "        print(data)",
    "parser = CdataBugParser()",
    "parser._set_support_cdata(True)",
  ].join("\n");
  const missing = {
    exception: {
      type: "AttributeError",
      message: "'CdataBugParser' object has no attribute '_set_support_cdata'",
    },
    stderr: "Traceback (most recent call last):\n",
  };
  it("a newer Python named, none of ours: the runtime's lack", () => {
    const d = runtimeShortfall({ ...base, named: ["3.12"], runs: [missing], program: { code, packages: 0 } });
    expect(d).toMatchObject({ needs: "3.12", source: "the report names 3.12" });
    expect(d?.why).toMatch(/an attribute the standard library does not have on this runtime/);
  });

  it("must not fire: ours or an older Python named, a package installed, the code's own name or class", () => {
    const p = { code, packages: 0 };
    expect(runtimeShortfall({ ...base, named: ["3.11"], runs: [missing], program: p })).toBeNull();
    expect(runtimeShortfall({ ...base, named: ["3.10"], runs: [missing], program: p })).toBeNull();
    expect(runtimeShortfall({ ...base, named: [], runs: [missing], program: p })).toBeNull();
    expect(
      runtimeShortfall({ ...base, named: ["3.12"], runs: [missing], program: { code, packages: 1 } }),
    ).toBeNull();
    const defines = `${code}\nCdataBugParser._set_support_cdata = lambda self, on: None`;
    expect(
      runtimeShortfall({
        ...base,
        named: ["3.12"],
        runs: [missing],
        program: { code: defines, packages: 0 },
      }),
    ).toBeNull();
    const noBase = code.replace("class CdataBugParser(HTMLParser):", "class CdataBugParser:");
    expect(
      runtimeShortfall({ ...base, named: ["3.12"], runs: [missing], program: { code: noBase, packages: 0 } }),
    ).toBeNull();
    // Without the program, the rule stays as it was: an object's attribute is not decided.
    expect(runtimeShortfall({ ...base, named: ["3.12"], runs: [missing] })).toBeNull();
  });
});
