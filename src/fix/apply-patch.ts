/**
 * The one patch applier (src/core/apply-patch.ts) over the Workspace port: the repository checkout as the
 * base. The result is both the list of file changes the publishers write and the overlay for the sandbox
 * input (new contents and removed paths), so the tests run on exactly what is published.
 */
import { applyPatch, type FileWrite, PatchApplyError, type PatchBase } from "../core/apply-patch.ts";
import type { RepoPath } from "../core/repo-path.ts";
import type { Workspace } from "../core/ports/workspace.ts";

export { PatchApplyError };
export type { FileWrite };

export interface PatchedFiles {
  /** New full contents of every created or modified file, keyed by repo-relative path. */
  files: Record<string, string>;
  /** Repo-relative paths the patch deletes (including the old side of renames). */
  remove: string[];
  /** Every path the patch touches, sorted. */
  changed: string[];
  /** The same changes as the publishers write them: path, new text or deletion, git mode. */
  changes: FileWrite[];
  /** Created or modified files whose mode is executable (100755), sorted. */
  executable: string[];
}

/** A checkout as the base of a patch: symlinks through `findSymlink`, modes through `fileMode`. */
export function workspaceBase(workspace: Workspace): PatchBase {
  return {
    where: "in the repository",
    async modes(paths: readonly RepoPath[]) {
      const out = new Map<string, string>();
      for (const p of paths) {
        const link = await workspace.findSymlink(p);
        if (link === p) out.set(p, "120000");
        else if (link === null && (await workspace.exists(p)))
          out.set(p, (await workspace.fileMode?.(p)) ?? "100644");
      }
      return out;
    },
    read: async (p) => ((await workspace.exists(p)) ? workspace.readFile(p) : null),
    ...(workspace.listDirectory
      ? { names: (dir: string) => workspace.listDirectory!(dir) as Promise<readonly string[] | null> }
      : {}),
  };
}

/** The overlay form of a change list: what the sandbox writes and removes. */
export function patchedFilesOf(changes: readonly FileWrite[]): PatchedFiles {
  const files: Record<string, string> = {};
  const remove: string[] = [];
  const executable: string[] = [];
  for (const c of changes) {
    if (c.content === null) remove.push(c.path);
    else {
      files[c.path] = c.content;
      if (c.mode === "100755") executable.push(c.path);
    }
  }
  return {
    files,
    remove: remove.sort(),
    changed: changes.map((c) => c.path as string).sort(),
    changes: [...changes],
    executable: executable.sort(),
  };
}

/** Parses `patchText` and applies it to the workspace's files, in memory. Throws `PatchApplyError`. */
export async function applyPatchToWorkspace(workspace: Workspace, patchText: string): Promise<PatchedFiles> {
  return patchedFilesOf(await applyPatch(workspaceBase(workspace), patchText));
}
