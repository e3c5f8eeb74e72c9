import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkspacePathError } from "../../../src/git/errors.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { normalizeRepoPath } from "../../../src/git/repo-path.ts";

let dir: string;
let outside: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "retrace-ws-"));
  outside = await mkdtemp(path.join(tmpdir(), "retrace-outside-"));
  await mkdir(path.join(dir, "src/lib"), { recursive: true });
  await mkdir(path.join(dir, ".git"), { recursive: true });
  await mkdir(path.join(dir, "node_modules/x"), { recursive: true });
  await writeFile(path.join(dir, "src/app.ts"), "export const a = 1;\n");
  await writeFile(path.join(dir, "src/lib/util.ts"), "export const u = 2;\n");
  await writeFile(path.join(dir, "README.md"), "# hi\n");
  await writeFile(path.join(dir, ".git/config"), "[core]\n");
  await writeFile(path.join(dir, "node_modules/x/index.js"), "module.exports = 1;\n");
  await mkdir(path.join(dir, ".retrace/fix-1"), { recursive: true });
  await writeFile(path.join(dir, ".retrace/fix-1/trace.json"), "{}\n");
  await writeFile(path.join(outside, "secret.txt"), "TOKEN=abc\n");
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe("normalizeRepoPath", () => {
  it("normalises harmless spellings", () => {
    expect(normalizeRepoPath("./src//lib/app.ts")).toBe("src/lib/app.ts");
    expect(normalizeRepoPath("src/")).toBe("src");
    expect(normalizeRepoPath("./")).toBe(".");
  });

  // Decided in issue 11 (one path rule, docs/paths.md): `a/../b` is no longer collapsed and `a\b` no longer
  // rewritten to `a/b`; both are refused, as every other validator refused them.
  it.each(["", "/etc/passwd", "C:/x", "../x", "src/../../x", "a\0b", "src/./lib/../app.ts", "src\\app.ts"])(
    "rejects %j",
    (p) => {
      expect(() => normalizeRepoPath(p)).toThrow(WorkspacePathError);
    },
  );
});

describe("createFsWorkspace", () => {
  it("reads files and reports existence", async () => {
    const ws = await createFsWorkspace(dir);
    expect(await ws.readFile("src/app.ts")).toBe("export const a = 1;\n");
    expect(await ws.exists("src/lib")).toBe(true);
    expect(await ws.exists("src/nope.ts")).toBe(false);
    expect(await ws.exists("../etc/passwd")).toBe(false);
    await expect(ws.readFile("src/nope.ts")).rejects.toThrow(
      /file not found in the repository: src\/nope.ts/,
    );
    await expect(ws.readFile("src")).rejects.toThrow(/not a regular file/);
  });

  it("lists files sorted, without .git, node_modules and Retrace's own .retrace outputs, optionally under a directory", async () => {
    const ws = await createFsWorkspace(dir);
    expect(await ws.listFiles()).toEqual(["README.md", "src/app.ts", "src/lib/util.ts"]);
    expect(await ws.listFiles({ under: "src/lib" })).toEqual(["src/lib/util.ts"]);
    expect(await ws.listFiles({ max: 1 })).toHaveLength(1);
  });

  it("rejects symlinks that lead outside the repository, and does not list them", async () => {
    await symlink(path.join(outside, "secret.txt"), path.join(dir, "leak.txt"));
    await symlink(outside, path.join(dir, "src/out"));
    const ws = await createFsWorkspace(dir);
    await expect(ws.readFile("leak.txt")).rejects.toThrow(/outside the repository through a symlink/);
    await expect(ws.readFile("src/out/secret.txt")).rejects.toThrow(WorkspacePathError);
    expect(await ws.exists("leak.txt")).toBe(false);
    expect(await ws.listFiles()).not.toContain("leak.txt");
  });

  it("refuses a committed symlink into .git, so its token never reaches a reader", async () => {
    await writeFile(
      path.join(dir, ".git/config"),
      '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46c2VjcmV0\n',
    );
    await mkdir(path.join(dir, "docs"));
    await symlink("../.git/config", path.join(dir, "docs/notes.txt"));
    const ws = await createFsWorkspace(dir);
    await expect(ws.readFile("docs/notes.txt")).rejects.toThrow(
      /refused to follow a symlink: docs\/notes.txt/,
    );
    expect(await ws.exists("docs/notes.txt")).toBe(false);
    expect(await ws.findSymlink("docs/notes.txt")).toBe("docs/notes.txt");
    expect(await ws.listFiles()).not.toContain("docs/notes.txt");
  });

  it("refuses symlinks inside the repository too, in any path component", async () => {
    await symlink(path.join(dir, "src/app.ts"), path.join(dir, "alias.ts"));
    await symlink("src/lib", path.join(dir, "lib"));
    const ws = await createFsWorkspace(dir);
    await expect(ws.readFile("alias.ts")).rejects.toThrow(WorkspacePathError);
    await expect(ws.readFile("lib/util.ts")).rejects.toThrow(/through the symlink lib: lib\/util.ts/);
    expect(await ws.exists("alias.ts")).toBe(false);
    expect(await ws.exists("lib")).toBe(false);
    expect(await ws.exists("lib/util.ts")).toBe(false);
    expect(await ws.findSymlink("lib/util.ts")).toBe("lib");
    expect(await ws.findSymlink("lib/new/deeper.ts")).toBe("lib");
    expect(await ws.findSymlink("src/lib/util.ts")).toBeNull();
    expect(await ws.findSymlink("src/not/yet.ts")).toBeNull();
    // The real file stays readable by its own path.
    expect(await ws.readFile("src/lib/util.ts")).toBe("export const u = 2;\n");
  });

  it.each([".git/config", "src/../.git/config", ".GIT/config", "sub/.git/HEAD"])(
    "refuses to read version-control data: %s",
    async (p) => {
      await mkdir(path.join(dir, "sub/.git"), { recursive: true });
      await writeFile(path.join(dir, "sub/.git/HEAD"), "ref: refs/heads/main\n");
      const ws = await createFsWorkspace(dir);
      await expect(ws.readFile(p)).rejects.toThrow(/refused to read inside \.git/);
      expect(await ws.exists(p)).toBe(false);
    },
  );

  it("does not mistake .gitignore or .github for .git", async () => {
    await writeFile(path.join(dir, ".gitignore"), "node_modules\n");
    const ws = await createFsWorkspace(dir);
    expect(await ws.readFile(".gitignore")).toBe("node_modules\n");
    expect(await ws.exists(".gitignore")).toBe(true);
  });

  it("fails clearly for a missing repository", async () => {
    await expect(createFsWorkspace(path.join(dir, "missing"))).rejects.toThrow(
      /repository directory not found/,
    );
    await expect(createFsWorkspace(path.join(dir, "README.md"))).rejects.toThrow(/not a directory/);
  });
});
