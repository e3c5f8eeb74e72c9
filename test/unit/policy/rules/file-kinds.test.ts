import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { create, violationsOf } from "../helpers.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/patches/${name}`, import.meta.url), "utf8");

describe("binary-files, symlinks, mode-changes, submodules", () => {
  it("blocks GIT binary patches, Binary files lines and NUL bytes", () => {
    expect(violationsOf(fixture("git-binary-patch.diff"), "binary-files")).toHaveLength(1);
    const plain = "diff --git a/x.png b/x.png\nindex 1..2 100644\nBinary files a/x.png and b/x.png differ\n";
    expect(violationsOf(plain, "binary-files")).toHaveLength(1);
    expect(violationsOf(create("src/x.txt", "a\u0000b\n"), "binary-files")[0]).toMatchObject({ line: 1 });
  });

  it("blocks a new symlink and names its target (real git output)", () => {
    const [v] = violationsOf(fixture("symlink.diff"), "symlinks");
    expect(v).toMatchObject({ file: "src/link" });
    expect(v!.message).toMatch(/creates a symbolic link to `\/etc\/passwd`/);
  });

  it("blocks retargeting a symlink", () => {
    const patch =
      "diff --git a/l b/l\nindex 1..2 120000\n--- a/l\n+++ b/l\n@@ -1 +1 @@\n-target\n\\ No newline at end of file\n+/home/runner/.ssh/id_rsa\n\\ No newline at end of file\n";
    expect(violationsOf(patch, "symlinks")[0]!.message).toMatch(/changes a symbolic link/);
  });

  it("blocks mode changes and new executables unless allowExecutable", () => {
    expect(violationsOf(fixture("mode-change.diff"), "mode-changes")[0]!.message).toMatch(/100644 to 100755/);
    expect(
      violationsOf(fixture("mode-change.diff"), "mode-changes", { modeChanges: { allowExecutable: true } }),
    ).toEqual([]);
    expect(violationsOf(create("tools/run", "#!/bin/sh\n", "100755"), "mode-changes")[0]!.message).toMatch(
      /executable/,
    );
    expect(violationsOf(create("tools/ok.txt", "x\n"), "mode-changes")).toEqual([]);
  });

  it("blocks submodules (real git output) and .gitmodules", () => {
    expect(violationsOf(fixture("submodule.diff"), "submodules")).toHaveLength(1);
    expect(violationsOf(create(".gitmodules", '[submodule "x"]\n'), "submodules")).toHaveLength(1);
  });
});
