import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { modify, rulesOf, violationsOf } from "../helpers.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/patches/${name}`, import.meta.url), "utf8");

describe("forbidden-paths", () => {
  it.each([
    ".github/workflows/ci.yml",
    ".gitlab-ci.yml",
    ".circleci/config.yml",
    "Jenkinsfile",
    "azure-pipelines.yml",
    ".travis.yml",
    "package-lock.json",
    "web/yarn.lock",
    "poetry.lock",
    "go.sum",
    "Cargo.lock",
    ".env",
    "config/.env.production",
    "deploy/server.pem",
    "keys/id_rsa",
    ".npmrc",
    ".gitattributes",
  ])("blocks changes to %s", (path) => {
    const v = violationsOf(modify(path, "a\n", "b\n"), "forbidden-paths");
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({ file: path, line: null });
  });

  it("blocks test files unless allowTestEdits, and says how to allow them", () => {
    const patch = modify("tests/test_calc.py", "x = 1\n", "x = 2\n");
    const [v] = violationsOf(patch, "forbidden-paths");
    expect(v?.message).toMatch(/allowTestEdits/);
    expect(violationsOf(patch, "forbidden-paths", { allowTestEdits: true })).toEqual([]);
    for (const p of [
      "src/a.test.ts",
      "pkg/x_test.go",
      "src/__tests__/a.js",
      "test_x.py",
      "conftest.py",
      "src/FooTest.java",
    ]) {
      expect(rulesOf(modify(p, "a\n", "b\n"))).toContain("forbidden-paths");
    }
  });

  it("allows ordinary source files", () => {
    expect(evaluatePatch(modify("src/calc.py", "a = 1\n", "a = 2\n"))).toEqual({
      allowed: true,
      violations: [],
    });
  });

  it("catches a rename onto a protected path (real git output) and off one", () => {
    const v = violationsOf(fixture("rename-onto-ci.diff"), "forbidden-paths");
    expect(v.map((x) => x.file)).toEqual([".github/workflows/evil.yml"]);
    expect(v[0]!.message).toMatch(/renamed/);
    const off =
      "diff --git a/.github/workflows/ci.yml b/ci.yml\nsimilarity index 100%\nrename from .github/workflows/ci.yml\nrename to ci.yml\n";
    expect(violationsOf(off, "forbidden-paths").map((x) => x.file)).toEqual([".github/workflows/ci.yml"]);
  });

  it("catches copies onto protected paths", () => {
    const patch =
      "diff --git a/src/x.yml b/.github/workflows/x.yml\nsimilarity index 100%\ncopy from src/x.yml\ncopy to .github/workflows/x.yml\n";
    expect(violationsOf(patch, "forbidden-paths").map((v) => v.file)).toEqual([".github/workflows/x.yml"]);
  });

  it("is not fooled by case, ./ or // spellings", () => {
    expect(rulesOf(modify(".GitHub/workflows/ci.yml", "a\n", "b\n"))).toContain("forbidden-paths");
    const dotted =
      "--- a/./.github//workflows/ci.yml\n+++ b/./.github//workflows/ci.yml\n@@ -1 +1 @@\n-a\n+b\n";
    expect(rulesOf(dotted)).toEqual(expect.arrayContaining(["forbidden-paths", "path-escape"]));
  });

  it("checks every header spelling: `diff --git` over different ---/+++ names", () => {
    const patch =
      "diff --git a/src/ok.py b/src/ok.py\nindex 1..2 100644\n--- a/.github/workflows/ci.yml\n+++ b/.github/workflows/ci.yml\n@@ -1 +1 @@\n-a\n+b\n";
    expect(rulesOf(patch)).toEqual(expect.arrayContaining(["forbidden-paths", "ambiguous-headers"]));
  });

  it("honours extra globs and allow exceptions", () => {
    const patch = modify("infra/main.tf", "a\n", "b\n");
    expect(rulesOf(patch, { forbiddenPaths: { extra: ["infra/**"] } })).toEqual(["forbidden-paths"]);
    expect(
      rulesOf(modify(".github/CODEOWNERS", "a\n", "b\n"), {
        forbiddenPaths: { allow: [".github/CODEOWNERS"] },
      }),
    ).toEqual([]);
    expect(rulesOf(modify(".env", "a\n", "b\n"), { forbiddenPaths: { enabled: false } })).toEqual([]);
  });
});

