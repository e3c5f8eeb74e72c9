/**
 * Suppressions in a checker's own configuration (red team 30): a rule turned `off` in `.eslintrc.json`, tsconfig's
 * `strict: false`, ruff's `per-file-ignores`, errcheck disabled in `.golangci.yml` silence what the failing check
 * reports as surely as an `eslint-disable` comment, and the suppression rule read only comments. A changed line of a
 * checker's configuration file, or of its section in a shared file (pyproject.toml `[tool.ruff]`, setup.cfg
 * `[flake8]`), is a suppression with the id below; tsconfig/jsconfig only in the keys that loosen checking or narrow
 * what is checked (its other keys configure the build). Like a comment, it blocks when the failing check runs the
 * tool (or what it runs is unknown), and is a warning otherwise (src/policy/rules/suppressions.ts).
 */
import { foldChangedLines, tomlFold, tomlSiteAt } from "./sections.ts";
import type { DiffLine, FileChange, ParsedPatch, Violation } from "./types.ts";

interface CheckerConfig {
  id: string;
  what: string;
  /** Files that configure only the checker: every changed line counts. Matched against the file's base name. */
  files?: RegExp;
  /** Tables/sections of shared INI/TOML files (pyproject.toml, setup.cfg, tox.ini) that configure it. */
  sections?: RegExp;
  /** tsconfig-like files: only lines naming one of these keys count. */
  keysIn?: { files: RegExp; keys: RegExp };
  /** The tool, as the failing check's command names it. */
  tools: RegExp;
}

const TS_STRICTNESS =
  /"(strict\w*|noImplicit\w+|noUnused\w+|noUnchecked\w+|noFallthroughCasesInSwitch|noPropertyAccessFromIndexSignature|exactOptionalPropertyTypes|useUnknownInCatchVariables|alwaysStrict|checkJs|skipLibCheck|skipDefaultLibCheck|allowUnreachableCode|allowUnusedLabels|suppress\w*Errors|noEmitOnError|exclude|include|files)"\s*:/;

export const CHECKER_CONFIGS: readonly CheckerConfig[] = [
  {
    id: "eslint-config",
    what: "ESLint configuration changed",
    files:
      /^(\.eslintrc(\.(js|cjs|mjs|json|ya?ml))?|eslint\.config\.(js|cjs|mjs|ts|cts|mts)|\.eslintignore)$/i,
    tools: /\b(eslint|xo|standard|semistandard|next\s+lint)\b/,
  },
  {
    id: "prettier-config",
    what: "Prettier configuration changed",
    files:
      /^(\.prettierrc(\.(json5?|ya?ml|js|cjs|mjs|toml))?|prettier\.config\.(js|cjs|mjs|ts)|\.prettierignore)$/i,
    tools: /\bprettier\b/,
  },
  {
    id: "biome-config",
    what: "Biome configuration changed",
    files: /^biome\.jsonc?$/i,
    tools: /\b(biome|rome)\b/,
  },
  {
    id: "stylelint-config",
    what: "Stylelint configuration changed",
    files: /^(\.stylelintrc(\.\w+)?|stylelint\.config\.\w+|\.stylelintignore)$/i,
    tools: /\bstylelint\b/,
  },
  {
    id: "tsconfig-strictness",
    what: "TypeScript checking loosened or narrowed",
    keysIn: { files: /^[tj]sconfig[\w.-]*\.json$/i, keys: TS_STRICTNESS },
    tools:
      /\b(tsc|vue-tsc|svelte-check|tsd|tstyche|type-coverage|dtslint|ts-jest|typecheck|type-check|--typecheck)\b/,
  },
  {
    id: "ruff-config",
    what: "Ruff configuration changed",
    files: /^\.?ruff\.toml$/i,
    sections: /^tool\.ruff(\.|$)/,
    tools: /\bruff\b/,
  },
  {
    id: "mypy-config",
    what: "mypy configuration changed",
    files: /^\.?mypy\.ini$/i,
    sections: /^(tool\.mypy(\.|$)|mypy(-|$))/,
    tools: /\b(mypy|--mypy)\b/,
  },
  {
    id: "flake8-config",
    what: "flake8 configuration changed",
    files: /^\.flake8$/i,
    sections: /^(flake8|tool\.flake8)$/,
    tools: /\b(flake8|flakeheaven|pylama)\b/,
  },
  {
    id: "pylint-config",
    what: "pylint configuration changed",
    files: /^\.?pylintrc$/i,
    sections: /^(tool\.pylint(\.|$)|pylint(\.|$))/,
    tools: /\b(pylint|--pylint)\b/,
  },
  {
    id: "pyright-config",
    what: "Pyright configuration changed",
    files: /^pyrightconfig\.json$/i,
    sections: /^tool\.(based)?pyright(\.|$)/,
    tools: /\b(based)?pyright\b/,
  },
  {
    id: "golangci-config",
    what: "golangci-lint configuration changed",
    files: /^\.golangci\.(ya?ml|toml|json)$/i,
    tools: /\bgolangci-lint\b/,
  },
  {
    id: "rubocop-config",
    what: "RuboCop configuration changed",
    files: /^\.rubocop(_todo)?\.yml$/i,
    tools: /\brubocop\b/,
  },
  {
    id: "clippy-config",
    what: "Clippy configuration changed",
    files: /^\.?clippy\.toml$/i,
    tools: /\bclippy\b/,
  },
  {
    id: "phpstan-config",
    what: "PHPStan/Psalm configuration changed",
    files: /^(phpstan\.neon(\.dist)?|psalm\.xml(\.dist)?)$/i,
    tools: /\b(phpstan|psalm)\b/,
  },
];

