/**
 * The job spec: what every entry (CLI, App, Action) builds from its input before the core sees it.
 * One discriminated union; the pipelines take their own branch.
 */
import { z } from "zod";

export const Budget = z.object({
  /** Maximum attempts of the pipeline's loop. */
  maxAttempts: z.number().int().min(1).max(20).default(3),
  /** Wall-clock limit of the whole job, in milliseconds. */
  maxWallMs: z
    .number()
    .int()
    .min(1_000)
    .default(15 * 60_000),
  /** Total model tokens (input + output) the job may spend. */
  maxTokens: z.number().int().min(0).default(400_000),
  /** Dollars the job may spend on the model. */
  maxUsd: z.number().min(0).default(2),
});
export type Budget = z.infer<typeof Budget>;

/** An owner or repository name as GitHub spells it: letters, digits, `_`, `.`, `-`, never `.` or `..` (a path). */
const plainName = (part: string) => /^[\w.-]{1,100}$/.test(part) && part !== "." && part !== "..";

const RepoRef = z.object({
  /** "owner/name": it becomes an API path, so neither part is `.` or `..`. */
  fullName: z.string().refine((s) => {
    const parts = s.split("/");
    return parts.length === 2 && parts.every(plainName);
  }, "expected owner/name (letters, digits, '_', '.', '-'; neither part '.' or '..')"),
  /** The default branch, when known. */
  defaultBranch: z.string().optional(),
});

/**
 * A job's id: it names containers (labels), branches, artifacts and files, and a dispatched spec comes from a
 * workflow input, so it is a plain name — the same rule the sandbox applies to a run's job id.
 */
export const JobId = z
  .string()
  .refine(
    isPlainJobId,
    "a job id is 1 to 128 letters, digits, '_', '.' or '-', starts with a letter or digit, and holds no '..' and no ending '.' or '.lock' (it becomes a path and a branch name)",
  );

/**
 * A job id every place it becomes a name takes as itself: a file or directory name (never `.`, `..` or a hidden
 * name), a git branch component (no `..`, no ending `.` or `.lock`), an argument (never an option: no leading `-`); no `:`, which no branch name takes.
 */
export function isPlainJobId(id: string): boolean {
  return (
    /^[A-Za-z0-9][\w.-]{0,127}$/.test(id) && !id.includes("..") && !id.endsWith(".") && !id.endsWith(".lock")
  );
}

/** A branch name git takes as one (`git check-ref-format --branch`): never an option, a path climb or a revision. */
export function isPlainBranchName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 255 &&
    !name.startsWith("-") &&
    !name.startsWith("/") &&
    !name.endsWith("/") &&
    !name.endsWith(".") &&
    !name.includes("..") &&
    !name.includes("//") &&
    !name.includes("@{") &&
    name !== "@" &&
    !/[\u0000-\u0020\u007f~^:?*[\\]/.test(name) &&
    name.split("/").every((part) => !part.startsWith(".") && !part.endsWith(".lock"))
  );
}

export const ReproJobSpec = z.object({
  kind: z.literal("repro"),
  /** Stable id used for labels, branches and file names. */
  id: JobId,
  repo: RepoRef.optional(),
  issueNumber: z.number().int().positive().optional(),
  /** The issue as markdown: `# title`, then the body. */
  markdown: z.string(),
  /**
   * The package the issue's repository publishes (an npm or PyPI name), when known: a report filed there that
   * calls the package's functions without an import (`filesize(499418224640)`) runs with one added.
   */
  package: z
    .string()
    .max(214)
    .regex(/^(?:@[a-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*$/, "an npm or PyPI package name")
    .optional(),
  /** How many times each candidate runs; REPRODUCED needs all of them. */
  runs: z.number().int().min(1).max(10).default(3),
  /** Model name, or null for the deterministic (offline) path. */
  model: z.string().nullable().default(null),
  budget: Budget.default(Budget.parse({})),
});
export type ReproJobSpec = z.infer<typeof ReproJobSpec>;

export const FixJobSpec = z.object({
  kind: z.literal("fix"),
  id: JobId,
  repo: RepoRef.optional(),
  /** The commit the failure happened on: a name (never a revision expression, a path climb or an option). */
  headSha: z
    .string()
    .regex(
      /^[A-Za-z0-9][\w-]{0,63}$/,
      "a commit sha (letters and digits, never a revision expression or an option)",
    )
    .optional(),
  /** The branch that failed; the fix PR is based on it. */
  headBranch: z
    .string()
    .refine(isPlainBranchName, "a branch name git takes as one (git check-ref-format --branch)")
    .optional(),
  /** The failing log, when the trigger had one. */
  log: z.string().optional(),
  /** GitHub Actions job ids whose logs hold the failure; a runner given no `log` downloads them (App → Actions). */
  logJobIds: z.array(z.number().int().positive()).max(20).optional(),
  /** Test command; detected from the repository when absent. */
  testCommand: z.string().optional(),
  /** Model of the first attempts (the configured default when null). */
  model: z.string().nullable().default(null),
  /** Model after failed attempts (the configured strong model when absent). */
  strongModel: z.string().optional(),
  /** Reruns of the failing tests on the unchanged base before any model call (flaky triage; default 3). */
  triageRuns: z.number().int().min(1).max(20).optional(),
  /** Token budget of the packed context (default 12 000, estimated as characters / 4). */
  contextTokens: z.number().int().min(500).max(200_000).optional(),
  budget: Budget.default(Budget.parse({})),
});
export type FixJobSpec = z.infer<typeof FixJobSpec>;

export const JobSpec = z.discriminatedUnion("kind", [ReproJobSpec, FixJobSpec]);
export type JobSpec = z.infer<typeof JobSpec>;
