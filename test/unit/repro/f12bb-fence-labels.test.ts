/**
 * A fence label that names a language by a misspelling (`javscript`) or by a file name (`sftp-config.json`,
 * `src/index.js`) reads as that language (issue 12, fixer f12bb, from the hold23 misses). Every report here is
 * written for these tests; each rule has labels where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { languageFromFence } from "../../../src/repro/detect-language.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";

const f = "```";

describe("a misspelt language label", () => {
  it("reads one-edit misspellings of long names, and two edits of ten-letter names", () => {
    expect(languageFromFence("javscript")).toBe("javascript");
    expect(languageFromFence("javacsript")).toBe("javascript");
    expect(languageFromFence("pyhton")).toBe("python");
    expect(languageFromFence("pytohn")).toBe("python");
    expect(languageFromFence("typscript")).toBe("typescript");
    expect(languageFromFence("Javasript")).toBe("javascript");
  });

  it("does not guess from short names or other languages' names", () => {
    for (const label of ["ecmascript", "actionscript", "coffeescript", "cypher", "jsonc", "json5", "haskell"])
      expect(languageFromFence(label), label).toBeNull();
    for (const label of ["rust", "golang", "kotlin", "scala", "script", "yaml", "ruby", "pyth"])
      expect(languageFromFence(label), label).toBeNull();
  });

  it("makes a misspelt block runnable code", () => {
    const r = parseReport(["# parse fails", "", `${f}javscript`, "parseIt(`[1, 2]`)", f].join("\n"));
    const code = r.blocks.filter((b) => b.kind === "code");
    expect(code.map((b) => b.language)).toEqual(["javascript"]);
  });
});

describe("a file name as the label", () => {
  it("reads the language from the extension", () => {
    expect(languageFromFence("sftp-config.json")).toBe("json");
    expect(languageFromFence("src/index.js")).toBe("javascript");
    expect(languageFromFence("main.py")).toBe("python");
    expect(languageFromFence("bench.test.ts")).toBe("typescript");
  });

  it("leaves unknown and text extensions, and keeps `.js` and `{.python}` as before", () => {
    expect(languageFromFence("config.yml")).toBeNull();
    expect(languageFromFence("notes.txt")).toBeNull();
    expect(languageFromFence("Cargo.toml")).toBeNull();
    expect(languageFromFence(".js")).toBe("javascript");
    expect(languageFromFence("{.python}")).toBe("python");
  });

  it("reads a file-named JSON fence as data, not prose", () => {
    const r = parseReport(
      ["# comma stays", "", `${f}app-config.json`, '{ "a": 1, // "b": 2', "}", f].join("\n"),
    );
    expect(r.blocks.map((b) => b.language)).toContain("json");
  });
});
