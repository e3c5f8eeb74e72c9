/**
 * Builds the script that runs a test command in the sandbox with a machine-readable reporter, and says
 * where and in which format the results will be.
 */
import type { TestCommand } from "./types.ts";

export interface Invocation {
  /** Shell script run as `sh -c <script>` in the workspace root. */
  script: string;
  /** Extra environment for the run (on top of the base environment). */
  env: Record<string, string>;
  /** Workspace-relative report file to collect, or null when results come from stdout. */
  reportFile: string | null;
  /** Format passed to the log parser. */
  format: string;
}

/** Inserts `flags` right after the first match of `pattern` (the framework's own command word). */
function insertAfter(command: string, pattern: RegExp, flags: string): string | null {
  const match = pattern.exec(command);
  if (!match) return null;
  const end = match.index + match[0].length;
  return `${command.slice(0, end)} ${flags}${command.slice(end)}`;
}

/** Single-quotes a string for sh. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The reporter for each framework:
 * - pytest: `--junitxml` through `PYTEST_ADDOPTS` (reaches pytest however it is launched), xunit1 for file attributes;
 * - node --test: the TAP reporter written to a file (`--test-reporter-destination`; Node 18 has no JUnit reporter);
 * - jest: `--json --outputFile`; vitest: `--reporter=junit --outputFile`; mocha: the xunit reporter to a file;
 * - go: `go test -json` on stdout; cargo: libtest's plain output on stdout.
 * `nonce` makes the report name unguessable in advance, so a committed or pre-written file cannot stand in for it.
 */
export function buildInvocation(command: TestCommand, nonce: string): Invocation {
  const base = command.command;
  const report = (ext: string) => `.retrace-report-${nonce}.${ext}`;
  switch (command.framework) {
    case "pytest": {
      const file = report("xml");
      return {
        script: base,
        env: { PYTEST_ADDOPTS: `-p no:cacheprovider --junitxml=${file} -o junit_family=xunit1` },
        reportFile: file,
        format: "junit",
      };
    }
    case "node-test": {
      const file = report("tap");
      const script = insertAfter(
        base,
        /(^|[\s;&|(/])node(\s+\S+)*?\s+--test(?=\s|$)/,
        `--test-reporter=tap --test-reporter-destination=${file}`,
      );
      if (script !== null) return { script, env: {}, reportFile: file, format: "tap" };
      break;
    }
    case "jest": {
      const file = report("json");
      const script = insertAfter(base, /(^|[\s;&|(/])jest(?=\s|$)/, `--ci --json --outputFile=${file}`);
      if (script !== null) return { script, env: {}, reportFile: file, format: "jest-json" };
      break;
    }
    case "vitest": {
      const file = report("xml");
      const withRun = /(^|[\s;&|(/])vitest\s+run(?=\s|$)/.test(base)
        ? base
        : base.replace(/(^|[\s;&|(/])vitest(?=\s|$)/, "$1vitest run");
      const script = insertAfter(
        withRun,
        /(^|[\s;&|(/])vitest\s+run(?=\s|$)/,
        `--reporter=junit --outputFile=${file}`,
      );
      if (script !== null) return { script, env: {}, reportFile: file, format: "junit" };
      break;
    }
    case "mocha": {
      const file = report("xml");
      const script = insertAfter(
        base,
        /(^|[\s;&|(/])mocha(?=\s|$)/,
        `--reporter xunit --reporter-option output=${file}`,
      );
      if (script !== null) return { script, env: {}, reportFile: file, format: "junit" };
      break;
    }
    case "go": {
      const script = insertAfter(base, /(^|[\s;&|(])go\s+test(?=\s|$)/, "-json");
      if (script !== null) return { script, env: {}, reportFile: null, format: "go-json" };
      break;
    }
    case "cargo":
      return { script: base, env: {}, reportFile: null, format: "cargo" };
    case "unknown":
      break;
  }
  return { script: base, env: {}, reportFile: null, format: "auto" };
}
