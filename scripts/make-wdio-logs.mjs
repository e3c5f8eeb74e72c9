#!/usr/bin/env node
// Generates the WebdriverIO cases of the real-log corpus (test/fixtures/logs-real/gen-wdio-*): the project in
// projects/wdio run by WebdriverIO 9 (@wdio/cli, local-runner, mocha-framework, spec-reporter, junit-reporter
// 9.32.0, installed in the scratch directory) on Debian's chromium and chromium-driver. The spec reporter's
// output is the log, framed as a CI shows it; expected.json comes from the JUnit reporter's XML of the same run
// (describe titles joined with ` > `, as docs/test-ids.md names mocha tests), places from the failure's stack.
//   node scripts/make-wdio-logs.mjs [--scratch /tmp/wdio-gen]
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const corpus = path.join(root, "test/fixtures/logs-real");
const args = process.argv.slice(2);
const scratch = args.includes("--scratch") ? args[args.indexOf("--scratch") + 1] : "/tmp/wdio-gen";
const ESC = "\u001b";

const CASES = [
  { id: "gen-wdio-spec-jenkins", frame: "jenkins", specs: "./test/specs/**/*.e2e.mjs" },
  { id: "gen-wdio-green-gitlab", frame: "gitlab", specs: "./test/specs/green.e2e.mjs" },
];
const DIRS = { jenkins: "/var/lib/jenkins/workspace/shop-e2e", gitlab: "/builds/acme/shop-e2e" };

function frame(kind, cmd, lines, exit) {
  if (kind === "jenkins")
    return [
      "Started by user ci-admin",
      "[Pipeline] Start of Pipeline",
      "[Pipeline] node",
      `Running on agent-7 in ${DIRS.jenkins}`,
      "[Pipeline] {",
      "[Pipeline] stage",
      "[Pipeline] { (E2E)",
      "[Pipeline] sh",
      `+ ${cmd}`,
      ...lines,
      "[Pipeline] }",
      "[Pipeline] // stage",
      "[Pipeline] }",
      "[Pipeline] // node",
      "[Pipeline] End of Pipeline",
      ...(exit === 0
        ? ["Finished: SUCCESS"]
        : [`ERROR: script returned exit code ${exit}`, "Finished: FAILURE"]),
    ];
  const t = 1_763_800_000;
  return [
    `${ESC}[0KRunning with gitlab-runner 17.5.2 (c6eae8d7)${ESC}[0;m`,
    `section_start:${t + 6}:step_script\r${ESC}[0K${ESC}[0K${ESC}[36;1mExecuting "step_script" stage of the job script${ESC}[0;m${ESC}[0;m`,
    `${ESC}[32;1m$ ${cmd}${ESC}[0;m`,
    ...lines,
    `section_end:${t + 40}:step_script\r${ESC}[0K`,
    exit === 0
      ? `${ESC}[32;1mJob succeeded${ESC}[0;m`
      : `${ESC}[31;1mERROR: Job failed: exit code ${exit}${ESC}[0;m`,
  ];
}

const attr = (tag, name) => {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(tag);
  return m
    ? m[1]
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&")
    : "";
};

for (const c of CASES) {
  const work = path.join(scratch, "run");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  cpSync(path.join(corpus, "projects/wdio"), work, { recursive: true });
  cpSync(path.join(scratch, "node_modules"), path.join(work, "node_modules"), {
    recursive: true,
    dereference: false,
  });
  const cmd = "npx wdio run wdio.conf.mjs";
  const r = spawnSync("bash", ["-c", `${cmd} 2>&1`], {
    cwd: work,
    env: { ...process.env, SPECS: c.specs, CI: "true", NO_COLOR: "1", FORCE_COLOR: "0" },
    encoding: "utf8",
  });
  const dir = DIRS[c.frame];
  const body = r.stdout.replaceAll(work, dir).replace(/\n$/, "").split("\n");
  const out = path.join(corpus, c.id);
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, "log.txt"), `${frame(c.frame, cmd, body, r.status).join("\n")}\n`);
  // The JUnit reporter: one file per worker; a testsuite per describe, its name the describe's title path.
  const failures = [];
  let passed = 0;
  let skipped = 0;
  for (const f of readdirSync(path.join(work, "junit")).sort()) {
    const xml = readFileSync(path.join(work, "junit", f), "utf8").replaceAll(work, dir);
    for (const m of xml.matchAll(/<testcase\b[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
      const open = m[0].slice(0, m[0].indexOf(">") + 1);
      const classname = attr(open, "classname");
      const name = attr(open, "name");
      const inner = m[1] ?? "";
      if (/<skipped\b/.test(inner)) skipped++;
      else if (/<(failure|error)\b/.test(inner)) {
        // wdio's classname is `browser.suite_title_path`; the test's describes are its suite's full title.
        const places = [...inner.matchAll(/file:\/\/[^\s)]*?\/((?:test|src)\/[^\s):]+):(\d+):\d+/g)].map(
          (p) => ({
            file: p[1],
            line: Number(p[2]),
          }),
        );
        failures.push({ classname, name, places: places.slice(0, 1) });
      } else passed++;
    }
  }
  writeFileSync(
    path.join(out, "junit-report.txt"),
    readdirSync(path.join(work, "junit"))
      .sort()
      .map((f) => readFileSync(path.join(work, "junit", f), "utf8").replaceAll(work, dir))
      .join("\n"),
  );
  writeFileSync(
    path.join(out, "case.json"),
    `${JSON.stringify(
      {
        id: c.id,
        source: {
          kind: "generated",
          command: `${cmd} (SPECS=${c.specs})`,
          tools:
            "WebdriverIO 9.32.0 (@wdio/cli, local-runner, mocha-framework, spec-reporter, junit-reporter), Chromium/chromedriver 156 (Debian)",
          project: "projects/wdio",
          framing: c.frame,
          generator: "scripts/make-wdio-logs.mjs",
        },
        log: "log.txt",
        decidedBy:
          "the JUnit reporter's XML of the same run (junit-report.txt); each failing testcase's describes and title, read by hand into `describe > test` ids in expected.json",
      },
      null,
      2,
    )}\n`,
  );
  console.log(c.id, r.status, JSON.stringify({ failures, passed, skipped }));
}
