/**
 * What a checkout of a commit costs git in attribute matching, known before git does it (adapter over SafeGit).
 *
 * Git looks up the attributes of every file it writes (`text`, `eol`, `filter`, …) against every pattern of the
 * `.gitattributes` files in that file's directory and above, and a wildcard pattern has no fast path: the work is
 * files × patterns, all of it git's own CPU on the host. A commit of 4,000 files and a 50,000-line
 * `.gitattributes` took 6–10 s of git's CPU in `checkout --detach` (red team 30), and it grows with either.
 * Debian's git 2.39 has no `--attr-source` (nor `GIT_ATTR_SOURCE`) to leave the tree's own attributes out, so the
 * bound is a budget: count the comparisons from the tree's listing and the attribute files' pattern lines, and
 * refuse past the host's `gitPatternChecks` (millions; `RETRACE_HOST_LIMITS`). Both counts are cheap git commands
 * that never match a pattern against a path.
 */
import { hostLimits } from "../core/host-limits.ts";
import { GitError } from "./errors.ts";
import type { SafeGit } from "./run-git.ts";

export interface AttributeCost {
  /** Files of the tree (blobs and links; what a checkout writes). */
  files: number;
  /** `.gitattributes` files of the tree, and their pattern lines (not blank, not a comment) in all. */
  attributeFiles: number;
  patterns: number;
  /** Pattern-by-path comparisons: for each attribute file, its patterns × the files at or below its directory. */
  comparisons: number;
}

/** The pattern lines of each `.gitattributes` file of `tree`, by the directory holding it ("" for the top). */
async function attributePatterns(git: SafeGit, tree: string): Promise<Map<string, number>> {
  // `git grep -c` on a tree reads only the matching paths' blobs; `-z` ends each name with NUL
  // (`<tree>:<path>\0<count>\n`), so no name is quoted or split at a colon.
  const out = await git
    .raw([
      "grep",
      "-z",
      "-c",
      "-E",
      "-e",
      "^[[:space:]]*[^#[:space:]]",
      tree,
      "--",
      ":(top,glob)**/.gitattributes",
    ])
    .catch((error: unknown) => {
      // git grep exits 1 when nothing matched: no attribute file, or none with a pattern.
      if (error instanceof GitError && / failed: exit 1$/.test(error.message)) return "";
      throw error;
    });
  const byDir = new Map<string, number>();
  const prefix = `${tree}:`;
  for (const line of out.split("\n")) {
    const nul = line.indexOf("\0");
    if (nul === -1) continue;
    const name = line.slice(line.startsWith(prefix) ? prefix.length : 0, nul);
    const count = Number(line.slice(nul + 1));
    if (!Number.isSafeInteger(count) || count <= 0) continue;
    const slash = name.lastIndexOf("/");
    const dir = slash === -1 ? "" : name.slice(0, slash);
    byDir.set(dir, (byDir.get(dir) ?? 0) + count);
  }
  return byDir;
}

/** The cost of checking out `tree` (a commit or tree name) in attribute matching. */
export async function attributeCost(git: SafeGit, tree: string): Promise<AttributeCost> {
  const byDir = await attributePatterns(git, tree);
  let patterns = 0;
  for (const n of byDir.values()) patterns += n;
  if (byDir.size === 0) return { files: 0, attributeFiles: 0, patterns: 0, comparisons: 0 };
  const listing = await git.raw(["ls-tree", "-r", "-z", "--name-only", tree]);
  // Files at or below each directory holding an attribute file; only those directories are counted.
  const below = new Map<string, number>([...byDir.keys()].map((d) => [d, 0]));
  let files = 0;
  for (const name of listing.split("\0")) {
    if (name === "") continue;
    files++;
    const top = below.get("");
    if (top !== undefined) below.set("", top + 1);
    for (let i = name.indexOf("/"); i !== -1; i = name.indexOf("/", i + 1)) {
      const dir = name.slice(0, i);
      const n = below.get(dir);
      if (n !== undefined) below.set(dir, n + 1);
    }
  }
  let comparisons = 0;
  for (const [dir, n] of byDir) comparisons += n * (below.get(dir) ?? 0);
  return { files, attributeFiles: byDir.size, patterns, comparisons };
}

/** Refused: checking the commit out would make git compare more patterns with paths than the host allows. */
export class PatternBudgetError extends Error {
  constructor(
    readonly cost: AttributeCost,
    readonly limitMillions: number,
  ) {
    super(
      `its .gitattributes files hold ${cost.patterns.toLocaleString("en-US")} patterns over ${cost.files.toLocaleString("en-US")} files: git would compare about ${millions(cost.comparisons)} million patterns with paths checking it out, past the host's limit of ${limitMillions.toLocaleString("en-US")} million (gitPatternChecks in RETRACE_HOST_LIMITS; git spends roughly a second of CPU per 30 million)`,
    );
    this.name = "PatternBudgetError";
  }
}

function millions(n: number): string {
  return (Math.ceil(n / 100_000) / 10).toLocaleString("en-US");
}

/**
 * Throws PatternBudgetError when checking `tree` out would cost git more attribute comparisons than the host's
 * `gitPatternChecks` (millions) allows; returns the cost otherwise.
 */
export async function checkAttributeBudget(
  git: SafeGit,
  tree: string,
  limitMillions = hostLimits().gitPatternChecks,
): Promise<AttributeCost> {
  const cost = await attributeCost(git, tree);
  if (cost.comparisons > limitMillions * 1_000_000) throw new PatternBudgetError(cost, limitMillions);
  return cost;
}