describe("path-escape", () => {
  it.each([
    ["../outside.py", /\.\./],
    ["src/../../etc/passwd", /\.\./],
    ["/etc/passwd", /absolute/],
    ["src\\win.py", /backslash/],
    ["C:/x.py", /drive/],
    ["~/.bashrc", /home/],
    [".git/hooks/pre-commit", /\.git/],
    ["sub/.git/config", /\.git/],
  ])("blocks %s", (path, why) => {
    const patch = `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-a\n+b\n`;
    const v = violationsOf(patch, "path-escape");
    expect(v.length).toBeGreaterThan(0);
    expect(v[0]!.message).toMatch(why);
  });

  it("blocks absolute paths in plain diffs without prefixes and in rename headers", () => {
    expect(rulesOf("--- /etc/hosts\n+++ /etc/hosts\n@@ -1 +1 @@\n-a\n+b\n")).toContain("path-escape");
    const rename = "diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to ../../y\n";
    expect(rulesOf(rename)).toContain("path-escape");
  });

  it("blocks control characters and NUL smuggled through quoted names", () => {
    const patch =
      'diff --git "a/x\\nname" "b/x\\nname"\nnew file mode 100644\nindex 0..1\n--- /dev/null\n+++ "b/x\\nname"\n@@ -0,0 +1 @@\n+a\n';
    expect(violationsOf(patch, "path-escape")[0]!.message).toMatch(/control character/);
    const nul =
      'diff --git "a/x\\000.py" "b/x\\000.py"\nnew file mode 100644\nindex 0..1\n--- /dev/null\n+++ "b/x\\000.py"\n@@ -0,0 +1 @@\n+a\n';
    expect(violationsOf(nul, "path-escape")[0]!.message).toMatch(/NUL/);
  });

  it("allows names with spaces and non-ASCII letters (real git output)", () => {
    const v = violationsOf(fixture("quoted-paths.diff"), "path-escape");
    // only the tab in `src/tab\tname.py` is a control character
    expect(v.map((x) => x.message)).toEqual([
      "file name (from `diff --git old`) contains a control character",
    ]);
  });
});

describe("ambiguous-headers", () => {
  it("blocks `diff --git` names that differ without a rename header", () => {
    const patch =
      "diff --git a/src/a.py b/src/b.py\nindex 1..2 100644\n--- a/src/a.py\n+++ b/src/a.py\n@@ -1 +1 @@\n-a\n+b\n";
    expect(violationsOf(patch, "ambiguous-headers").length).toBeGreaterThan(0);
  });

  it("blocks the same file patched twice in one patch", () => {
    const patch = modify("src/a.py", "a\n", "b\n") + modify("src/a.py", "b\n", "c\n");
    expect(violationsOf(patch, "ambiguous-headers")[0]!.message).toMatch(/more than one section/);
  });

  it("blocks a/ b/ prefix tricks where the --- and +++ names disagree", () => {
    const patch = "--- a/src/app.py\n+++ b/.env\n@@ -1 +1 @@\n-a\n+b\n";
    const rules = rulesOf(patch);
    expect(rules).toContain("forbidden-paths");
    const v = violationsOf(patch, "ambiguous-headers");
    expect(v.length).toBe(0); // a plain diff may rename; the forbidden path is what matters here
  });

  it("accepts real git renames", () => {
    const patch =
      "diff --git a/src/a.py b/src/b.py\nsimilarity index 90%\nrename from src/a.py\nrename to src/b.py\nindex 1..2 100644\n--- a/src/a.py\n+++ b/src/b.py\n@@ -1 +1 @@\n-a\n+b\n";
    expect(evaluatePatch(patch)).toEqual({ allowed: true, violations: [] });
  });
});
