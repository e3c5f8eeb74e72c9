/**
 * Three classes of Python manifests found on real repositories (issue 15), each on a small repository written
 * here: `retrace verify` with the real CLI, install container, sandbox and this machine's pip configuration.
 * - a test extra declared only in `setup.py` `extras_require`, named by tox.ini's `[testenv] extras`
 *   (marshmallow): read statically, installed; an extra the index lacks is an infrastructure error naming the
 *   package, the pip command and the setup.py field;
 * - an orchestrator (`tox`) in the test dependency group of a project tested with plain pytest (semver): not
 *   installed, and the progress line says so;
 * - a version file the build backend writes (hatch-vcs `version-file`, humanize): written into each run's
 *   copy, never into the checkout; one that cannot be written is an infrastructure error naming its field.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { declaredVersionFiles } from "../../../src/fix/python-version-file.ts";
import { installRepoPythonDependencies } from "../../../src/install/repo-deps.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const bin = new URL("../../../bin/retrace.mjs", import.meta.url).pathname;
const tmp = mkdtempSync(path.join(tmpdir(), "retrace-py-manifests-"));
const cache = path.join(tmp, "cache");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A committed repository of `files`, and the patch (written outside it) that fixes its bug. */
function repo(name: string, files: Record<string, string>, patch: string): { dir: string; patch: string } {
  const dir = path.join(tmp, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "ignore" });
  git("init", "-q");
  git("add", ".");
  git("-c", "user.email=qa@example.com", "-c", "user.name=qa", "commit", "-qm", "init");
  const patchFile = path.join(tmp, `${name}.diff`);
  writeFileSync(patchFile, patch);
  return { dir, patch: patchFile };
}

