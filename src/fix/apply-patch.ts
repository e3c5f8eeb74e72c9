/**
 * Applies a unified diff to the files of a workspace, in memory (pure: files are read through the
 * Workspace port). The result is an overlay for the sandbox input: new contents and removed paths.
 * A patch that does not apply cleanly is reported with the file and the hunk that failed; there is no
 * fuzz: a patch verified here is exactly the patch a pull request would carry.
 */
import { applyPatch, parsePatch, type StructuredPatch, type StructuredPatchHunk } from "diff";
import { RetraceError } from "../core/errors.ts";
import type { Workspace } from "../core/ports/workspace.ts";
import { normalizeRepoPath, repoPathProblem } from "./repo-path.ts";

/** A patch that does not parse or does not apply to the files it names. */
export class PatchApplyError extends RetraceError {
  /** The repo-relative file the failure is about, when known. */
  readonly file: string | undefined;
  /** 1-based index of the failing hunk within that file, when known. */
  readonly hunk: number | undefined;
  constructor(message: string, details: { file?: string; hunk?: number; hint?: string } = {}) {
    super("patch", message, {
      hint: details.hint ?? "regenerate the patch against the repository's current files (git diff)",
      exitCode: 1,
    });
    this.file = details.file;
    this.hunk = details.hunk;
  }
}

export interface PatchedFiles {
  /** New full contents of every created or modified file, keyed by repo-relative path. */
  files: Record<string, string>;
  /** Repo-relative paths the patch deletes (including the old side of renames). */
  remove: string[];
  /** Every path the patch touches, sorted. */
  changed: string[];
}

const DEV_NULL = "/dev/null";

function stripPrefixes(index: StructuredPatch): { oldPath: string | null; newPath: string | null } {
  const oldName = index.oldFileName;
  const newName = index.newFileName;
  if (oldName === undefined || newName === undefined) {
    throw new PatchApplyError("a file section of the patch has no ---/+++ file names", {
      hint: "produce the patch with `git diff` or `diff -u` so every section names its file",
    });
  }
  const oldIsNull = oldName === DEV_NULL;
  const newIsNull = newName === DEV_NULL;
  // git (and most tools) prefix a/ and b/; strip them when both sides (or the non-null side) carry them.
  const prefixed =
    (oldIsNull || oldName.startsWith("a/")) &&
    (newIsNull || newName.startsWith("b/")) &&
    !(oldIsNull && newIsNull);
  const clean = (name: string, isNull: boolean): string | null => {
    if (isNull) return null;
    const bare = prefixed ? name.slice(2) : name;
    // The same rule as model edits: relative, no `..` segment, nothing inside .git.
    const normal = normalizeRepoPath(bare);
    if (normal === null) {
      throw new PatchApplyError(
        `the patch names an invalid path ${JSON.stringify(name)}: ${repoPathProblem(bare) ?? "not a repository path"}`,
        { file: name },
      );
    }
    return normal;
  };
  return { oldPath: clean(oldName, oldIsNull), newPath: clean(newName, newIsNull) };
}

