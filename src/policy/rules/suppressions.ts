/**
 * suppressions: added comments that silence a type checker, linter or analyser instead of fixing what it
 * reports. Each has an id that `policy.suppressions.allow` may list.
 *
 * A suppression is gaming only of the check it silences. It blocks when the failing check runs that tool
 * (`@ts-expect-error` under a test command that runs `tsc`, `# noqa` under `flake8`), or when what the failing
 * check runs is unknown (the gate called without `failingCheck`). When the failing check is known and runs none
 * of the tools a suppression silences, the suppression cannot make that check pass: it is a warning for the
 * reviewer (the verdict's reasons, the PR body), not a block. An upstream fix may well carry one (a
 * `@ts-expect-error` where a union type cannot express the new branch).
 */
import { CHECKER_CONFIG_TOOLS, checkerConfigSuppressions } from "../checker-config.ts";
import { languageOf } from "../lines.ts";
import { type LinePattern, scanAddedLines } from "../patterns.ts";
import type { Rule, RuleContext, Violation } from "../types.ts";

export const SUPPRESSION_PATTERNS: LinePattern[] = [
  { id: "ts-ignore", what: "TypeScript error suppressed", re: /@ts-ignore\b/, inComments: true },
  { id: "ts-expect-error", what: "TypeScript error suppressed", re: /@ts-expect-error\b/, inComments: true },
  {
    id: "ts-nocheck",
    what: "TypeScript checking turned off for the file",
    re: /@ts-nocheck\b/,
    inComments: true,
  },
  {
    id: "eslint-disable",
    what: "ESLint rule disabled",
    re: /eslint-disable(-next-line|-line)?\b|eslint\s+[\w/@-]+\s*:\s*(0|["']?off)/,
    inComments: true,
  },
  { id: "tslint-disable", what: "TSLint rule disabled", re: /tslint:disable/, inComments: true },
  { id: "biome-ignore", what: "Biome rule ignored", re: /biome-ignore\b/, inComments: true },
  { id: "deno-lint-ignore", what: "Deno lint ignored", re: /deno-lint-ignore\b/, inComments: true },
  { id: "jshint-ignore", what: "JSHint ignored", re: /jshint\s+ignore|jscs:disable/, inComments: true },
  { id: "noqa", what: "flake8/ruff check suppressed", re: /#\s*noqa\b/i, inComments: true },
  { id: "type-ignore", what: "Python type error suppressed", re: /#\s*type:\s*ignore\b/, inComments: true },
  {
    id: "pyright-ignore",
    what: "Pyright error suppressed",
    re: /#\s*pyright:\s*(ignore|basic)\b/,
    inComments: true,
  },
  {
    id: "mypy-ignore",
    what: "mypy checking turned off",
    re: /#\s*mypy:\s*ignore-errors|ignore_errors\s*=\s*[Tt]rue/,
    inComments: true,
  },
  { id: "pylint-disable", what: "pylint check disabled", re: /#\s*pylint:\s*disable/, inComments: true },
  {
    id: "nosec",
    what: "security check suppressed",
    re: /#\s*nosec\b|\/\/\s*#nosec\b|NOSONAR/,
    inComments: true,
  },
  { id: "nolint", what: "Go lint suppressed", re: /\/\/\s*nolint\b|\/\/\s*lint:ignore\b/, inComments: true },
  { id: "rust-allow", what: "Rust lint allowed", re: /#!?\[\s*allow\s*\(/, inComments: true },
  {
    id: "suppress-warnings",
    what: "Java/Kotlin warnings suppressed",
    re: /@Suppress(Warnings)?\s*\(/,
    inComments: true,
  },
  { id: "rubocop-disable", what: "RuboCop check disabled", re: /#\s*rubocop:\s*disable/, inComments: true },
  {
    id: "phpstan-ignore",
    what: "PHPStan error suppressed",
    re: /@phpstan-ignore|@psalm-suppress/,
    inComments: true,
  },
  {
    id: "pragma-warning",
    what: "compiler warning disabled",
    re: /#pragma\s+warning\s+disable|#pragma\s+GCC\s+diagnostic\s+ignored/,
    inComments: true,
  },
  {
    id: "coverage-ignore",
    what: "code excluded from coverage",
    re: /(istanbul|c8|v8)\s+ignore\b|#\s*pragma:\s*no\s*cover/,
    inComments: true,
  },
  {
    id: "any-cast",
    what: "type checking defeated with a cast to any",
    re: /\bas\s+any\b|<any>\s*\w/,
    applies: (p) => languageOf(p) === "js" && /\.(ts|tsx|mts|cts)$/.test(p),
  },
];

const TS_CHECKERS =
  /\b(tsc|vue-tsc|svelte-check|tsd|tstyche|type-coverage|dtslint|ts-jest|typecheck|type-check|--typecheck)\b/;
const COMPILERS =
  /\b(make|cmake|ctest|ninja|gcc|g\+\+|clang|cc|dotnet|msbuild|javac|mvn|mvnw|gradle|gradlew|kotlinc|sbt)\b|-Werror/;

/**
 * Per suppression id, the tools whose findings it silences, as they appear in a command. A suppression whose id
 * is not here silences something unknown, and always blocks.
 */
export const SUPPRESSED_CHECKERS: Readonly<Record<string, RegExp>> = {
  "ts-ignore": TS_CHECKERS,
  "ts-expect-error": TS_CHECKERS,
  "ts-nocheck": TS_CHECKERS,
  "any-cast": TS_CHECKERS,
  "eslint-disable": /\b(eslint|xo|standard|semistandard|next\s+lint)\b/,
  "tslint-disable": /\btslint\b/,
  "biome-ignore": /\b(biome|rome)\b/,
  "deno-lint-ignore": /\bdeno\s+lint\b/,
  "jshint-ignore": /\b(jshint|jscs)\b/,
  noqa: /\b(flake8|ruff|pyflakes|pycodestyle|pylama|prospector|flakeheaven)\b/,
  "type-ignore": /\b(mypy|pyright|basedpyright|pytype|pyre|--mypy)\b/,
  "pyright-ignore": /\b(pyright|basedpyright)\b/,
  "mypy-ignore": /\b(mypy|--mypy)\b/,
  "pylint-disable": /\b(pylint|--pylint)\b/,
  nosec: /\b(bandit|gosec|sonar\S*)\b/,
  nolint: /\b(golangci-lint|golint|staticcheck|revive|go\s+vet)\b/,
  "rust-allow": /\b(cargo|rustc|clippy)\b/,
  "suppress-warnings": COMPILERS,
  "rubocop-disable": /\brubocop\b/,
  "phpstan-ignore": /\b(phpstan|psalm)\b/,
  "pragma-warning": COMPILERS,
  "coverage-ignore": /\b(c8|nyc|istanbul|coverage|--cov\S*|--coverage)\b/,
  // A checker's own configuration (src/policy/checker-config.ts, red team 30).
  ...CHECKER_CONFIG_TOOLS,
};

/** Whether the failing check (null: unknown) runs a tool the suppression `id` silences. */
export function silencesFailingCheck(id: string, failingCheck: string | undefined): boolean {
  if (failingCheck === undefined) return true;
  const tools = SUPPRESSED_CHECKERS[id];
  return tools === undefined || tools.test(failingCheck);
}

const idOf = (v: Violation) => /\[([\w-]+)\]:/.exec(v.message)?.[1] ?? "";

function found(ctx: RuleContext): Violation[] {
  return [
    ...scanAddedLines(ctx.patch, "suppressions", SUPPRESSION_PATTERNS, ctx.config.suppressions.allow),
    ...checkerConfigSuppressions(ctx.patch, ctx.config.suppressions.allow, ctx.sourceFiles),
  ];
}

export const suppressions: Rule = {
  id: "suppressions",
  enabled: (c) => c.suppressions.enabled,
  check(ctx) {
    return found(ctx).filter((v) => silencesFailingCheck(idOf(v), ctx.failingCheck));
  },
  warn(ctx) {
    return found(ctx)
      .filter((v) => !silencesFailingCheck(idOf(v), ctx.failingCheck))
      .map((v) => ({
        ...v,
        message: `${v.message} — not blocked: the failing check (\`${truncateCheck(ctx.failingCheck ?? "")}\`) runs no tool it silences; review it`,
      }));
  },
};

function truncateCheck(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > 80 ? `${one.slice(0, 79)}…` : one;
}
