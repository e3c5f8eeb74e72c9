/**
 * Narrowing a repository's own test command to some tests, keeping everything else of it byte for byte:
 * environment prefixes (`PYTHONPATH=src pytest`), `cd pkg &&`, `npx`/`yarn`, config files and plugin flags.
 * Only the runner's positional selection (paths, packages, filters) and its own test-name/shard filters are
 * replaced by the selection for the given tests. A rerun that runs a different command than CI ran proves
 * nothing about the failure CI saw.
 *
 * Pure string work with the quote-aware shell-word scanner (`core/shell-words.ts`): the command is never re-serialised, so quoting and
 * `$VARS` stay exactly as the repository wrote them.
 */

import { OPERATOR, scanWords, type Token } from "../core/shell-words.ts";

export type { Token };

export interface RunnerSpec {
  /** Finds the runner word(s) in a simple command; returns the index of the first argument word, or -1. */
  argsStart(words: string[]): number;
  /** Flags that take the next word as their value (a `--flag=value` word is one word). */
  valueFlags: ReadonlySet<string>;
  /** Flags (and their values) dropped because the narrowing replaces them (name filters, shards, specs). */
  dropFlags: ReadonlySet<string>;
  /** Where positional words end (e.g. cargo's `--`); args past it are kept as they are. */
  stopAt?: string;
}

const set = (...xs: string[]) => new Set(xs);

function afterWord(match: (w: string, i: number, all: string[]) => boolean): (words: string[]) => number {
  return (words) => {
    for (let i = 0; i < words.length; i++) if (match(words[i]!, i, words)) return i + 1;
    return -1;
  };
}

const base = (w: string) => w.split("/").pop() ?? w;

export const RUNNERS = {
  pytest: {
    argsStart: (words: string[]) => {
      for (let i = 0; i < words.length; i++) {
        const w = base(words[i]!);
        if (w === "pytest" || w === "py.test") return i + 1;
        if (
          /^python[\d.]*$/.test(w) &&
          words[i + 1] === "-m" &&
          /^(pytest|py\.test)$/.test(words[i + 2] ?? "")
        )
          return i + 3;
      }
      return -1;
    },
    valueFlags: set(
      "-k",
      "-m",
      "-c",
      "-p",
      "-o",
      "-n",
      "-W",
      "-r",
      "--rootdir",
      "--maxfail",
      "--junitxml",
      "--junit-xml",
      "--cov",
      "--cov-report",
      "--cov-config",
      "--confcutdir",
      "--basetemp",
      "--log-level",
      "--durations",
      "--tb",
      "--import-mode",
      "--capture",
      "--dist",
      "--numprocesses",
      "--timeout",
      "--reruns",
      "--override-ini",
      "--log-cli-level",
      "--log-file",
      "--cache-dir",
      "--deselect",
      "--ignore",
      "--ignore-glob",
    ),
    dropFlags: set("--deselect", "--lf", "--last-failed", "--ff", "--sw", "--stepwise"),
  },
  jest: {
    argsStart: afterWord((w) => base(w) === "jest"),
    valueFlags: set(
      "-c",
      "--config",
      "-t",
      "--testNamePattern",
      "--testPathPattern",
      "--testPathPatterns",
      "--selectProjects",
      "--shard",
      "-w",
      "--maxWorkers",
      "--outputFile",
      "--reporters",
      "--coverageDirectory",
      "--rootDir",
      "--roots",
      "--testTimeout",
      "--env",
      "--testEnvironment",
      "--testPathIgnorePatterns",
      "--seed",
    ),
    dropFlags: set(
      "-t",
      "--testNamePattern",
      "--testPathPattern",
      "--testPathPatterns",
      "--shard",
      "-o",
      "--onlyChanged",
      "--changedSince",
      "--lastCommit",
      "--findRelatedTests",
    ),
  },
  vitest: {
    argsStart: (words: string[]) => {
      for (let i = 0; i < words.length; i++) {
        if (base(words[i]!) === "vitest") return words[i + 1] === "run" ? i + 2 : i + 1;
      }
      return -1;
    },
    valueFlags: set(
      "-c",
      "--config",
      "--project",
      "--dir",
      "-r",
      "--root",
      "-t",
      "--testNamePattern",
      "--shard",
      "--reporter",
      "--outputFile",
      "--pool",
      "--environment",
      "--mode",
      "--testTimeout",
      "--exclude",
    ),
    dropFlags: set("-t", "--testNamePattern", "--shard", "--changed", "--related"),
  },
  mocha: {
    argsStart: afterWord((w) => base(w) === "mocha" || base(w) === "_mocha"),
    valueFlags: set(
      "--config",
      "--require",
      "-r",
      "--reporter",
      "-R",
      "--ui",
      "-u",
      "--grep",
      "-g",
      "--fgrep",
      "-f",
      "--timeout",
      "-t",
      "--slow",
      "-s",
      "--spec",
      "--extension",
      "--ignore",
      "--exclude",
      "--file",
      "--reporter-option",
      "--reporter-options",
      "-O",
      "--jobs",
      "-j",
      "--package",
      "--opts",
    ),
    dropFlags: set("--grep", "-g", "--fgrep", "-f", "--spec", "--invert", "-i"),
  },
  "node-test": {
    argsStart: (words: string[]) => {
      for (let i = 0; i < words.length; i++) {
        if (base(words[i]!) !== "node") continue;
        const t = words.indexOf("--test", i + 1);
        if (t > i) return t + 1;
      }
      return -1;
    },
    valueFlags: set(
      "--test-name-pattern",
      "--test-reporter",
      "--test-reporter-destination",
      "--test-concurrency",
      "--test-timeout",
      "--import",
      "--require",
      "-r",
      "--loader",
      "--experimental-loader",
      "--test-shard",
      "--test-skip-pattern",
      "--env-file",
      "--conditions",
      "-C",
    ),
    dropFlags: set("--test-name-pattern", "--test-shard", "--test-skip-pattern", "--test-only"),
  },
  go: {
    argsStart: (words: string[]) => {
      for (let i = 0; i < words.length; i++)
        if (base(words[i]!) === "go" && words[i + 1] === "test") return i + 2;
      return -1;
    },
    valueFlags: set(
      "-run",
      "-skip",
      "-count",
      "-timeout",
      "-tags",
      "-p",
      "-parallel",
      "-coverprofile",
      "-covermode",
      "-cpu",
      "-bench",
      "-benchtime",
      "-o",
      "-exec",
      "-ldflags",
      "-gcflags",
      "-mod",
      "-modfile",
      "-C",
      "-coverpkg",
      "-shuffle",
    ),
    dropFlags: set("-run", "-skip", "-bench"),
  },
  cargo: {
    argsStart: (words: string[]) => {
      for (let i = 0; i < words.length; i++) {
        if (base(words[i]!) !== "cargo") continue;
        if (words[i + 1] === "test") return i + 2;
        if (words[i + 1] === "nextest" && words[i + 2] === "run") return i + 3;
      }
      return -1;
    },
    valueFlags: set(
      "-p",
      "--package",
      "-F",
      "--features",
      "--target",
      "--manifest-path",
      "--test",
      "--bin",
      "--example",
      "--bench",
      "-j",
      "--jobs",
      "--profile",
      "--target-dir",
      "--color",
      "-Z",
      "--exclude",
    ),
    dropFlags: set(),
    stopAt: "--",
  },
} satisfies Record<string, RunnerSpec>;

