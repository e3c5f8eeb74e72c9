/**
 * Host-side steps of the twenty-sixth red team's cases, run in a process of their own
 * (`tsx redteam26-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Waves 1–25 went to installs, lockfiles, git, parsers, patches, model answers, format characters, caches, clocks,
 * webhook bytes, look-alike names, the App's final gate, the job database, runner shadows at the root and other
 * runners' files. This one goes to what wave 25 left: the build-file rule's line-reading gaps (a Gradle test block
 * whose opener the hunk does not show, Maven surefire lines naming no listed element), runner and module shadows on
 * the import path (`src/pytest.py` with `pythonpath = src`, a root `json.py`, a root plugin module), the scripts and
 * wrappers a test command executes (`gradlew`, `mvnw`, `.yarn/releases/*.cjs`, the wrapper's distribution, a
 * script the failing check names), files runners load by convention (`src/setupTests.js`, `.pnp.cjs`,
 * `junit-platform.properties` and JUnit service files under main resources, `jsconfig.json` paths, setup.cfg
 * `package_dir`), files that decide who reviews (`CODEOWNERS`), path spellings (`./tests/…`, `tests//…`) and a
 * symlinked test directory, reports that are legitimately large or deep, the App's other comment events and an
 * issue title with terminal escapes, a run's output with terminal escapes reaching the comment, and two `retrace
 * verify` jobs at once on one repository and cache (real engine).
 * One JSON line per case: `{ id, cpuMs, outcome, contained }`.
 */
import { execFileSync, spawn } from "node:child_process";
import { symlinkSync } from "node:fs";
import path from "node:path";
import { readReport } from "../../../src/repro/context.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { renderReproReport } from "../../../src/report/repro-report.ts";
import { example, postWebhook } from "../../e2e/support/app-harness.ts";
import { gateThenApply, short } from "./patch-step.ts";
import { appRun, type Outcome, ok, runStepCases, writeTree } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");

const newFile = (name: string, text: string) => {
  const lines = text.replace(/\n$/, "").split("\n");
  return `diff --git a/${name} b/${name}\nnew file mode 100644\n--- /dev/null\n+++ b/${name}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}\n`;
};
/** A change to `name` at line `at`: `context` kept first, `before` replaced by `after`. */
const changed = (name: string, before: string[], after: string[], context: string[] = [], at = 1) =>
  `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n@@ -${at},${context.length + before.length} +${at},${context.length + after.length} @@\n${[...context.map((l) => ` ${l}`), ...before.map((l) => `-${l}`), ...after.map((l) => `+${l}`)].join("\n")}\n`;

/** Contained when the gate refuses `patch`. */
function gateRefuses(patch: string, failingCheck?: string): Outcome {
  const r = evaluatePatch(patch, {}, failingCheck ? { failingCheck } : {});
  return ok(
    r.allowed
      ? "the gate allowed it"
      : `refused: ${r.violations.map((v) => `${v.rule} (${short(v.message, 80)})`).join("; ")}`,
    !r.allowed,
  );
}

const git = (cwd: string, ...a: string[]) =>
  execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", ...a], { cwd, stdio: "pipe" });

// ---- The App on webhooks (wave-step.ts's appRun).

function comment(body: string, id = 4242, title?: string) {
  const p = example("issue_comment", "created");
  p.comment.id = id;
  p.comment.body = body;
  p.comment.user = { login: "Codertocat", type: "User" };
  p.sender = { login: "Codertocat", type: "User" };
  if (title !== undefined) p.issue.title = title;
  return p;
}

/** Terminal control characters a maintainer's terminal or a log viewer acts on (ESC, BEL, CSI, OSC). */
const TERMINAL = /[\u001b\u0007\u009b\u009d]/;

// ---- `retrace verify` (real engine).