function hunkHeader(h: StructuredPatchHunk): string {
  return `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
}

/** Finds the first hunk that does not apply, by applying growing prefixes of the hunk list. */
function failingHunk(source: string, index: StructuredPatch): number {
  for (let i = 0; i < index.hunks.length; i++) {
    if (applyPatch(source, { ...index, hunks: index.hunks.slice(0, i + 1) }) === false) return i;
  }
  return index.hunks.length - 1;
}

/** Parses `patchText` and applies it to the workspace's files, in memory. Throws `PatchApplyError`. */
export async function applyPatchToWorkspace(workspace: Workspace, patchText: string): Promise<PatchedFiles> {
  if (!patchText.trim())
    throw new PatchApplyError("the patch is empty", { hint: "pass a unified diff (git diff output)" });
  let parsed: StructuredPatch[];
  try {
    parsed = parsePatch(patchText.replace(/\r\n/g, "\n"));
  } catch (error) {
    throw new PatchApplyError(`the patch does not parse: ${(error as Error).message}`);
  }
  const sections = parsed.filter(
    (p) =>
      p.hunks.length > 0 || p.isCreate || p.isDelete || p.isRename || p.isBinary || p.oldMode || p.newMode,
  );
  if (sections.length === 0) {
    throw new PatchApplyError("the patch contains no file changes", {
      hint: "pass a unified diff with @@ hunks",
    });
  }

  // Current state of every touched path: string = contents, null = absent. Sections may chain on one file.
  const state = new Map<string, string | null>();
  const original = new Map<string, string | null>();
  const read = async (p: string): Promise<string | null> => {
    if (state.has(p)) return state.get(p) ?? null;
    const content = (await workspace.exists(p)) ? await workspace.readFile(p) : null;
    state.set(p, content);
    original.set(p, content);
    return content;
  };

  // A path through a symlink is refused: `git apply` refuses to write "beyond a symbolic link", and a
  // text hunk on a link would change the link, not a file, so the tree verified here would not be the
  // tree the pull request produces (and the sandbox copy would write wherever the link points).
  const checked = new Set<string>();
  const refuseSymlinks = async (p: string | null, role: string): Promise<void> => {
    if (p === null || checked.has(p)) return;
    checked.add(p);
    const link = await workspace.findSymlink(p);
    if (link === null) return;
    throw new PatchApplyError(
      link === p
        ? `the patch ${role} ${p}, which is a symlink in the repository`
        : `the patch ${role} ${p}, but ${link} is a symlink in the repository`,
      {
        file: p,
        hint: "Retrace does not patch through symlinks (git apply refuses to write beyond one); change the file the link points to, by its own path",
      },
    );
  };

  for (const section of sections) {
    const { oldPath, newPath } = stripPrefixes(section);
    await refuseSymlinks(oldPath, newPath === null ? "deletes" : "changes");
    await refuseSymlinks(newPath, oldPath === null ? "creates" : "writes");
    const label = newPath ?? oldPath ?? "?";
    if (section.isBinary) {
      throw new PatchApplyError(`binary changes cannot be applied from a text diff: ${label}`, {
        file: label,
      });
    }
    const isCreate = oldPath === null || section.isCreate === true;
    const isDelete = newPath === null || section.isDelete === true;
    const sourcePath = isCreate ? null : oldPath;
    let source = "";
    if (sourcePath !== null) {
      const current = await read(sourcePath);
      if (current === null) {
        throw new PatchApplyError(
          `the patch modifies ${sourcePath}, which does not exist in the repository`,
          {
            file: sourcePath,
          },
        );
      }
      source = current;
    } else if (newPath !== null && (await read(newPath)) !== null) {
      throw new PatchApplyError(`the patch creates ${newPath}, which already exists`, { file: newPath });
    }
    let result = source;
    if (section.hunks.length > 0) {
      const applied = applyPatch(source, section);
      if (applied === false) {
        const i = failingHunk(source, section);
        const h = section.hunks[i];
        throw new PatchApplyError(
          `hunk ${i + 1} of ${section.hunks.length} (${h ? hunkHeader(h) : "?"}) does not apply to ${label}: its context or removed lines do not match the file`,
          { file: label, hunk: i + 1 },
        );
      }
      result = applied;
    }
    if (isDelete) {
      if (oldPath === null) throw new PatchApplyError("a section deletes /dev/null", { file: label });
      if (result !== "") {
        throw new PatchApplyError(`the patch deletes ${oldPath} but does not remove all of its lines`, {
          file: oldPath,
        });
      }
      state.set(oldPath, null);
      continue;
    }
    if (newPath === null) continue;
    if (oldPath !== null && oldPath !== newPath && !section.isCopy) {
      await read(newPath);
      state.set(oldPath, null);
    }
    state.set(newPath, result);
  }

  const files: Record<string, string> = {};
  const remove: string[] = [];
  for (const [p, content] of state) {
    const before = original.get(p) ?? null;
    if (content === before) continue; // read to check, left unchanged
    if (content === null) remove.push(p);
    else files[p] = content;
  }
  const changed = [...Object.keys(files), ...remove].sort();
  return { files, remove: remove.sort(), changed };
}
