/**
 * suppressions: added comments that silence a type checker, linter or analyser instead of fixing what it
 * reports. Each has an id that `policy.suppressions.allow` may list.
 */
import { languageOf } from "../lines.ts";
import { type LinePattern, scanAddedLines } from "../patterns.ts";
import type { Rule } from "../types.ts";

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

export const suppressions: Rule = {
  id: "suppressions",
  enabled: (c) => c.suppressions.enabled,
  check({ patch, config }) {
    return scanAddedLines(patch, "suppressions", SUPPRESSION_PATTERNS, config.suppressions.allow);
  },
};
