import { describe, expect, it } from "vitest";
import { checkPythonDependencies, dependencyDirs } from "../../../src/fix/dependencies.ts";
import type { PythonDependencies } from "../../../src/fix/dependencies.ts";
import { setupPyRequirements, toxExtras, unusedOrchestrators } from "../../../src/fix/python-requirements.ts";
import type { TestCommand } from "../../../src/fix/test-runner/types.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";
import { cpuMs } from "../../support/cpu-time.ts";

const SETUP_BY_NAME = `import re
from setuptools import setup, find_packages

EXTRAS_REQUIRE = {
    "tests": ["pytest", "pytz", 'simplejson'],  # test deps
    "lint": [
        "flake8==4.0.1",
        "pre-commit~=2.4",
    ],
    "docs": ["sphinx==4.3.2", "alabaster==0.7.12"],
}
EXTRAS_REQUIRE["dev"] = EXTRAS_REQUIRE["tests"] + EXTRAS_REQUIRE["lint"] + ["tox"]

def find_version(fname):
    return re.search(r'^__version__ = "(.*)"', open(fname).read(), re.M).group(1)

setup(
    name="calcpkg",
    version=find_version("src/calcpkg/__init__.py"),
    packages=find_packages("src"),
    install_requires=[],
    extras_require=EXTRAS_REQUIRE,
    python_requires=">=3.7",
)
`;

describe("setup.py, read statically", () => {
  it("takes the test extra of a dict assigned to the name passed as extras_require=, and the project name", () => {
    expect(setupPyRequirements(SETUP_BY_NAME)).toEqual({
      project: "calcpkg",
      requirements: ["pytest", "pytz", "simplejson"],
      sources: ["setup.py extras_require tests"],
      notes: [],
    });
  });

  it("also takes the extras tox.ini installs, matched by normalised name", () => {
    const r = setupPyRequirements(
      SETUP_BY_NAME,
      toxExtras("[tox]\nenvlist = py3\n[testenv]\nextras = Tests, docs\n"),
    );
    expect(r.requirements).toEqual(["pytest", "pytz", "simplejson", "sphinx==4.3.2", "alabaster==0.7.12"]);
    expect(r.sources).toEqual(["setup.py extras_require tests", "setup.py extras_require docs"]);
  });

  it("reads inline install_requires, tests_require and extras_require; tuples and implicit concatenation", () => {
    const py = `setup(name='lib', install_requires=['six>=1', "attr" "s"], tests_require=("mock",),
      extras_require={'dev': ['black'], "testing": [\n"pytest-cov",\n"""hypothesis"""]})`;
    expect(setupPyRequirements(py)).toEqual({
      project: "lib",
      requirements: ["six>=1", "attrs", "mock", "pytest-cov", "hypothesis"],
      sources: ["setup.py install_requires", "setup.py tests_require", "setup.py extras_require testing"],
      notes: [],
    });
  });

  it("skips anything computed with a note, and never takes strings out of comments or other calls", () => {
    const py = `# install_requires=["commented"]
deps = open("requirements.txt").read().splitlines()
setup(
    name=NAME,
    install_requires=deps,
    tests_require=["pytest"] + deps,
    extras_require={"test": base + ["x"], "docs": ["sphinx"], f"t{1}": ["y"]},
)
other(install_requires=["not-this"])
`;
    expect(setupPyRequirements(py)).toEqual({
      project: null,
      requirements: [],
      sources: [],
      notes: [
        "setup.py install_requires: not a literal list of strings, skipped",
        "setup.py tests_require: not a literal list of strings, skipped",
        "setup.py extras_require test: not a literal list, skipped",
      ],
    });
    expect(setupPyRequirements('setuptools.setup(install_requires=["a"])\n').requirements).toEqual(["a"]);
    expect(setupPyRequirements('def setup(install_requires=["a"]): pass\n').requirements).toEqual([]);
    expect(setupPyRequirements("setup(extras_require=make_extras())").notes).toEqual([
      "setup.py extras_require: not a dict literal, skipped",
    ]);
  });

  it("is linear on hostile input: unterminated strings, deep brackets, a long run of keywords", () => {
    // Growth, not a wall-clock bound (the machine is shared): each input at n and 4n, best of five runs; forty
    // parses of up to 2 MB take ~30 s of wall time alone here, so the test's own time limit is 120 s (vitest's 30 s
    // default stopped it in a fresh-clone CI run before the check could speak);
    // a linear reader grows ~4x (measured 4.5-6x at load, allocation included), a quadratic one ~16x.
    const inputs: Array<(n: number) => string> = [
      (n) => `setup(extras_require={"test": [${"(".repeat(n)}`,
      (n) => `"""${"x".repeat(n * 5)}`,
      (n) => `${"install_requires=".repeat(n / 4)}[`,
      (n) => `X = {${'"t": [1],'.repeat(n / 2)}}\nsetup(extras_require=X)`,
    ];
    const best = (text: string) => {
      let fastest = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 5; i++) {
        fastest = Math.min(fastest, cpuMs(() => setupPyRequirements(text)).ms);
      }
      return fastest;
    };
    for (const make of inputs) {
      const small = best(make(100_000));
      const large = best(make(400_000));
      expect(large).toBeLessThan(small * 12 + 30);
    }
  }, 120_000);
});

