/**
 * The lineage of a Retrace branch, for the Action (which keeps no job store): follow the draft PRs from the
 * failed `retrace/…` branch down to the first branch that is not Retrace's own. Each hop is one fix stacked
 * on another; `fix.lineageCap` bounds how many there may be (the App counts the same from its job records).
 */
import { isRetraceBranch } from "./intake-rules.ts";
import { TRACKING_MARKER_PREFIX } from "./triggers.ts";
import type { GitHubPort, RepoId } from "../core/ports/github.ts";

export interface Lineage {
  /** The branch the chain started from (the failed branch itself when it is not Retrace's). */
  root: string;
  /** Retrace fixes stacked on the chain, the one about to run included; 0 for an ordinary branch. */
  fixes: number;
}

/** Stops after `limit` hops: past the cap the exact depth does not matter. */
export async function lineageOf(
  github: GitHubPort,
  repo: RepoId,
  branch: string,
  limit: number,
): Promise<Lineage> {
  let root = branch;
  let fixes = 0;
  while (isRetraceBranch(root) && fixes <= limit) {
    const pull = await github.findPullByHead(repo, root);
    // A branch under retrace/ whose PR does not hold Retrace's tracking marker (every PR Retrace opens does) is a
    // person's: neither counted nor followed (wave 19: `retrace/notes` was refused as "a fix of a fix"). The PR's
    // author cannot tell (an Action run with a personal token opens Retrace's PRs as a person).
    if (pull && pull.body !== undefined && !pull.body.includes(TRACKING_MARKER_PREFIX)) break;
    fixes++;
    if (!pull) break; // a retrace/ branch without its PR: counted, and the chain cannot be followed further
    root = pull.baseRef;
  }
  return { root, fixes };
}
