/**
 * A scripted Sandbox for unit tests: each run gets the next scripted outcome. When the outcome has a
 * `report`, it is returned as the file the request asked to collect (as a real reporter would write it).
 * Every request is recorded.
 */
import type { Sandbox, SandboxRunRequest, SandboxRunResult } from "../../src/core/ports/sandbox.ts";

export interface ScriptedRun {
  exitCode: number | null;
  /** Report file contents; omitted = the reporter wrote nothing. */
  report?: string;
  stdout?: string;
  stoppedBy?: SandboxRunResult["stoppedBy"];
}

export function fakeSandbox(
  script: ScriptedRun[] | ((request: SandboxRunRequest, index: number) => ScriptedRun),
) {
  const requests: SandboxRunRequest[] = [];
  const sandbox: Sandbox = {
    async run(request) {
      const index = requests.length;
      requests.push(request);
      const step = typeof script === "function" ? script(request, index) : script[index];
      if (!step) throw new Error(`fake sandbox: no scripted run #${index + 1}`);
      const files: Record<string, Uint8Array> = {};
      const wanted = request.collect?.[0];
      if (wanted !== undefined && step.report !== undefined)
        files[wanted] = new TextEncoder().encode(step.report);
      return {
        exitCode: step.exitCode,
        signal: null,
        stdout: step.stdout ?? "",
        stderr: "",
        stdoutTruncated: false,
        stderrTruncated: false,
        durationMs: 10,
        files,
        stoppedBy: step.stoppedBy ?? null,
      };
    },
  };
  return { sandbox, requests };
}

/** A node:test TAP report (what `node --test --test-reporter=tap` writes) with the given outcomes. */
export function tapReport(tests: Record<string, "passed" | "failed" | "skipped">): string {
  const lines = ["TAP version 13"];
  let n = 0;
  for (const [name, outcome] of Object.entries(tests)) {
    n += 1;
    lines.push(`# Subtest: ${name}`);
    if (outcome === "failed") {
      lines.push(`not ok ${n} - ${name}`, "  ---", "  duration_ms: 1.2", "  failureType: 'testCodeFailure'");
      lines.push(
        "  error: |-",
        "    Expected values to be strictly equal:",
        "  code: 'ERR_ASSERTION'",
        "  ...",
      );
    } else {
      lines.push(
        `ok ${n} - ${name}${outcome === "skipped" ? " # SKIP" : ""}`,
        "  ---",
        "  duration_ms: 0.5",
        "  ...",
      );
    }
  }
  const count = (o: string) => Object.values(tests).filter((x) => x === o).length;
  lines.push(
    `1..${n}`,
    `# tests ${n}`,
    `# pass ${count("passed")}`,
    `# fail ${count("failed")}`,
    `# skipped ${count("skipped")}`,
  );
  return `${lines.join("\n")}\n`;
}
