/**
 * The scripted Sandbox of every unit test: each run gets the next scripted outcome (a list), or the outcome a
 * function computes from the request (a sandbox that "runs" a script by reading it). When the outcome has a
 * `report`, it is returned as the file the request asked to collect (as a real reporter would write it).
 * Every request is recorded. The fake is itself a Sandbox (`sandbox` names it for destructuring).
 */
import type { Sandbox, SandboxRunRequest, SandboxRunResult } from "../../src/core/ports/sandbox.ts";

/** One run's outcome; what it leaves out is a clean, quick run (exit code 0, no output, 10 ms). */
export interface ScriptedRun extends Partial<Omit<SandboxRunResult, "files">> {
  /** Report file contents; omitted = the reporter wrote nothing. */
  report?: string;
  files?: SandboxRunResult["files"];
}

export interface FakeSandbox extends Sandbox {
  readonly sandbox: Sandbox;
  readonly requests: SandboxRunRequest[];
}

export function fakeSandbox(
  script: ScriptedRun[] | ((request: SandboxRunRequest, index: number) => ScriptedRun),
): FakeSandbox {
  const requests: SandboxRunRequest[] = [];
  const fake: FakeSandbox = {
    get sandbox() {
      return fake;
    },
    requests,
    async run(request) {
      const index = requests.length;
      requests.push(request);
      const step = typeof script === "function" ? script(request, index) : script[index];
      if (!step) throw new Error(`fake sandbox: no scripted run #${index + 1}`);
      const { report, ...result } = step;
      const files: Record<string, Uint8Array> = { ...result.files };
      const wanted = request.collect?.[0];
      if (wanted !== undefined && report !== undefined) files[wanted] = new TextEncoder().encode(report);
      return {
        exitCode: 0,
        signal: null,
        stdout: "",
        stderr: "",
        stdoutTruncated: false,
        stderrTruncated: false,
        durationMs: 10,
        stoppedBy: null,
        ...result,
        files,
      };
    },
  };
  return fake;
}

/** The entry a repro run executes (`exec python3 'reproduction.py'`) and its code, as the request carries it. */
export function entryCode(request: SandboxRunRequest): string {
  const entry = /exec \w+ '([^']+)'/.exec(request.command.join(" "))?.[1] ?? "";
  const code = request.input?.files?.[entry];
  return typeof code === "string" ? code : "";
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