/** The tools each configuration id silences, for the suppression rule's table. */
export const CHECKER_CONFIG_TOOLS: Readonly<Record<string, RegExp>> = Object.fromEntries(
  CHECKER_CONFIGS.map((c) => [c.id, c.tools]),
);

const SHARED = /^(pyproject\.toml|setup\.cfg|tox\.ini)$/i;

const baseName = (p: string) => p.slice(p.lastIndexOf("/") + 1);
const truncate = (t: string) => (t.trim().length > 80 ? `${t.trim().slice(0, 79)}…` : t.trim());
const lineOf = (l: DiffLine) => (l.kind === "add" ? l.newLine : l.oldLine);

/** Every changed line of a checker's configuration in `patch`, as suppression violations (allowed ids skipped). */
export function checkerConfigSuppressions(
  patch: ParsedPatch,
  allow: readonly string[],
  sourceFiles: Readonly<Record<string, string>> = {},
): Violation[] {
  const out: Violation[] = [];
  const add = (c: CheckerConfig, file: FileChange, line: number | null, text: string) =>
    out.push({
      rule: "suppressions",
      file: file.path,
      line,
      message: `${c.what} [${c.id}]: \`${truncate(text)}\``,
    });
  for (const file of patch.files) {
    const names = [file.oldPath, file.newPath].filter((p): p is string => p !== null).map(baseName);
    for (const c of CHECKER_CONFIGS) {
      if (allow.includes(c.id)) continue;
      if (c.files && names.some((n) => c.files!.test(n))) {
        const changed = file.hunks.flatMap((h) => h.lines.filter((l) => l.kind !== "ctx"));
        if (changed.length > 0) for (const l of changed) add(c, file, lineOf(l), l.text);
        // Renamed away, deleted without its lines, or a mode change: the checker reads it no more, or reads another.
        else if (file.status !== "modified" || file.binary) add(c, file, null, `${file.status} ${file.path}`);
        continue;
      }
      if (c.keysIn && names.some((n) => c.keysIn!.files.test(n))) {
        for (const h of file.hunks)
          for (const l of h.lines)
            if (l.kind !== "ctx" && c.keysIn.keys.test(l.text)) add(c, file, lineOf(l), l.text);
        continue;
      }
      if (c.sections && names.some((n) => SHARED.test(n))) {
        for (const { line, state } of foldChangedLines(file, tomlFold, sourceFiles[file.path])) {
          if (line.text.trim() === "" || /^\s*[#;]/.test(line.text)) continue;
          const site = tomlSiteAt(state, line.text);
          const dotted = site.key?.includes(".") ? site.key.slice(0, site.key.lastIndexOf(".")) : null;
          const table =
            dotted === null ? site.table : site.table === null ? dotted : `${site.table}.${dotted}`;
          if (table !== null && c.sections.test(table)) add(c, file, lineOf(line), line.text);
        }
      }
    }
  }
  return out;
}
