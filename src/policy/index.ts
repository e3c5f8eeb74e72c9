/**
 * The deterministic patch gate. Pure: a patch text and a policy in, every reason to block it out.
 *
 *   const { allowed, violations } = evaluatePatch(diffText, config.policy);
 *
 * A patch that does not parse is blocked with the parse error as its one violation (rule `unparseable`).
 */
import { MAX_PATCH_FILES } from "../core/apply-patch.ts";
import { ConfigError } from "../core/errors.ts";
import { PolicyConfig, type PolicyConfigInput } from "./config.ts";
import { matchesAny } from "./lines.ts";
import { PatchParseError, parseUnifiedDiff } from "./parse-diff.ts";
import { RULES } from "./rules/index.ts";
import { changedLines, longLines } from "./rules/size-caps.ts";
import type { GateContext, GateResult, RuleContext, Violation } from "./types.ts";

export { PolicyConfig, type PolicyConfigInput } from "./config.ts";
export { PatchParseError, parseUnifiedDiff } from "./parse-diff.ts";
export { RULES } from "./rules/index.ts";
export type {
  DiffLine,
  FailingTestSource,
  FileChange,
  GateContext,
  GateResult,
  Hunk,
  ParsedPatch,
  RuleId,
  Violation,
} from "./types.ts";

/**
 * Runs every enabled rule on the patch. `config` is the `policy:` section, parsed or raw (defaults fill the
 * gaps); an invalid one throws a ConfigError naming the field. `context.failingTests` (the failing tests' source)
 * lets the special-casing rule compare the patch's new branches with the tests' own literals.
 */
/** Most files one patch may change, whatever the repository's `policy.sizeCaps` says: the gate's own host bound. */
export const MAX_GATED_FILES = MAX_PATCH_FILES;
/** Most of the tree's file names a caller lists for the gate (GateContext.treeFiles). */
export const GATE_TREE_FILES = 100_000;
/** The longest added line the gate reads, whatever policy.sizeCaps allows (see evaluatePatch). */
export const MAX_GATED_LINE_LENGTH = 10_000;
/** Most changed lines (added + removed) the gate reads, whatever policy.sizeCaps allows (see evaluatePatch). */
export const MAX_GATED_CHANGED_LINES = 100_000;

export function evaluatePatch(
  patchText: string,
  config: PolicyConfigInput | PolicyConfig = {},
  context: GateContext = {},
): GateResult {
  const parsedConfig = PolicyConfig.safeParse(config);
  if (!parsedConfig.success) {
    const issue = parsedConfig.error.issues[0]!;
    throw new ConfigError(
      `policy.${issue.path.join(".")}: ${issue.message}`,
      "fix that field of the `policy:` section (see docs/config.md)",
    );
  }
  const policy = parsedConfig.data;
  let patch: ReturnType<typeof parseUnifiedDiff>;
  try {
    patch = parseUnifiedDiff(patchText);
  } catch (error) {
    if (error instanceof PatchParseError) {
      return {
        allowed: false,
        violations: [
          {
            rule: "unparseable",
            file: null,
            line: error.line,
            message: `the patch does not parse: ${error.message}`,
          },
        ],
      };
    }
    throw error;
  }
  const ctx: RuleContext = {
    patch,
    config: policy,
    isTestFile: (p) => matchesAny(policy.testFiles, p),
    ...(context.failingTests ? { failingTests: context.failingTests } : {}),
    ...(context.sourceFiles ? { sourceFiles: context.sourceFiles } : {}),
    ...(context.failingCheck !== undefined ? { failingCheck: context.failingCheck } : {}),
    ...(context.runnerConfigs ? { runnerConfigs: context.runnerConfigs } : {}),
    ...(context.treeFiles ? { treeFiles: context.treeFiles } : {}),
  };
  const violations: Violation[] = [];
  const warnings: Violation[] = [];
  // A patch past the file cap is refused whatever else it holds: the other rules (globs, patterns per line) would
  // cost host time per file for a verdict already known — 20,000 small files took seconds of CPU.
  const sizeCaps = RULES.find((r) => r.id === "size-caps");
  const capped = sizeCaps?.enabled(policy)
    ? Math.min(policy.sizeCaps.maxFiles, MAX_GATED_FILES)
    : MAX_GATED_FILES;
  if (patch.files.length > capped) {
    if (sizeCaps?.enabled(policy) && patch.files.length > policy.sizeCaps.maxFiles)
      violations.push(...sizeCaps.check(ctx));
    if (patch.files.length > MAX_GATED_FILES)
      violations.push({
        rule: "size-caps",
        file: null,
        line: null,
        message: `the patch changes ${patch.files.length} files; Retrace gates at most ${MAX_GATED_FILES} in one patch (whatever policy.sizeCaps allows)`,
      });
    return { allowed: false, violations };
  }
  // Likewise an added line past the line cap, and past Retrace's own whatever policy.sizeCaps says: the per-line
  // rules' patterns are bounded, not linear (a 288 KB line of `function(` still took 1.5 s after red team 14's 1 MiB
  // line spun for minutes), for a verdict already known.
  // So is a patch past the changed-lines cap: the rules' cost grows with its lines (disguised-inputs' scan of
  // nested calls costs milliseconds a line), for a verdict already known.
  const capsOn = sizeCaps?.enabled(policy) === true;
  const changed = changedLines(patch);
  const pastOwnCap =
    capsOn &&
    (changed > policy.sizeCaps.maxChangedLines ||
      longLines(patch, policy.sizeCaps.maxLineLength, "").length > 0);
  const pastGateCap = pastOwnCap
    ? []
    : [
        ...longLines(patch, MAX_GATED_LINE_LENGTH, "the most Retrace gates, whatever policy.sizeCaps allows"),
        ...(changed > MAX_GATED_CHANGED_LINES
          ? [
              {
                rule: "size-caps" as const,
                file: null,
                line: null,
                message: `the patch changes ${changed} lines; Retrace gates at most ${MAX_GATED_CHANGED_LINES} in one patch (whatever policy.sizeCaps allows)`,
              },
            ]
          : []),
      ];
  if (pastOwnCap || pastGateCap.length > 0)
    return { allowed: false, violations: [...(capsOn ? sizeCaps!.check(ctx) : []), ...pastGateCap] };
  for (const rule of RULES) {
    if (!rule.enabled(policy)) continue;
    violations.push(...rule.check(ctx));
    if (rule.warn) warnings.push(...rule.warn(ctx));
  }
  return { allowed: violations.length === 0, violations, ...(warnings.length > 0 ? { warnings } : {}) };
}

/** One line per violation, as `retrace policy` prints them: `rule file:line message`. */
export function formatViolation(v: Violation): string {
  const where = v.file === null ? "(patch)" : v.line === null ? v.file : `${v.file}:${v.line}`;
  return `${v.rule} ${where} ${v.message}`;
}
