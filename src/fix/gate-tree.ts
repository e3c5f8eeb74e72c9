/**
 * The tree's names the policy gate is given with a patch (GateContext.treeFiles): the first GATE_TREE_FILES names
 * of the checkout, and every name under the directory of each path the patch names. A new file that folds onto a
 * name of the tree (`src/Auth.js` beside `src/auth.js`) is refused by the gate; with only the first names listed, an
 * original past them (100,001 files sorted before `src/`) let the twin through the gate (wave 23, open until red
 * team 24), as the App's final gate already lists the names along the patch's paths (src/jobs/publish.ts).
 */
import { parsePatchSections } from "../core/apply-patch.ts";
import type { Workspace } from "../core/ports/workspace.ts";
import { GATE_TREE_FILES } from "../policy/index.ts";

/** Directories whose names are listed for one patch at most (a patch's files are capped by the gate far below). */
const MAX_PATCH_DIRECTORIES = 200;

/** The paths a patch names (each section's old and new), or none when it does not parse (the gate refuses it). */
export function patchPaths(patch: string): string[] {
  try {
    return [
      ...new Set(parsePatchSections(patch).flatMap((s) => [s.oldPath, s.newPath].filter((p) => p !== null))),
    ];
  } catch {
    return [];
  }
}

export async function gateTreeNames(workspace: Workspace, patch: string): Promise<string[]> {
  const names = new Set(await workspace.listFiles({ max: GATE_TREE_FILES }));
  const dirs = new Set<string>();
  for (const p of patchPaths(patch)) {
    const at = p.lastIndexOf("/");
    if (at > 0) dirs.add(p.slice(0, at));
  }
  for (const dir of [...dirs].slice(0, MAX_PATCH_DIRECTORIES)) {
    // A directory the patch makes, or one outside the checkout, lists nothing: the gate judges those itself.
    const under = await workspace.listFiles({ under: dir, max: GATE_TREE_FILES }).catch(() => [] as string[]);
    for (const n of under) names.add(n);
  }
  return [...names];
}