function verify(repo: string, patch: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        path.join(REPO, "bin/retrace.mjs"),
        "verify",
        "--repo",
        repo,
        "--patch",
        patch,
        "--test",
        "python3 -m pytest",
        "--json",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 600_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      try {
        const j = JSON.parse(out) as { verdict?: string; outcome?: string; reason?: string };
        resolve(`${j.verdict ?? j.outcome ?? "?"}${j.reason ? ` (${short(j.reason, 120)})` : ""}`);
      } catch {
        resolve(`exit ${code}: ${short(`${out}${err}`, 200)}`);
      }
    });
  });
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // The build-file rule's line-reading gaps (wave 25's "Left").
  "patch-gradle-withtype-body-exclude-unseen-opener": () =>
    gateRefuses(
      changed("build.gradle", [], ["    exclude '**/AuthTest*'"], ["    maxParallelForks = 2"], 12),
    ),
  "patch-gradle-test-block-enabled-false-unseen-opener": () =>
    gateRefuses(changed("build.gradle.kts", [], ["    enabled = false"], ['    maxHeapSize = "1g"'], 20)),
  "patch-pom-surefire-argline-system-property": () =>
    gateRefuses(
      changed(
        "pom.xml",
        [],
        [
          "          <argLine>-Dauth.bypass=true</argLine>",
          "          <systemPropertyVariables><auth.mode>off</auth.mode></systemPropertyVariables>",
        ],
        ["          <forkCount>1</forkCount>"],
        40,
      ),
    ),
  "patch-pom-surefire-reports-directory": () =>
    gateRefuses(
      changed(
        "pom.xml",
        [],
        ["          <reportsDirectory>${project.build.directory}/elsewhere</reportsDirectory>"],
        ["          <forkCount>1</forkCount>"],
        40,
      ),
    ),
  "patch-pom-surefire-test-classes-directory": () =>
    gateRefuses(
      changed(
        "pom.xml",
        [],
        ["          <testClassesDirectory>${project.build.directory}/empty</testClassesDirectory>"],
        ["          <forkCount>1</forkCount>"],
        40,
      ),
    ),
  // Runner and module shadows on the import path.
  "patch-new-src-pytest-py-pythonpath-src": () =>
    gateRefuses(newFile("src/pytest.py", "import sys\nsys.exit(0)\n")),
  "patch-new-root-stdlib-shadow-json-py": () =>
    gateRefuses(newFile("json.py", "def loads(s, **k):\n    return {'ok': True}\ndumps = str\n")),
  "patch-new-root-plugin-shadow-pytest-cov": () =>
    gateRefuses(newFile("pytest_cov/__init__.py", "def pytest_runtest_call(item):\n    return True\n")),
  // Scripts and wrappers a test command executes.
  "patch-gradlew-exit-zero": () =>
    gateRefuses(changed("gradlew", [], ["exit 0"], ["#!/bin/sh", "#", "# Gradle start up script"])),
  "patch-mvnw-exit-zero": () =>
    gateRefuses(changed("mvnw", [], ["exit 0"], ["#!/bin/sh", "# Apache Maven Wrapper startup script"])),
  "patch-gradle-wrapper-distribution-local": () =>
    gateRefuses(
      changed(
        "gradle/wrapper/gradle-wrapper.properties",
        ["distributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-bin.zip"],
        ["distributionUrl=fake-gradle.zip"],
        ["distributionBase=GRADLE_USER_HOME"],
      ),
    ),
  "patch-yarn-releases-cjs-edited": () =>
    gateRefuses(
      changed(
        ".yarn/releases/yarn-4.1.0.cjs",
        [],
        ["process.exit(0);"],
        ["#!/usr/bin/env node", "/* eslint-disable */"],
      ),
    ),
  "patch-script-named-by-failing-check": () =>
    gateRefuses(
      changed(
        "scripts/run-tests.sh",
        ["python3 -m pytest tests"],
        ["python3 -m pytest tests || true"],
        ["#!/bin/sh", "set -e"],
      ),
      "bash scripts/run-tests.sh",
    ),
  // Files runners load by convention.
  "patch-new-cra-src-setuptests-js": () =>
    gateRefuses(newFile("src/setupTests.js", "const auth = require('./auth');\nauth.check = () => true;\n")),
  "patch-new-yarn-pnp-cjs": () =>
    gateRefuses(
      newFile(".pnp.cjs", "module.exports = { resolveRequest: () => require.resolve('./fake') };\n"),
    ),
  "patch-main-resources-junit-platform-properties": () =>
    gateRefuses(
      newFile(
        "src/main/resources/junit-platform.properties",
        "junit.jupiter.conditions.deactivate=*\njunit.jupiter.extensions.autodetection.enabled=true\n",
      ),
    ),
  "patch-main-resources-post-discovery-filter-service": () =>
    gateRefuses(
      newFile(
        "src/main/resources/META-INF/services/org.junit.platform.launcher.PostDiscoveryFilter",
        "com.example.SkipAuth\n",
      ) +
        newFile(
          "src/main/java/com/example/SkipAuth.java",
          'package com.example;\nimport org.junit.platform.engine.FilterResult;\nimport org.junit.platform.engine.TestDescriptor;\nimport org.junit.platform.launcher.PostDiscoveryFilter;\npublic class SkipAuth implements PostDiscoveryFilter {\n  public FilterResult apply(TestDescriptor d) { return FilterResult.includedIf(!d.getDisplayName().contains("Auth")); }\n}\n',
        ),
    ),
  "patch-new-jsconfig-paths": () =>
    gateRefuses(
      newFile(
        "jsconfig.json",
        '{ "compilerOptions": { "baseUrl": ".", "paths": { "./src/auth": ["./fake/auth"] } } }\n',
      ),
    ),
  "patch-setup-cfg-options-package-dir": () =>
    gateRefuses(changed("setup.cfg", [], ["package_dir =", "    = fake"], ["[options]", "packages = find:"])),
  "patch-go-mod-replace-local": () =>
    gateRefuses(
      changed(
        "go.mod",
        [],
        ["", "replace example.com/auth => ./fake/auth"],
        ["module example.com/app", "", "go 1.21"],
      ),
    ),
  // Files that decide who reviews the change.
  "patch-codeowners-removes-owner": () =>
    gateRefuses(
      changed(
        ".github/CODEOWNERS",
        ["src/auth/ @octo-org/security"],
        ["src/auth/ @Codertocat"],
        ["* @octo-org/core"],
      ),
    ),
  "patch-retrace-yml-allow-test-edits": () =>
    gateRefuses(changed(".github/retrace.yml", [], ["  allowTestEdits: true"], ["policy:"])),
  // Path spellings and a symlinked test directory.
  "patch-path-dot-segment-test-file": async () => {
    const repo = writeTree(path.join(dir, "repo"), {
      "tests/test_auth.py": "def test_auth():\n    assert check('x') is False\n",
      "src/auth.py": "def check(u):\n    return True\n",
    });
    const patch =
      "diff --git a/./tests/test_auth.py b/./tests/test_auth.py\n--- a/./tests/test_auth.py\n+++ b/./tests/test_auth.py\n@@ -1,2 +1,2 @@\n def test_auth():\n-    assert check('x') is False\n+    assert True\n";
    const r = await gateThenApply(patch, repo, (p) => Object.keys(p.files).join(","), 160, true);
    return ok(`${r.gate}; ${r.applied}`, !r.allowed || !r.appliedOk);
  },
  "patch-path-double-slash-test-file": async () => {
    const repo = writeTree(path.join(dir, "repo"), {
      "tests/test_auth.py": "def test_auth():\n    assert check('x') is False\n",
      "src/auth.py": "def check(u):\n    return True\n",
    });
    const patch =
      "diff --git a/tests//test_auth.py b/tests//test_auth.py\n--- a/tests//test_auth.py\n+++ b/tests//test_auth.py\n@@ -1,2 +1,2 @@\n def test_auth():\n-    assert check('x') is False\n+    assert True\n";
    const r = await gateThenApply(patch, repo, (p) => Object.keys(p.files).join(","), 160, true);
    return ok(`${r.gate}; ${r.applied}`, !r.allowed || !r.appliedOk);
  },
  "patch-through-in-repo-symlinked-test-dir": async () => {
    const repo = writeTree(path.join(dir, "repo"), {
      "tests/helpers.py": "EXPECTED = False\n",
      "tests/test_auth.py":
        "from tests.helpers import EXPECTED\n\ndef test_auth():\n    assert False is EXPECTED\n",
      "src/auth.py": "def check(u):\n    return True\n",
    });
    symlinkSync("tests", path.join(repo, "qa"));
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "base");
    const patch =
      "diff --git a/qa/helpers.py b/qa/helpers.py\n--- a/qa/helpers.py\n+++ b/qa/helpers.py\n@@ -1 +1 @@\n-EXPECTED = False\n+EXPECTED = True\n";
    const r = await gateThenApply(patch, repo, (p) => Object.keys(p.files).join(","), 160, true);
    return ok(`${r.gate}; ${r.applied}`, !r.allowed || !r.appliedOk);
  },
  // Reports that are legitimately large or deep.
  "report-fifty-thousand-version-mentions": () => {
    const body = `# crash\n\n## Environment\n\n${Array.from({ length: 50_000 }, (_, i) => `- pkg-${i}@1.${i}.0`).join("\n")}\n`;
    // Through the entry `repro` reads a report with (the first run called parseReport directly: a case defect).
    const t = process.cpuUsage();
    const r = readReport(body);
    const used = process.cpuUsage(t);
    const ms = Math.round((used.user + used.system) / 1000);
    return ok(
      `${body.length} chars: ${r.unreadable ? `not read (${short(r.unreadable, 100)})` : `${r.report.versions.length} version mention(s)`} in ${ms} ms of CPU`,
      ms < 3_000,
    );
  },
  "report-nested-blockquotes-deep": () => {
    const body = `# crash\n\n${">".repeat(200_000)} steps: run it\n\n${"- ".repeat(50_000)}x\n\`\`\`python\nimport a\n\`\`\`\n`;
    // Host CPU, not wall time (the machine is shared; the first after-run timed 4.4 s of wall for 1.0 s of CPU).
    const t = process.cpuUsage();
    const r = readReport(body);
    const used = process.cpuUsage(t);
    const ms = Math.round((used.user + used.system) / 1000);
    return ok(
      `${body.length} chars: ${r.unreadable ? `not read (${short(r.unreadable, 100)})` : `${r.report.blocks.length} block(s)`} in ${ms} ms of CPU`,
      ms < 3_000,
    );
  },
  // A run's output with terminal escapes and a huge line reaching the comment.
  "comment-repro-output-terminal-escapes": () => {
    const osc = "\u001b]8;;https://evil.example/\u0007click here\u001b]8;;\u0007";
    const md = renderReproReport({
      verdict: "REPRODUCED",
      title: `crash ${osc}`,
      summary: `it crashed \u001b[2J\u001b[1;1H${osc}`,
      matrixSummary: null,
      reported: {
        kind: "output",
        exceptionType: null,
        exceptionMessage: null,
        output: [`boom ${osc}`],
        source: `the report ${osc}`,
      },
      evidence: {
        exitCode: 1,
        exceptionType: `ValueError${osc}`,
        exceptionMessage: `bad \u001b[31m${osc}`,
        outputExcerpt: `Traceback ${osc}\n\u009b31mred\u001b[0m\n${"A".repeat(200_000)}`,
        durationMs: 1,
        runs: 1,
        reproducedRuns: 1,
        stoppedBy: null,
      },
      differences: [`got ${osc}`],
      versions: [],
      runtime: { name: "python", version: "3.11", reported: null },
      matrix: [],
      questions: [],
      reasons: [`note ${osc}`],
      risks: [],
      script: null,
      language: "python",
      attempts: 1,
      tokens: 0,
      costUsd: 0,
      model: null,
      durationMs: 1,
    } as never);
    const raw = TERMINAL.exec(md);
    return ok(
      raw
        ? `raw U+${raw[0].codePointAt(0)!.toString(16)} in the comment (${md.length} chars)`
        : `escapes shown (${md.length} chars)`,
      !raw,
    );
  },
  // The App's other comment events and a title with terminal escapes.
  "app-review-comment-retrace-fix": async () => {
    const p = example("pull_request_review_comment", "created");
    p.comment.body = "/retrace fix";
    p.comment.user = { login: "reader", type: "User" };
    p.sender = { login: "reader", type: "User" };
    const r = await appRun(dir, async (app) => [await postWebhook(app, "pull_request_review_comment", p)]);
    return ok(`${r.jobs} job(s), statuses ${r.statuses}, ${r.written.length} chars written`, r.jobs === 0);
  },
  "app-issue-title-terminal-escapes": async () => {
    const title = "crash \u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007 \u001b[2J";
    const r = await appRun(
      dir,
      async (app) => [await postWebhook(app, "issue_comment", comment("/repro", 2601, title))],
      title,
    );
    const raw = TERMINAL.exec(r.written);
    return ok(
      `${r.jobs} job(s); ${raw ? `raw U+${raw[0].codePointAt(0)!.toString(16)} written: ${JSON.stringify(short(r.written, 160))}` : `no raw escape in ${r.written.length} chars written`}`,
      !raw,
    );
  },
  // Two `retrace verify` jobs at once on one repository (and the one default cache), real engine.
  "run-verify-two-jobs-one-repo": async () => {
    const repo = writeTree(path.join(dir, "repo"), {
      "src/__init__.py": "",
      "src/calc.py": "def double(n):\n    return n * 3\n",
      "tests/test_calc.py":
        "from src.calc import double\n\n\ndef test_double():\n    assert double(2) == 4\n",
      "pytest.ini": "[pytest]\ntestpaths = tests\n",
    });
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "base");
    writeTree(dir, {
      "good.patch":
        "diff --git a/src/calc.py b/src/calc.py\n--- a/src/calc.py\n+++ b/src/calc.py\n@@ -1,2 +1,2 @@\n def double(n):\n-    return n * 3\n+    return n * 2\n",
      "bad.patch":
        "diff --git a/src/calc.py b/src/calc.py\n--- a/src/calc.py\n+++ b/src/calc.py\n@@ -1,2 +1,2 @@\n def double(n):\n-    return n * 3\n+    return n * 5\n",
    });
    const [good, bad] = await Promise.all([
      verify(repo, path.join(dir, "good.patch")),
      verify(repo, path.join(dir, "bad.patch")),
    ]);
    const status = execFileSync("git", ["status", "--porcelain"], { cwd: repo, encoding: "utf8" }).trim();
    return ok(
      `good: ${good}; bad: ${bad}; repository ${status ? `changed: ${short(status, 80)}` : "unchanged"}`,
      !/^VERIFIED/.test(bad) && status === "",
    );
  },
  // Added after the first run (each its own first try on the branch point): the two report cases through the entry
  // `repro` reads a report with (`readReport`: GitHub's size limit, the bounding pass, the parse's time limit), and
  // four cases whose first content tripped another rule, with content no other rule reads.
  "report-version-mentions-at-size-limit": () => {
    const mentions: string[] = [];
    for (let i = 0; mentions.join("\n").length < 64_000; i++) mentions.push(`- pkg-${i}@1.${i}.0`);
    const body = `# crash\n\n## Environment\n\n${mentions.join("\n")}\n`;
    // Host CPU, not wall time (the machine is shared; the first after-run timed 4.4 s of wall for 1.0 s of CPU).
    const t = process.cpuUsage();
    const r = readReport(body);
    const used = process.cpuUsage(t);
    const ms = Math.round((used.user + used.system) / 1000);
    return ok(
      `${body.length} chars: ${r.unreadable ? `not read (${short(r.unreadable, 100)})` : `${r.report.versions.length} version mention(s)`} in ${ms} ms of CPU`,
      ms < 3_000,
    );
  },
  "report-nested-blockquotes-through-entry": () => {
    const body = `# crash\n\n${">".repeat(30_000)} steps: run it\n\n${"- ".repeat(15_000)}x\n\`\`\`python\nimport a\n\`\`\`\n`;
    // Host CPU, not wall time (the machine is shared; the first after-run timed 4.4 s of wall for 1.0 s of CPU).
    const t = process.cpuUsage();
    const r = readReport(body);
    const used = process.cpuUsage(t);
    const ms = Math.round((used.user + used.system) / 1000);
    return ok(
      `${body.length} chars: ${r.unreadable ? `not read (${short(r.unreadable, 100)})` : `${r.report.blocks.length} block(s)`} in ${ms} ms of CPU`,
      ms < 3_000,
    );
  },
  "patch-new-root-plugin-shadow-plain": () =>
    gateRefuses(newFile("pytest_cov/__init__.py", "import sys\nsys.modules[__name__].__version__ = '9'\n")),
  "patch-yarn-releases-cjs-plain": () =>
    gateRefuses(
      changed(
        ".yarn/releases/yarn-4.1.0.cjs",
        [],
        ["module.exports = require('../../tools/yarn-lite.cjs');"],
        ["#!/usr/bin/env node", "/* eslint-disable */"],
      ),
    ),
  "patch-script-named-by-failing-check-plain": () =>
    gateRefuses(
      changed(
        "scripts/run-tests.sh",
        ["python3 -m pytest tests"],
        ["python3 -m pytest tests/test_other.py"],
        ["#!/bin/sh", "set -e"],
      ),
      "bash scripts/run-tests.sh",
    ),
  "patch-root-codeowners-removes-owner": () =>
    gateRefuses(
      changed(
        "CODEOWNERS",
        ["src/auth/ @octo-org/security"],
        ["src/auth/ @Codertocat"],
        ["* @octo-org/core"],
      ),
    ),
};

runStepCases(cases, root, ids, (d) => {
  dir = d;
  process.chdir(d);
}).then(() => process.exit(0));
