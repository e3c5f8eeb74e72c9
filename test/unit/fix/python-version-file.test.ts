import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { checkPythonDependencies } from "../../../src/fix/dependencies.ts";
import { declaredVersionFiles, fillTemplate } from "../../../src/fix/python-version-file.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";

/** humanize's declaration (hatch-vcs build hook). */
const HATCH = `[build-system]
requires = ["hatch-vcs", "hatchling"]
build-backend = "hatchling.build"

[project]
name = "humanize"
dynamic = ["version"]

[tool.hatch.version]
source = "vcs"

[tool.hatch.build.hooks.vcs]
version-file = "src/humanize/_version.py"
`;

describe("declaredVersionFiles", () => {
  it("hatch-vcs version-file: a .py file with setuptools-scm's fields and a fixed local version", () => {
    const { files, notes } = declaredVersionFiles(HATCH);
    expect(notes).toEqual([]);
    expect(files.map((f) => [f.path, f.field])).toEqual([
      ["src/humanize/_version.py", "pyproject.toml [tool.hatch.build.hooks.vcs] version-file"],
    ]);
    const text = files[0]?.text ?? "";
    expect(text).toMatch(/^__version__ = version = '0\.0\.0\+retrace'$/m);
    expect(text).toMatch(/^__version_tuple__ = version_tuple = \(0, 0, 0, 'retrace'\)$/m);
  });

  it("the .py file is valid Python that gives what a package imports from it", () => {
    const text = declaredVersionFiles(HATCH).files[0]?.text ?? "";
    const out = execFileSync(
      "python3",
      [
        "-c",
        "import sys; ns = {}; exec(sys.stdin.read(), ns); print(ns['__version__'], ns['version'], ns['__version_tuple__'], ns['__commit_id__'])",
      ],
      { input: text, encoding: "utf8" },
    );
    expect(out.trim()).toBe("0.0.0+retrace 0.0.0+retrace (0, 0, 0, 'retrace') None");
  });

  it("setuptools-scm version_file and write_to (with their templates), one file per path", () => {
    const { files, notes } = declaredVersionFiles(`[tool.setuptools_scm]
version_file = "pkg/_version.py"
write_to = "./pkg/_version.py"

[tool.hatch.build.hooks.vcs]
version-file = "VERSION.txt"
`);
    expect(notes).toEqual([]);
    expect(files.map((f) => [f.path, f.field])).toEqual([
      ["VERSION.txt", "pyproject.toml [tool.hatch.build.hooks.vcs] version-file"],
      ["pkg/_version.py", "pyproject.toml [tool.setuptools_scm] version_file"],
    ]);
    expect(files[0]?.text).toBe("0.0.0+retrace\n");
    const templated = declaredVersionFiles(`[tool.setuptools_scm]
write_to = "pkg/version.json"
write_to_template = '{{"version": "{version}"}}'
`);
    expect(templated.files.map((f) => [f.path, f.text])).toEqual([
      ["pkg/version.json", '{"version": "0.0.0+retrace"}'],
    ]);
  });

  it("paths outside the repository, an unknown kind without template and unknown template fields: notes, no file", () => {
    const { files, notes } = declaredVersionFiles(`[tool.setuptools_scm]
version_file = "../outside/_version.py"
write_to = "pkg/VERSION"

[tool.hatch.build.hooks.vcs]
version-file = "pkg/_v.py"
template = "v = {scm_version.distance}"
`);
    expect(files).toEqual([]);
    expect(notes).toEqual([
      'pyproject.toml [tool.hatch.build.hooks.vcs] version-file "pkg/_v.py": its template names fields other than version and version_tuple, not written',
      'pyproject.toml [tool.setuptools_scm] version_file "../outside/_version.py": not a path inside the repository, not written',
      'pyproject.toml [tool.setuptools_scm] write_to "pkg/VERSION": neither .py nor .txt and no template, not written',
    ]);
    for (const p of [
      "/etc/x.py",
      "a/../../b.py",
      ".git/hooks/x.py",
      ".GIT/hooks/x.py",
      "pkg/.Git/x.py",
      ".git./hooks/x.py",
      ".git /x.py",
      "GIT~1/hooks/x.py",
      "a\\b.py",
      "C:/x.py",
    ])
      expect(
        declaredVersionFiles(`[tool.setuptools_scm]\nversion_file = ${JSON.stringify(p)}\n`).files,
      ).toEqual([]);
  });

  it("writes into directories that merely look like .git", () => {
    for (const p of [".github/_version.py", "pkg/.gitkeep/_v.py", "git/_version.py"])
      expect(
        declaredVersionFiles(`[tool.setuptools_scm]\nversion_file = ${JSON.stringify(p)}\n`).files.map(
          (f) => f.path,
        ),
      ).toEqual([p]);
  });

  it("fillTemplate: Python's str.format for version and version_tuple, doubled braces kept single", () => {
    expect(fillTemplate("__version__ = {version!r}  # {{x}}\nT = {version_tuple}\n")).toBe(
      "__version__ = '0.0.0+retrace'  # {x}\nT = (0, 0, 0, 'retrace')\n",
    );
    expect(fillTemplate("{node}")).toBeNull();
  });

  it("invalid TOML or no declaration: nothing", () => {
    expect(declaredVersionFiles("[[[")).toEqual({ files: [], notes: [] });
    expect(declaredVersionFiles('[project]\nname = "x"\n')).toEqual({ files: [], notes: [] });
  });
});

describe("checkPythonDependencies: version files", () => {
  it("a declared version file the checkout lacks is to be written, even with nothing to install", async () => {
    const ws = memoryWorkspace({ "pyproject.toml": HATCH, "src/humanize/__init__.py": "" });
    const python = await checkPythonDependencies(ws, "python -m pytest");
    expect(python?.srcLayout).toBe(true);
    expect(python?.versionFiles?.map((f) => f.path)).toEqual(["src/humanize/_version.py"]);
    const flat = memoryWorkspace({
      "pyproject.toml": '[tool.setuptools_scm]\nwrite_to = "pkg/_version.py"\n',
      "pkg/__init__.py": "",
    });
    expect(await checkPythonDependencies(flat, "python -m pytest")).toMatchObject({
      requirements: [],
      srcLayout: false,
      versionFiles: [{ path: "pkg/_version.py", field: "pyproject.toml [tool.setuptools_scm] write_to" }],
    });
  });

  it("one the checkout has is the repository's own: not replaced; one under a symlink: not written, noted", async () => {
    const has = memoryWorkspace({
      "pyproject.toml": HATCH,
      "src/humanize/__init__.py": "",
      "src/humanize/_version.py": "__version__ = '4.9.0'\n",
    });
    expect((await checkPythonDependencies(has, "python -m pytest"))?.versionFiles).toBeUndefined();
    const linked = memoryWorkspace({ "pyproject.toml": HATCH, "src/humanize/__init__.py": "" }, "/repo", [
      "src/humanize",
    ]);
    const python = await checkPythonDependencies(linked, "python -m pytest");
    expect(python?.versionFiles).toBeUndefined();
    expect(python?.notes).toEqual([
      'pyproject.toml [tool.hatch.build.hooks.vcs] version-file "src/humanize/_version.py": under a symlink of the checkout, not written',
    ]);
  });
});
