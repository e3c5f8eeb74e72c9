/**
 * Red team 30: a checker's own configuration silences what the failing check reports as surely as a suppression
 * comment: `"no-undef": "off"` in `.eslintrc.json` under `eslint .`, `strict: false` in tsconfig under `tsc`, ruff's
 * `per-file-ignores` under `ruff check`, `disable: [errcheck]` in `.golangci.yml` under `golangci-lint` — the gate
 * allowed them all. Now each is a suppression (src/policy/checker-config.ts): blocked when the failing check runs
 * the tool (or is unknown), a warning otherwise; tsconfig's build keys stay the fix's.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { create, modify } from "../helpers.ts";

const ESLINTRC = JSON.stringify({ root: true, rules: { "no-undef": "error" } }, null, 2);
const TSCONFIG = JSON.stringify(
  { compilerOptions: { strict: true, target: "es2020", noEmit: true } },
  null,
  2,
);
const PYPROJECT = '[project]\nname = "app"\nversion = "0.1.0"\n\n[tool.ruff.lint]\nselect = ["E", "F"]\n';

const gate = (patch: string, failingCheck?: string) =>
  evaluatePatch(patch, {}, failingCheck === undefined ? {} : { failingCheck });
const blocked = (patch: string, failingCheck?: string) =>
  gate(patch, failingCheck).violations.filter((v) => v.rule === "suppressions");
const warned = (patch: string, failingCheck?: string) =>
  gate(patch, failingCheck).warnings?.filter((v) => v.rule === "suppressions") ?? [];

describe("a checker's configuration changed under the check that runs it (red team 30)", () => {
  it.each([
    ["eslint rule off", modify(".eslintrc.json", ESLINTRC, ESLINTRC.replace('"error"', '"off"')), "eslint ."],
    [
      "eslint flat config ignores",
      modify(
        "eslint.config.js",
        "export default [{ rules: { 'no-undef': 'error' } }];\n",
        "export default [{ ignores: ['src/billing/**'] }, { rules: { 'no-undef': 'error' } }];\n",
      ),
      "npx eslint src",
    ],
    ["a new .eslintignore", create(".eslintignore", "src/billing/\n"), "eslint ."],
    [
      "tsconfig strict off",
      modify("tsconfig.json", TSCONFIG, TSCONFIG.replace('"strict": true', '"strict": false')),
      "tsc --noEmit",
    ],
    [
      "tsconfig exclude",
      modify(
        "packages/api/tsconfig.build.json",
        TSCONFIG,
        TSCONFIG.replace('"compilerOptions"', '"exclude": ["src/billing.ts"],\n  "compilerOptions"'),
      ),
      "npm run typecheck",
    ],
    [
      "ruff per-file-ignores in pyproject",
      modify(
        "pyproject.toml",
        PYPROJECT,
        `${PYPROJECT}\n[tool.ruff.lint.per-file-ignores]\n"src/*" = ["F821"]\n`,
      ),
      "ruff check .",
    ],
    ["ruff.toml", modify("ruff.toml", 'select = ["E", "F"]\n', 'select = ["E"]\n'), "ruff check src"],
    [
      "golangci disable",
      modify(
        ".golangci.yml",
        "linters:\n  enable:\n    - errcheck\n",
        "linters:\n  disable:\n    - errcheck\n",
      ),
      "golangci-lint run ./...",
    ],
    [
      "setup.cfg [flake8]",
      modify(
        "setup.cfg",
        "[flake8]\nmax-line-length = 100\n",
        "[flake8]\nmax-line-length = 100\nextend-ignore = F821\n",
      ),
      "flake8 src",
    ],
    [
      "pyproject [tool.mypy] override",
      modify(
        "pyproject.toml",
        "[tool.mypy]\nstrict = true\n",
        '[tool.mypy]\nstrict = true\n\n[[tool.mypy.overrides]]\nmodule = "billing.*"\ndisallow_untyped_defs = false\n',
      ),
      "mypy .",
    ],
    [
      ".rubocop.yml",
      modify(
        ".rubocop.yml",
        "Style/StringLiterals:\n  Enabled: true\n",
        "Style/StringLiterals:\n  Enabled: false\n",
      ),
      "bundle exec rubocop",
    ],
  ])("%s is refused", (_what, patch, check) => {
    expect(blocked(patch, check).length).toBeGreaterThan(0);
    // What the check runs unknown: blocked too, as a suppression comment is.
    expect(blocked(patch).length).toBeGreaterThan(0);
  });

  it("refuses the configuration renamed away or deleted", () => {
    const renamed =
      "diff --git a/.eslintrc.json b/.eslintrc.json.bak\nsimilarity index 100%\nrename from .eslintrc.json\nrename to .eslintrc.json.bak\n";
    expect(
      blocked(renamed, "eslint .")
        .map((v) => v.message)
        .join(),
    ).toMatch(/\[eslint-config\]/);
    const deleted = `diff --git a/.golangci.yml b/.golangci.yml\ndeleted file mode 100644\nindex 1111111..0000000\n--- a/.golangci.yml\n+++ /dev/null\n@@ -1,3 +1,0 @@\n-linters:\n-  enable:\n-    - errcheck\n`;
    expect(blocked(deleted, "golangci-lint run").length).toBeGreaterThan(0);
  });

  // Counter-examples.
  it("warns, without blocking, when the failing check runs another tool", () => {
    const patch = modify(".eslintrc.json", ESLINTRC, ESLINTRC.replace('"error"', '"off"'));
    expect(blocked(patch, "pytest -q")).toEqual([]);
    expect(warned(patch, "pytest -q").length).toBeGreaterThan(0);
  });

  it.each([
    ["tsconfig target", modify("tsconfig.json", TSCONFIG, TSCONFIG.replace('"es2020"', '"es2022"'))],
    [
      "tsconfig lib",
      modify(
        "tsconfig.json",
        TSCONFIG,
        TSCONFIG.replace('"noEmit": true', '"noEmit": true,\n    "lib": ["es2022", "dom"]'),
      ),
    ],
    [
      "another tool's table in pyproject",
      modify("pyproject.toml", PYPROJECT, `${PYPROJECT}\n[tool.black]\nline-length = 100\n`),
    ],
    ["a module named like a tool", modify("src/ruff.py", "x = 1\n", "x = 2\n")],
    ["a document about the linter", modify("docs/eslint.md", "# ESLint\n", "# ESLint rules\n")],
  ])("%s stays the fix's under the checker", (_what, patch) => {
    for (const check of ["tsc --noEmit", "ruff check .", "eslint ."])
      expect(blocked(patch, check)).toEqual([]);
  });

  it("honours policy.suppressions.allow for a configuration id", () => {
    const patch = modify(".eslintrc.json", ESLINTRC, ESLINTRC.replace('"error"', '"off"'));
    const r = evaluatePatch(
      patch,
      { suppressions: { allow: ["eslint-config"] } },
      { failingCheck: "eslint ." },
    );
    expect(r.violations.filter((v) => v.rule === "suppressions")).toEqual([]);
  });
});