/** libtest flags (after cargo's `--`) that take a value. */
const LIBTEST_VALUE_FLAGS = new Set([
  "--skip",
  "--test-threads",
  "--format",
  "--color",
  "-Z",
  "--logfile",
  "--shuffle-seed",
]);

/**
 * The command with the runner's positional selection and name/shard filters removed from the simple command
 * that runs the runner, and `selection` (already shell-quoted words) put in their place. Null when the runner
 * is not found in the command.
 */
export function narrowCommand(
  command: string,
  spec: RunnerSpec,
  selection: string[],
  /** For cargo: the words that go after `--` (libtest's `--exact` and the names). */
  afterSeparator: string[] = [],
): string | null {
  let from = 0;
  while (from <= command.length) {
    const { words, end } = scanWords(command, from);
    const texts = words.map((w) => w.text);
    const start = spec.argsStart(texts);
    if (start >= 0) {
      const cut: Array<[number, number]> = [];
      let separator: Token | null = null;
      for (let i = start; i < words.length; i++) {
        const w = words[i]!;
        if (spec.stopAt && w.text === spec.stopAt) {
          separator = w;
          // Past the separator: the test binary's own arguments; its name filters are replaced too.
          for (let j = i + 1; j < words.length; j++) {
            const a = words[j]!;
            if (a.text.startsWith("-")) {
              if (LIBTEST_VALUE_FLAGS.has(a.text)) j++;
              else if (a.text === "--exact") cut.push([a.start, a.end]);
              continue;
            }
            cut.push([a.start, a.end]);
          }
          break;
        }
        const name =
          w.text.includes("=") && w.text.startsWith("-") ? w.text.slice(0, w.text.indexOf("=")) : w.text;
        if (w.text.startsWith("-")) {
          const takesValue = spec.valueFlags.has(name) && !w.text.includes("=");
          if (spec.dropFlags.has(name)) {
            const last = takesValue && i + 1 < words.length ? words[i + 1]! : w;
            cut.push([w.start, last.end]);
          }
          if (takesValue) i++;
          continue;
        }
        cut.push([w.start, w.end]); // a positional selection word
      }
      const anchor = words[start - 1]!.end;
      const lastWordEnd = words[words.length - 1]!.end;
      // Edits on the original string, applied from the end so earlier offsets stay valid.
      const edits: Array<{ at: number; to: number; text: string }> = [];
      for (const [a, b] of cut) {
        let from = a;
        let to = b;
        // The blank after a cut word goes with it; for the last word the blank before it (an insertion may
        // go right after the last word).
        if (b !== lastWordEnd)
          while (to < command.length && (command[to] === " " || command[to] === "\t")) to++;
        else while (from > anchor && (command[from - 1] === " " || command[from - 1] === "\t")) from--;
        edits.push({ at: from, to, text: "" });
      }
      if (afterSeparator.length) {
        const at = separator ? separator.end : lastWordEnd;
        edits.push({ at, to: at, text: ` ${separator ? "" : "-- "}${afterSeparator.join(" ")}` });
      }
      if (selection.length) edits.push({ at: anchor, to: anchor, text: ` ${selection.join(" ")}` });
      edits.sort((x, y) => y.at - x.at || y.to - x.to);
      let out = command;
      for (const e of edits) out = out.slice(0, e.at) + e.text + out.slice(e.to);
      return out.replace(/[ \t]+$/, "");
    }
    if (end >= command.length) break;
    // Skip the operator and go on with the next simple command.
    const op = OPERATOR.exec(command.slice(end))?.[0] ?? " ";
    from = end + op.length;
  }
  return null;
}
