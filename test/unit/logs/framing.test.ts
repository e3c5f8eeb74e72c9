/**
 * The same runner output gives the same failures plain and inside each CI's framing: GitHub Actions
 * (timestamps, groups, `##[error]`), GitLab (section markers with carriage returns, ANSI, /builds paths)
 * and Jenkins ([Pipeline] lines, workspace paths).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ROOT = path.join(import.meta.dirname, "../../fixtures/logs");
const RUNNER = "/home/runner/work/calc/calc";

function fixtures(): string[] {
  const out: string[] = [];
  for (const dir of readdirSync(ROOT)) {
    const d = path.join(ROOT, dir);
    if (!statSync(d).isDirectory()) continue;
    for (const f of readdirSync(d)) if (/\.log$/.test(f)) out.push(path.join(dir, f));
  }
  return out.sort();
}

const ESC = "\u001b";

function actions(body: string): string {
  const lines = body.replace(/\n$/, "").split("\n");
  const framed = [
    "##[group]Run ./ci/test.sh",
    `${ESC}[36;1m./ci/test.sh${ESC}[0m`,
    "shell: /usr/bin/bash -e {0}",
    "##[endgroup]",
    ...lines,
    "##[error]Process completed with exit code 1.",
    "Post job cleanup.",
  ];
  return `${framed.map((l, i) => `2024-05-02T10:11:${String(12 + (i % 40)).padStart(2, "0")}.${String(i).padStart(7, "0")}Z ${l}`).join("\n")}\n`;
}

function gitlab(body: string): string {
  const lines = body.replaceAll(RUNNER, "/builds/acme/calc").replace(/\n$/, "").split("\n");
  return `${[
    `${ESC}[0KRunning with gitlab-runner 17.5.2 (c6eae8d7)${ESC}[0;m`,
    `section_start:1763800006:step_script\r${ESC}[0K${ESC}[0K${ESC}[36;1mExecuting "step_script" stage of the job script${ESC}[0;m`,
    `${ESC}[32;1m$ ./ci/test.sh${ESC}[0;m`,
    ...lines,
    `section_end:1763800040:step_script\r${ESC}[0Ksection_start:1763800040:cleanup_file_variables\r${ESC}[0K${ESC}[0K${ESC}[36;1mCleaning up project directory and file based variables${ESC}[0;m`,
    `section_end:1763800041:cleanup_file_variables\r${ESC}[0K${ESC}[31;1mERROR: Job failed: exit code 1`,
  ].join("\n")}\n`;
}

function jenkins(body: string): string {
  const lines = body.replaceAll(RUNNER, "/var/lib/jenkins/workspace/calc").replace(/\n$/, "").split("\n");
  return `${[
    "Started by user ci-admin",
    "[Pipeline] Start of Pipeline",
    "[Pipeline] node",
    "Running on agent-7 in /var/lib/jenkins/workspace/calc",
    "[Pipeline] {",
    "[Pipeline] sh",
    "+ ./ci/test.sh",
    ...lines,
    "[Pipeline] }",
    "[Pipeline] // node",
    "[Pipeline] End of Pipeline",
    "ERROR: script returned exit code 1",
    "Finished: FAILURE",
  ].join("\n")}\n`;
}

const view = (text: string) =>
  parseLog(text).failures.map((f) => ({
    format: f.format,
    test: f.test,
    file: f.file,
    line: f.line,
    errorType: f.errorType,
  }));

describe("the same failures plain and inside CI framing", () => {
  for (const rel of fixtures()) {
    const text = readFileSync(path.join(ROOT, rel), "utf8");
    // Fixtures that are themselves framed already, or whose paths are not the runner checkout's.
    if (/^\d{4}-\d\d-\d\dT/.test(text) || rel.startsWith("github-actions/")) continue;
    it(rel, () => {
      const plain = view(text);
      expect(view(actions(text)), "GitHub Actions").toEqual(plain);
      expect(view(gitlab(text)), "GitLab").toEqual(plain);
      expect(view(jenkins(text)), "Jenkins").toEqual(plain);
    });
  }
});
