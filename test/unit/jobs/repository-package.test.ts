/**
 * The package a repository publishes, read from its root manifest (src/jobs/repository-package.ts): the name
 * each manifest declares, only a valid npm/PyPI name, and the order the intake reads them in.
 */
import { describe, expect, it } from "vitest";
import { MANIFESTS, manifestPackageName } from "../../../src/jobs/repository-package.ts";

describe("manifestPackageName", () => {
  it("package.json: its name, scoped names too; not a name, no name or broken JSON → null", () => {
    expect(manifestPackageName("package.json", '{"name":"pretty-bytes","version":"7.0.0"}')).toBe(
      "pretty-bytes",
    );
    expect(manifestPackageName("package.json", '{"name":"@scope/tool"}')).toBe("@scope/tool");
    expect(manifestPackageName("package.json", '{"name":"a b"}')).toBeNull();
    expect(manifestPackageName("package.json", '{"private":true}')).toBeNull();
    expect(manifestPackageName("package.json", "{ not json")).toBeNull();
  });

  it("pyproject.toml: [project] name, else [tool.poetry] name; a name in another table is not it", () => {
    const pep621 =
      '[build-system]\nrequires = ["setuptools"]\n\n[project]\nname = "isodate"\nversion = "0.7.2"\n';
    expect(manifestPackageName("pyproject.toml", pep621)).toBe("isodate");
    const poetry = "[tool.poetry]\nname = 'tomlkit'  # the package\nversion = \"0.13.0\"\n";
    expect(manifestPackageName("pyproject.toml", poetry)).toBe("tomlkit");
    const other = '[tool.black]\nname = "not-this"\n\n[project.urls]\nname = "nor-this"\n';
    expect(manifestPackageName("pyproject.toml", other)).toBeNull();
  });

  it("setup.cfg: [metadata] name; setup.py: the name= of the setup() call", () => {
    expect(manifestPackageName("setup.cfg", "[metadata]\nname = python-dateutil\n")).toBe("python-dateutil");
    expect(manifestPackageName("setup.cfg", "[options]\nname = x\n")).toBeNull();
    const py = 'from setuptools import setup\n\nsetup(\n    name="tabulate",\n    version="0.9.0",\n)\n';
    expect(manifestPackageName("setup.py", py)).toBe("tabulate");
    expect(manifestPackageName("setup.py", "print('no setup here')\n")).toBeNull();
  });

  it("reads npm's manifest first, then PyPI's", () => {
    expect(MANIFESTS).toEqual(["package.json", "pyproject.toml", "setup.cfg", "setup.py"]);
  });
});
