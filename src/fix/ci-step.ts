/**
 * The command of the GitHub Actions step that failed, read from the job's log: the step's own `run:` script as
 * the runner echoes it (`##[group]Run …`, then the script lines, then `shell:`), up to the first
 * `##[error]Process completed with exit code N`. From that script, the line that runs the tests (a known
 * runner, or `npm/yarn/pnpm test`) — with its environment prefixes, `cd` and flags as CI ran it.
 * Pure: text in, command out.
 */
import { frameworkOf } from "./test-runner/detect.ts";

const TIMESTAMP = /^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
const ANSI = /\u001b\[[0-9;]*m/g;
const PACKAGE_TEST =
  /^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:npm\s+(?:run\s+)?test|npm\s+t|yarn\s+(?:run\s+)?test|pnpm\s+(?:run\s+)?test)\b/;

export interface FailedStep {
  /** The whole `run:` script of the step that failed. */
  script: string;
  /** The line of it that runs the tests, or null when none does (a lint or build step). */
  testCommand: string | null;
}

export function failedActionsStep(log: string): FailedStep | null {
  const lines = log.split(/\r?\n/).map((l) => l.replace(TIMESTAMP, "").replace(ANSI, ""));
  let current: string[] | null = null;
  let collecting = false;
  for (const line of lines) {
    const run = /^##\[group\]Run (.*)$/.exec(line);
    if (run) {
      current = [];
      collecting = true;
      continue;
    }
    if (collecting && current) {
      // The echoed script ends where the runner prints the shell and the environment of the step.
      if (/^\s*shell: /.test(line) || line.startsWith("##[endgroup]")) collecting = false;
      else current.push(line);
      continue;
    }
    if (/^##\[error\]Process completed with exit code [1-9]\d*\.?$/.test(line) && current) {
      const script = current.join("\n").trim();
      return { script, testCommand: testLine(script) };
    }
  }
  return null;
}

/** The line of a step script that runs tests: the last line with a known runner or a package-manager test. */
export function testLine(script: string): string | null {
  const candidates = joinContinuations(script)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  for (let i = candidates.length - 1; i >= 0; i--) {
    const line = candidates[i]!;
    if (frameworkOf(line) !== "unknown" || PACKAGE_TEST.test(line)) return line;
  }
  return null;
}

/** Backslash-continued lines are one command. */
function joinContinuations(script: string): string[] {
  const out: string[] = [];
  let pending = "";
  for (const raw of script.split("\n")) {
    if (/\\\s*$/.test(raw)) {
      pending += `${raw.replace(/\\\s*$/, "")} `;
      continue;
    }
    out.push(pending + raw);
    pending = "";
  }
  if (pending) out.push(pending);
  return out;
}
