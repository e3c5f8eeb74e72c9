/**
 * A browser import from a CDN address is read as the npm package it serves (issue 12, fixer f12bb, from the
 * hold23 misses: an `https://esm.sh/…` import failing in Node is the sandbox's runtime, not the report's claim).
 * Reports written for these tests; each rule has inputs where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { cdnImportsAsPackages } from "../../../src/repro/cdn-imports.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";

const f = "```";

describe("a CDN import", () => {
  it("must not fire: esm.sh's GitHub, pull-request and JSR addresses name no npm package", () => {
    for (const code of [
      'import x from "https://esm.sh/gh/owner/repo";',
      "import x from 'https://esm.sh/gh/owner/repo@v1.2.0/src/index.ts';",
      'import x from "https://esm.sh/v135/gh/owner/repo";',
      'import x from "https://esm.sh/pr/owner/repo@abc1234";',
      'import x from "https://esm.sh/jsr/@std/encoding@1.0.0/base64";',
    ]) {
      const r = cdnImportsAsPackages(code);
      expect(r.code).toBe(code);
      expect(r.read).toEqual([]);
    }
    // A package whose name only starts so is one.
    expect(cdnImportsAsPackages('import x from "https://esm.sh/ghost-lib";').read).toEqual(["ghost-lib"]);
  });

  it("reads esm.sh, jsDelivr and unpkg addresses as the package and its subpath", () => {
    expect(
      cdnImportsAsPackages(
        'import a from "https://esm.sh/left-pad";\nimport b from "https://esm.sh/some-lib/compat";',
      ).code,
    ).toBe('import a from "left-pad";\nimport b from "some-lib/compat";');
    expect(
      cdnImportsAsPackages("import { f } from 'https://esm.sh/some-lib@1.2.0/compat?bundle';").code,
    ).toBe("import { f } from 'some-lib/compat';");
    expect(
      cdnImportsAsPackages("const m = await import('https://cdn.jsdelivr.net/npm/a-lib@3.7.2/+esm');").code,
    ).toBe("const m = await import('a-lib');");
    expect(
      cdnImportsAsPackages("import x from 'https://unpkg.com/@scope/pkg@1.2.3/dist/x.mjs?module';").code,
    ).toBe("import x from '@scope/pkg/dist/x.mjs';");
    expect(
      cdnImportsAsPackages("import x from 'https://esm.sh/v135/a-lib@4.1.0/es2022/a-lib.mjs';").code,
    ).toBe("import x from 'a-lib';");
  });

  it("leaves other addresses and URLs that are not import specifiers", () => {
    const code = "fetch('https://esm.sh/left-pad');\nimport y from 'https://example.com/lib.js';\n";
    expect(cdnImportsAsPackages(code)).toEqual({ code, read: [] });
  });

  it("installs the package at the release the address names, and says so", () => {
    const r = parseReport(
      [
        "# t",
        "",
        `${f}js`,
        'import { chunk } from "https://esm.sh/some-lib@1.32.0";',
        "console.log(chunk([1, 2, 3], 2));",
        f,
      ].join("\n"),
    );
    expect(r.versions).toContainEqual({ name: "some-lib", version: "1.32.0", style: "@" });
    const p = completeProgram(r)!;
    expect(p.dependencies).toEqual(["some-lib"]);
    expect(Object.values(p.files).join("\n")).toContain('from "some-lib"');
    expect(p.completions.join(" ")).toMatch(/imported from a CDN address/);
  });
});
