/**
 * The standard library's additions by release, read from typeshed's stubs (issue 12, hold27: a run on 3.11 stopped
 * on `'skip_file_prefixes' is an invalid keyword argument for warn()`, a keyword 3.12 added, and was judged PARTIAL —
 * Retrace blamed the report for its own sandbox's Python). The table must match what the generator reads from the
 * installed pyright; the look-ups answer for additions and stay silent for old names, other modules' names and the
 * code's own functions; the runtime rule turns such a stop into "needs Python 3.12", and not a claimed error.
 * Errors and reports written for these tests.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without types
import { generate, typeshedStdlib } from "../../../scripts/gen-python-api-versions.mjs";
import {
  pythonKeywordSince,
  pythonMemberSince,
  pythonModuleSince,
  pythonNameSince,
} from "../../../src/repro/python-api-since.ts";
import {
  PYTHON_KEYWORD_SINCE,
  PYTHON_MODULE_SINCE,
  PYTHON_NAMES_BY_RELEASE,
} from "../../../src/repro/python-api-versions.ts";
import { newerApi, runtimeShortfall } from "../../../src/repro/runtime-rule.ts";

describe("the generated table", () => {
  it("is what the generator reads from the installed pyright's typeshed (run scripts/gen-python-api-versions.mjs)", () => {
    const { names, keywords, modules } = generate(typeshedStdlib().dir) as {
      names: Record<string, string[]>;
      keywords: Record<string, Record<string, string>>;
      modules: Record<string, string>;
    };
    const committed = Object.fromEntries(
      Object.entries(PYTHON_NAMES_BY_RELEASE).map(([r, list]) => [r, list.split(" ")]),
    );
    expect(committed).toEqual(names);
    expect(PYTHON_KEYWORD_SINCE).toEqual(keywords);
    expect(PYTHON_MODULE_SINCE).toEqual(modules);
  });
});

describe("look-ups", () => {
  it("answer for names, members, keywords and modules later releases added", () => {
    expect(pythonNameSince("math", "sumprod")).toBe("3.12");
    expect(pythonNameSince("itertools", "batched")).toBe("3.12");
    expect(pythonMemberSince("Path", "walk")).toBe("3.12");
    expect(pythonKeywordSince("warn", "skip_file_prefixes")).toBe("3.12");
    expect(pythonModuleSince("tomllib")).toBe("3.11");
  });

  it("stay silent for old names, names of no such module, keywords a function always had, unknown modules", () => {
    expect(pythonNameSince("os.path", "join")).toBeNull();
    expect(pythonNameSince("mylib", "sumprod")).toBeNull();
    expect(pythonMemberSince("Path", "glob")).toBeNull();
    expect(pythonMemberSince("Ledger", "walk")).toBeNull();
    expect(pythonKeywordSince("dumps", "indent")).toBeNull();
    expect(pythonKeywordSince("frobnicate", "skip_file_prefixes")).toBeNull();
    expect(pythonModuleSince("json")).toBeNull();
    expect(pythonModuleSince("ledger")).toBeNull();
  });
});

describe("newerApi on Python errors", () => {
  const py = (type: string, message: string) => newerApi({ type, message }, "python");

  it("names the release for a stdlib keyword, module attribute, import and module", () => {
    expect(py("TypeError", "'skip_file_prefixes' is an invalid keyword argument for warn()")).toEqual({
      name: "warn(skip_file_prefixes=…)",
      needs: "3.12",
    });
    expect(py("AttributeError", "module 'math' has no attribute 'sumprod'")).toEqual({
      name: "math.sumprod",
      needs: "3.12",
    });
    expect(
      py("ImportError", "cannot import name 'batched' from 'itertools' (/usr/lib/python3.11/itertools.so)"),
    ).toMatchObject({ needs: "3.12" });
    expect(py("ModuleNotFoundError", "No module named 'tomllib'")).toMatchObject({ needs: "3.11" });
  });

  it("must not fire: the code's own function, its own module, an import from an installed package, a typo", () => {
    expect(py("TypeError", "frobnicate() got an unexpected keyword argument 'indentation'")).toBeNull();
    expect(py("TypeError", "'indnt' is an invalid keyword argument for dumps()")).toBeNull();
    expect(py("AttributeError", "module 'ledger' has no attribute 'sumprod'")).toBeNull();
    expect(
      py("ImportError", "cannot import name 'sumprod' from 'ledger' (/workspace/ledger/__init__.py)"),
    ).toBeNull();
    expect(py("AttributeError", "module 'math' has no attribute 'sqroot'")).toBeNull();
  });
});

describe("the runtime rule on a keyword a later release added", () => {
  const base = { runtime: "python" as const, sandbox: "3.11.2", named: [] as string[], claims: true };
  const stop = (type: string, message: string) => ({
    exception: { type, message },
    stderr: `Traceback (most recent call last):\n  File "/workspace/reproduction.py", line 9, in <module>\n${type}: ${message}\n`,
  });

  it("needs 3.12 with no runtime named, and says why", () => {
    const d = runtimeShortfall({
      ...base,
      claimedType: null,
      runs: [stop("TypeError", "'skip_file_prefixes' is an invalid keyword argument for warn()")],
    });
    expect(d).toMatchObject({ ran: "3.11.2", needs: "3.12", source: "the API's release" });
    expect(d?.why).toContain("`warn(skip_file_prefixes=…)`, which Python 3.12 added");
  });

  it("must not fire: a sandbox that has it, or a report that claims this very TypeError", () => {
    const runs = [stop("TypeError", "'skip_file_prefixes' is an invalid keyword argument for warn()")];
    expect(runtimeShortfall({ ...base, sandbox: "3.12.3", claimedType: null, runs })).toBeNull();
    expect(
      runtimeShortfall({
        ...base,
        claimedType: "TypeError",
        claimedMessage: "'skip_file_prefixes' is an invalid keyword argument for warn()",
        runs,
      }),
    ).toBeNull();
  });
});