function verify(r: {
  dir: string;
  patch: string;
}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        bin,
        "verify",
        "--repo",
        r.dir,
        "--patch",
        r.patch,
        "--test",
        "python3 -m pytest tests",
        "--runs",
        "1",
      ],
      {
        env: {
          ...process.env,
          RETRACE_SANDBOX_IMAGE: sandboxImage,
          RETRACE_CACHE_DIR: cache,
          ANTHROPIC_API_KEY: "",
        },
        timeout: 280_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

// A function with an off-by-one the patch fixes; the test module imports `extra` (a package of the mirror the
// sandbox image does not have) to prove the manifest's requirement reached the run.
const MODULE = `def clamp(value, top):
    """value, at most top."""
    return min(value, top - 1)
`;
const fixPatch = (file: string) => `--- a/${file}
+++ b/${file}
@@ -1,3 +1,3 @@
 def clamp(value, top):
     """value, at most top."""
-    return min(value, top - 1)
+    return min(value, top)
`;
const testModule = (pkg: string, extra: string) => `import ${extra}

from ${pkg} import clamp


def test_clamp_keeps_the_top():
    assert clamp(5, 5) == 5


def test_extra_imported():
    assert ${extra}.__name__ == "${extra}"
`;

/** marshmallow's shape: the test extra only in setup.py, a dict assigned by name and extended by code. */
const setupPy = (unit: string) => `import re
from setuptools import setup, find_packages

EXTRAS_REQUIRE = {
    "unit": [${unit}],
    "docs": ["sphinx-does-not-exist-here>=99"],
}
EXTRAS_REQUIRE["dev"] = EXTRAS_REQUIRE["unit"] + ["tox"]

setup(
    name="clampy",
    version="1.0.0",
    packages=find_packages(exclude=("tests",)),
    install_requires=[],
    extras_require=EXTRAS_REQUIRE,
)
`;
const toxIni = `[tox]
envlist = py3,docs

[testenv]
extras = unit
commands = pytest {posargs}

[testenv:docs]
extras = docs
commands = sphinx-build docs/ docs/_build
`;

describeDocker("verify: Python manifests of real repositories", () => {
  it("setup.py extras_require named by tox.ini's extras: read statically, installed, VERIFIED", async () => {
    const r = repo(
      "setup-py-extras",
      {
        "setup.py": setupPy('"pytest", "simplejson"'),
        "tox.ini": toxIni,
        "clampy/__init__.py": MODULE,
        "tests/test_clamp.py": testModule("clampy", "simplejson"),
      },
      fixPatch("clampy/__init__.py"),
    );
    const v = await verify(r);
    expect(v.stdout, v.stderr).toMatch(/VERIFIED/);
    expect(v.code).toBe(0);
    expect(v.stderr).toMatch(/from setup\.py extras_require unit/);
    expect(v.stderr).toMatch(/simplejson==[\d.]+/);
    // The docs extra (and dev's computed value) are not installed: sphinx-does-not-exist-here would fail.
    expect(v.stderr).not.toMatch(/sphinx/);
  }, 300_000);

  it("a setup.py extra the index lacks: exit 3 naming the package, the pip command and the setup.py field", async () => {
    const r = repo(
      "setup-py-absent",
      {
        "setup.py": setupPy('"pytest", "retrace-absent-package-zz>=1.0"'),
        "tox.ini": toxIni,
        "clampy/__init__.py": MODULE,
        "tests/test_clamp.py": testModule("clampy", "json"),
      },
      fixPatch("clampy/__init__.py"),
    );
    const v = await verify(r);
    expect(v.code, v.stderr).toBe(3);
    expect(v.stderr).toMatch(
      /cannot install the repository's Python requirements \(setup\.py extras_require unit\)/,
    );
    expect(v.stderr).toMatch(/retrace-absent-package-zz/);
    expect(v.stderr).toMatch(/pip install --dry-run/);
    expect(v.stdout).not.toMatch(/REJECTED|VERIFIED/);
  }, 300_000);

  it("tox in the test dependency group, tests run by pytest: tox not installed (said so), VERIFIED", async () => {
    const r = repo(
      "orchestrator",
      {
        "pyproject.toml": `[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "clampy"
version = "1.0.0"

[dependency-groups]
test = ["pytest", "freezegun>=1.2", "tox>=4", "nox", "pre-commit"]
`,
        "clampy/__init__.py": MODULE,
        "tests/test_clamp.py": testModule("clampy", "freezegun"),
      },
      fixPatch("clampy/__init__.py"),
    );
    const v = await verify(r);
    expect(v.stdout, v.stderr).toMatch(/VERIFIED/);
    expect(v.code).toBe(0);
    expect(v.stderr).toMatch(/not installed, the test command does not run them: tox>=4, nox, pre-commit/);
    expect(v.stderr).toMatch(/freezegun==[\d.]+/);
    expect(v.stderr).not.toMatch(/\b(tox|nox|pre-commit|pyproject-api)==/);
  }, 300_000);

  it("a hatch-vcs version file the package imports: written into each run's copy, not the checkout, VERIFIED", async () => {
    const r = repo(
      "version-file",
      {
        "pyproject.toml": `[build-system]
requires = ["hatchling", "hatch-vcs"]
build-backend = "hatchling.build"

[project]
name = "clampy"
dynamic = ["version"]

[tool.hatch.version]
source = "vcs"

[tool.hatch.build.hooks.vcs]
version-file = "src/clampy/_version.py"
`,
        ".gitignore": "src/clampy/_version.py\n",
        "src/clampy/__init__.py": `from ._version import __version__, __version_tuple__\n\n${MODULE}`,
        "tests/test_clamp.py": `${testModule("clampy", "json")}

def test_version():
    import clampy

    assert clampy.__version__ == "0.0.0+retrace"
    assert clampy.__version_tuple__[:3] == (0, 0, 0)
`,
      },
      `--- a/src/clampy/__init__.py
+++ b/src/clampy/__init__.py
@@ -3,3 +3,3 @@
 def clamp(value, top):
     """value, at most top."""
-    return min(value, top - 1)
+    return min(value, top)
`,
    );
    const v = await verify(r);
    expect(v.stdout, v.stderr).toMatch(/VERIFIED/);
    expect(v.code).toBe(0);
    expect(v.stderr).toMatch(
      /src\/clampy\/_version\.py \(pyproject\.toml \[tool\.hatch\.build\.hooks\.vcs\] version-file\) written into each run's copy with version 0\.0\.0\+retrace/,
    );
    expect(existsSync(path.join(r.dir, "src/clampy/_version.py"))).toBe(false);
    expect(execFileSync("git", ["-C", r.dir, "status", "--porcelain"], { encoding: "utf8" })).toBe("");
  }, 300_000);

  it("a version file that cannot be written to the cache: an infrastructure error naming it and its field", async () => {
    const broken = path.join(tmp, "broken-cache");
    mkdirSync(broken);
    // The cache's directory for version files is a file: nothing can be written under it.
    writeFileSync(path.join(broken, "python-version-files"), "");
    const { files } = declaredVersionFiles('[tool.setuptools_scm]\nwrite_to = "pkg/_version.py"\n');
    const error = await installRepoPythonDependencies(
      { sources: [], requirements: [], srcLayout: false, versionFiles: files },
      { cacheDir: broken, image: sandboxImage },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect(String((error as Error).message)).toMatch(
      /^cannot write the version file\(s\) pkg\/_version\.py \(pyproject\.toml \[tool\.setuptools_scm\] write_to\) into the install cache /,
    );
  }, 300_000);
});
