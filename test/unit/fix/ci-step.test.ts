import { describe, expect, it } from "vitest";
import { failedActionsStep, testLine } from "../../../src/fix/ci-step.ts";

const ts = (i: number) => `2025-11-22T08:26:40.${String(i).padStart(3, "0")}0000Z `;
const actionsLog = (steps: Array<{ script: string[]; output: string[]; exit: number }>) => {
  const lines: string[] = [];
  for (const s of steps) {
    lines.push(`##[group]Run ${s.script[0]}`);
    for (const l of s.script) lines.push(`\u001b[36;1m${l}\u001b[0m`);
    lines.push("shell: /usr/bin/bash -e {0}", "env:", "  CI: true", "##[endgroup]", ...s.output);
    if (s.exit) lines.push(`##[error]Process completed with exit code ${s.exit}.`);
  }
  return lines.map((l, i) => `${ts(i)}${l}`).join("\n");
};

describe("the failing Actions step's own test command", () => {
  it("takes the test line of the step that failed, with its environment prefix", () => {
    const log = actionsLog([
      { script: ["pip install -r requirements.txt"], output: ["Successfully installed"], exit: 0 },
      {
        script: ["cd service", "PYTHONPATH=src python -m pytest -q tests"],
        output: ["FAILED tests/test_a.py::test_x - assert 1 == 2", "1 failed, 3 passed in 0.1s"],
        exit: 1,
      },
    ]);
    expect(failedActionsStep(log)).toEqual({
      script: "cd service\nPYTHONPATH=src python -m pytest -q tests",
      testCommand: "PYTHONPATH=src python -m pytest -q tests",
    });
  });

  it("a failed lint step names no test command", () => {
    const log = actionsLog([{ script: ["npm run lint"], output: ["error  'x' is unused"], exit: 1 }]);
    expect(failedActionsStep(log)).toEqual({ script: "npm run lint", testCommand: null });
  });

  it("no failed step, no answer", () => {
    expect(failedActionsStep(actionsLog([{ script: ["npm test"], output: ["ok"], exit: 0 }]))).toBeNull();
    expect(failedActionsStep("plain text, not an Actions log")).toBeNull();
  });

  it("reads package-manager tests, continued lines and the last test line", () => {
    expect(testLine("npm ci\nCI=1 npm test")).toBe("CI=1 npm test");
    expect(testLine("npx vitest run \\\n  --coverage")).toBe("npx vitest run    --coverage");
    expect(testLine("go vet ./...\ngo test -race ./...")).toBe("go test -race ./...");
    expect(testLine("make build")).toBeNull();
  });
});

describe("a package-manager test command with an environment prefix", () => {
  it("resolves to the script and keeps the prefix in front of it", async () => {
    const { describeCommand } = await import("../../../src/fix/test-runner/detect.ts");
    const { memoryWorkspace } = await import("../../support/memory-workspace.ts");
    const ws = memoryWorkspace({ "package.json": JSON.stringify({ scripts: { test: "jest --ci" } }) });
    expect(
      await describeCommand(
        ws,
        "NODE_OPTIONS=--max-old-space-size=4096 npm test",
        "the failing workflow step",
      ),
    ).toEqual({
      framework: "jest",
      command: "NODE_OPTIONS=--max-old-space-size=4096 jest --ci",
      detectedBy: "the failing workflow step → package.json scripts.test",
    });
  });
});
