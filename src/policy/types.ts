/**
 * What the gate sees of a patch (the parsed diff) and what it says about it (violations).
 */
import type { PolicyConfig } from "./config.ts";

/** One line of a hunk. Line numbers are 1-based; `oldLine` is set for context and removed lines, `newLine` for context and added lines. */
export interface DiffLine {
  kind: "add" | "del" | "ctx";
  /** The line's content without its `+`/`-`/` ` marker and without a trailing CR. */
  text: string;
  oldLine: number | null;
  newLine: number | null;
  /** 1-based line of the patch text this line came from. */
  patchLine: number;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** Text after the closing `@@` (often the enclosing function). */
  heading: string;
  lines: DiffLine[];
  patchLine: number;
}

/** Where a file name was read from; the ambiguous-headers rule compares them. */
export type HeaderSource =
  | "diff --git old"
  | "diff --git new"
  | "---"
  | "+++"
  | "rename from"
  | "rename to"
  | "copy from"
  | "copy to";

export interface HeaderPath {
  source: HeaderSource;
  /** As written in the patch, after C-style unquoting, before prefix stripping. */
  raw: string;
  /** The repository path it denotes (prefix `a/`/`b/` stripped); null for /dev/null. */
  path: string | null;
}

export type FileStatus = "modified" | "added" | "deleted" | "renamed" | "copied";

export interface FileChange {
  /** Repository path before the change; null when the file is created. */
  oldPath: string | null;
  /** Repository path after the change; null when the file is deleted. */
  newPath: string | null;
  /** The path to show in a report: the new path, or the old one for deletions. */
  path: string;
  status: FileStatus;
  /** File modes from the extended headers (`100644`, `100755`, `120000` symlink, `160000` submodule). */
  oldMode: string | null;
  newMode: string | null;
  /** `Binary files … differ` or `GIT binary patch`. */
  binary: boolean;
  /** Parsed from a `diff --git` section (rather than a plain unified diff). */
  isGit: boolean;
  /** Every file name the section's headers spell, in order. */
  headerPaths: HeaderPath[];
  hunks: Hunk[];
  /** 1-based line of the patch where this file's section starts. */
  patchLine: number;
}

export interface ParsedPatch {
  files: FileChange[];
  /** Whether the patch text used CRLF line endings (they are normalised before rules run). */
  crlf: boolean;
  /** Places where the `diff` package's parsePatch reads the patch differently from this parser. */
  disagreements: string[];
}

/** Stable rule ids; they name the rule's file in src/policy/rules/ and its section in the config. */
export type RuleId =
  | "unparseable"
  | "forbidden-paths"
  | "test-infrastructure"
  | "dependency-changes"
  | "test-bypass"
  | "suppressions"
  | "weakened-tests"
  | "size-caps"
  | "deletions"
  | "binary-files"
  | "symlinks"
  | "hidden-characters"
  | "mode-changes"
  | "submodules"
  | "path-escape"
  | "ambiguous-headers"
  | "dangerous-calls"
  | "package-scripts"
  | "test-awareness"
  | "test-file-access"
  | "check-tampering"
  | "constant-equality"
  | "special-casing";

export interface Violation {
  rule: RuleId;
  /** Repository path the violation is about; null when it is about the whole patch. */
  file: string | null;
  /** Line in the new file (added lines) or the old file (removed lines, said in the message); null for a whole file. */
  line: number | null;
  message: string;
}

export interface GateResult {
  allowed: boolean;
  violations: Violation[];
  /**
   * What the gate saw but does not block (a suppression comment of a checker the failing check does not run):
   * for the reviewer, in the verdict's reasons and the PR body. Present only when there is one.
   */
  warnings?: Violation[];
}

/** What every rule receives. Rules are pure functions of it. */
export interface RuleContext {
  patch: ParsedPatch;
  config: PolicyConfig;
  /** Whether a repository path is a test file (config.testFiles). */
  isTestFile(path: string): boolean;
  /** The failing tests' source, when the caller knows it (the special-casing rule compares with it). */
  failingTests?: readonly FailingTestSource[];
  /** Pre-patch text of the files the patch modifies, when the caller knows it (path → text). */
  sourceFiles?: Readonly<Record<string, string>>;
  /** What the failing check runs, when the caller knows it (see GateContext.failingCheck). */
  failingCheck?: string;
  /** The repository's files before the patch, when the caller knows them (see GateContext.treeFiles). */
  treeFiles?: readonly string[];
  /** The test runners' configuration files (see GateContext.runnerConfigs). */
  runnerConfigs?: Readonly<Record<string, string>>;
}

/** A previously failing test: its file and the source of its definition. */
export interface FailingTestSource {
  id: string;
  file: string;
  body: string;
}

/** What the gate may be told besides the patch and the policy. */
export interface GateContext {
  failingTests?: readonly FailingTestSource[];
  /**
   * Pre-patch text of the files the patch modifies: a value the code already names (in a constant, a comment
   * or its documentation) is the domain's vocabulary, not something only the test knows.
   */
  sourceFiles?: Readonly<Record<string, string>>;
  /**
   * What the failing check runs: the test command with the package scripts it names expanded
   * (`failingCheckText` in src/fix/failing-check.ts). A suppression comment blocks only when the check runs the
   * tool it silences; unknown (absent), every suppression blocks.
   */
  failingCheck?: string;
  /**
   * The repository's file paths before the patch (the checkout's tracked files). A file the patch creates whose
   * name folds onto one of them (`src/Auth.js` beside `src/auth.js`, `SRC/x.js` beside `src/`) is refused: on
   * macOS and Windows both names are one file. Absent: only pairs inside the patch are compared.
   */
  treeFiles?: readonly string[];
  /**
   * The test-runner configuration at the root and in each directory the failing check `cd`s into (pytest.ini, tox.ini,
   * setup.cfg, pyproject.toml, package.json, jest.config.*; path → text), read for the import roots it names
   * (`pythonpath = lib`, jest `modulePaths`) and the packages a module there could stand in for: a new module named
   * like the standard library, the runner's own or a declared package there is imported in their place (red team 27,
   * f14c). Only read for that, never as the code's vocabulary.
   */
  runnerConfigs?: Readonly<Record<string, string>>;
}

export interface Rule {
  id: RuleId;
  /** Whether the configuration turns the rule on. */
  enabled(config: PolicyConfig): boolean;
  check(ctx: RuleContext): Violation[];
  /** What the rule reports without blocking (GateResult.warnings). */
  warn?(ctx: RuleContext): Violation[];
}