describe("orchestrators (tox, nox, pre-commit and their plugins)", () => {
  it("are unused unless the test command invokes them", () => {
    const reqs = ["pytest", "tox>=4", "tox-gh-actions", "nox", "Pre_Commit", "toxic", "nox-poetry==1"];
    expect(unusedOrchestrators(reqs, "python -m pytest")).toEqual([
      "tox>=4",
      "tox-gh-actions",
      "nox",
      "Pre_Commit",
      "nox-poetry==1",
    ]);
    expect(unusedOrchestrators(reqs, "python -m tox -e py")).toEqual(["nox", "Pre_Commit", "nox-poetry==1"]);
    expect(unusedOrchestrators(reqs, "/usr/bin/nox -s tests")).toEqual([
      "tox>=4",
      "tox-gh-actions",
      "Pre_Commit",
    ]);
  });

  const pytest: TestCommand = { framework: "pytest", command: "python -m pytest", detectedBy: "pytest.ini" };
  const semverLike = memoryWorkspace({
    "pyproject.toml": `[project]\nname = "semverlike"\ndependencies = []\n[dependency-groups]\ntest = ["pytest", "tox>=4", "tox-gh-actions"]\n`,
  });

  it("are left out of what the provider installs, and the notes say so", async () => {
    const seen: PythonDependencies[] = [];
    await dependencyDirs(semverLike, pytest, {
      provider: {
        js: async () => [],
        python: async (_w, python) => {
          seen.push(python);
          return [];
        },
      },
    });
    expect(seen).toEqual([
      {
        sources: ["pyproject.toml [dependency-groups] test"],
        requirements: ["pytest"],
        srcLayout: false,
        notes: ["not installed, the test command does not run them: tox>=4, tox-gh-actions"],
      },
    ]);
    // Without a command (a report of what is declared) nothing is left out.
    expect((await checkPythonDependencies(semverLike))?.requirements).toEqual([
      "pytest",
      "tox>=4",
      "tox-gh-actions",
    ]);
    expect((await checkPythonDependencies(semverLike, "tox -e py"))?.requirements).toEqual([
      "pytest",
      "tox>=4",
      "tox-gh-actions",
    ]);
  });

  it("setup.py extras join the other manifests, with tox.ini's extras and without the project itself", async () => {
    const ws = memoryWorkspace({
      "setup.py": SETUP_BY_NAME,
      "tox.ini": "[testenv]\nextras = tests\ndeps = calcpkg[docs]\ncommands = pytest {posargs}\n",
      "requirements-test.txt": "tox\nfreezegun\n",
    });
    expect(await checkPythonDependencies(ws, "python -m pytest")).toEqual({
      // tox.ini's deps name only the project itself, which is left out (its source is the checkout).
      sources: ["setup.py extras_require tests", "tox.ini [testenv] deps", "requirements-test.txt"],
      requirements: ["pytest", "pytz", "simplejson", "freezegun"],
      srcLayout: false,
      notes: ["not installed, the test command does not run them: tox"],
    });
  });
});
