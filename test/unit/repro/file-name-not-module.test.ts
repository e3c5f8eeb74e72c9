/**
 * A file named in a report is not a module's attribute: `toml.load("/tmp/test.toml")` in a traceback made the free
 * name `toml` an import from the standard library's `test` package, and a report that reproduced became NEEDS_INFO
 * (hold5-py-toml-450). Paths, quoted file names and `name.<extension>` in prose are files; module paths still name
 * modules.
 */
import { describe, expect, it } from "vitest";
import { moduleNamedFor } from "../../../src/repro/python-names.ts";

describe("moduleNamedFor and file names", () => {
  it("a path, a quoted file name or a bare file name is not a module path", () => {
    expect(moduleNamedFor("toml", ['    toml.load("/tmp/test.toml")'])).toBeNull();
    expect(moduleNamedFor("json", ["with open('data.json') as f:"])).toBeNull();
    expect(moduleNamedFor("toml", ["Loading test.toml with toml.load() fails."])).toBeNull();
    expect(moduleNamedFor("yaml", ["C:\\work\\settings.yaml is read"])).toBeNull();
  });

  it("module paths still name their module", () => {
    expect(moduleNamedFor("SplitResult", ["`urllib.parse.SplitResult` has no field"])).toBe("urllib.parse");
    expect(moduleNamedFor("toml", ["it is vendored as pip._vendor.toml.load(...)"])).toBe("pip._vendor");
    expect(moduleNamedFor("decoder", ["raised toml.decoder.TomlDecodeError"])).toBe("toml");
    expect(moduleNamedFor("toml", ["from pip._vendor import toml"])).toBe("pip._vendor");
  });
});
