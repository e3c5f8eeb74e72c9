#!/usr/bin/env node
// Builds the generated half of the real-log corpus (test/fixtures/logs-real/gen-*) by running REAL test
// runners on the small projects in test/fixtures/logs-real/projects/, then framing their output the way a
// CI service prints it (GitHub Actions, GitLab, Jenkins, or plain).
//
//   node scripts/make-real-logs.mjs [--only <case-id>] [--prefix <id-prefix>] [--scratch DIR]
//
// The expected answer of each case does NOT come from Retrace: it is read from the runner's own
// machine-readable report of the same run (jest/vitest JSON, a mocha reporter, node:test JUnit, Playwright
// JSON, pytest JUnit XML, go test -json, RSpec JSON, PHPUnit JUnit), converted to the canonical test ids of
// docs/test-ids.md. Where a runner has no such report (unittest, cargo) the expected file is written by hand
// and this script leaves it alone (`handExpected: true`).
//
// Needs: node + npm (jest, vitest, mocha, @playwright/test installed into <scratch>/js by this script),
// python3 with pytest and pytest-xdist, go, cargo, ruby-rspec, phpunit (Debian packages).
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const corpus = path.join(root, "test/fixtures/logs-real");
const projects = path.join(corpus, "projects");
const args = process.argv.slice(2);
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
const prefix = args.includes("--prefix") ? args[args.indexOf("--prefix") + 1] : undefined;
const scratch = args.includes("--scratch") ? args[args.indexOf("--scratch") + 1] : "/tmp/retrace-real-logs";

// ------------------------------------------------------------------------------------------ framing
const FRAMES = {
  plain: { dir: "/home/user/src/PROJ" },
  actions: { dir: "/home/runner/work/PROJ/PROJ" },
  gitlab: { dir: "/builds/acme/PROJ" },
  jenkins: { dir: "/var/lib/jenkins/workspace/PROJ" },
};
const ESC = "\u001b";
function stamp(i) {
  const ms = 1_763_800_000_000 + i * 37;
  return `${new Date(ms).toISOString().replace("Z", "")}0000Z`;
}
function frame(kind, cmd, body, exit, proj) {
  const lines = body.replace(/\n$/, "").split("\n");
  if (kind === "plain") return `${body.replace(/\n$/, "")}\n`;
  if (kind === "actions") {
    const out = [
      "##[group]Run actions/checkout@v4",
      "with:",
      `  repository: acme/${proj}`,
      "##[endgroup]",
      "Syncing repository: acme/" + proj,
      `##[group]Run ${cmd}`,
      `${ESC}[36;1m${cmd}${ESC}[0m`,
      "shell: /usr/bin/bash -e {0}",
      "env:",
      "  CI: true",
      "##[endgroup]",
      ...lines,
      ...(exit === 0 ? [] : [`##[error]Process completed with exit code ${exit}.`]),
      "Post job cleanup.",
    ];
    return `${out.map((l, i) => `${stamp(i)} ${l}`).join("\n")}\n`;
  }
  if (kind === "gitlab") {
    const t = 1_763_800_000;
    const out = [
      `${ESC}[0KRunning with gitlab-runner 17.5.2 (c6eae8d7)${ESC}[0;m`,
      `${ESC}[0K  on docker-auto-scale 3a1f9c2e, system ID: s_4f0e5c6c8d21${ESC}[0;m`,
      `section_start:${t}:prepare_executor\r${ESC}[0K${ESC}[0K${ESC}[36;1mPreparing the "docker+machine" executor${ESC}[0;m${ESC}[0;m`,
      `section_end:${t + 4}:prepare_executor\r${ESC}[0Ksection_start:${t + 4}:get_sources\r${ESC}[0K${ESC}[0K${ESC}[36;1mGetting source from Git repository${ESC}[0;m${ESC}[0;m`,
      `${ESC}[32;1mFetching changes with git depth set to 20...${ESC}[0;m`,
      `section_end:${t + 6}:get_sources\r${ESC}[0Ksection_start:${t + 6}:step_script\r${ESC}[0K${ESC}[0K${ESC}[36;1mExecuting "step_script" stage of the job script${ESC}[0;m${ESC}[0;m`,
      `${ESC}[32;1m$ ${cmd}${ESC}[0;m`,
      ...lines,
      `section_end:${t + 40}:step_script\r${ESC}[0Ksection_start:${t + 40}:cleanup_file_variables\r${ESC}[0K${ESC}[0K${ESC}[36;1mCleaning up project directory and file based variables${ESC}[0;m${ESC}[0;m`,
      `section_end:${t + 41}:cleanup_file_variables\r${ESC}[0K${exit === 0 ? `${ESC}[32;1mJob succeeded${ESC}[0;m` : `${ESC}[31;1mERROR: Job failed: exit code ${exit}\n${ESC}[0;m`}`,
    ];
    return `${out.join("\n")}\n`;
  }
  if (kind === "jenkins") {
    const out = [
      "Started by user ci-admin",
      "[Pipeline] Start of Pipeline",
      "[Pipeline] node",
      `Running on agent-7 in /var/lib/jenkins/workspace/${proj}`,
      "[Pipeline] {",
      "[Pipeline] stage",
      "[Pipeline] { (Test)",
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
    return `${out.join("\n")}\n`;
  }
  throw new Error(`unknown frame ${kind}`);
}

// ------------------------------------------------------------------------------------------ helpers
function sh(cwd, cmd, env = {}) {
  // A variable given as null is removed (hold13: NO_COLOR must be absent, not empty, for some colour libraries).
  const merged = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", CI: "true", ...env };
  for (const k of Object.keys(merged)) if (merged[k] === null) delete merged[k];
  const r = spawnSync("bash", ["-c", `${cmd} 2>&1`], {
    cwd,
    env: merged,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  // This machine's npm prints a warning about its own user config that a CI runner would not: drop it.
  const out = (r.stdout ?? "").replace(/^npm warn Unknown user config.*\n/gm, "");
  return { out, exit: r.status ?? 1 };
}
function read(file) {
  return readFileSync(file, "utf8");
}
/** In-repo `file:line` places named in a failure text: the locations a parser may rightly report. */
function placesIn(text, projDir) {
  const found = [];
  const re =
    /(?:^|[\s("'[])((?:\/[^\s:()'"]+\/)?(?:[\w.@-]+\/)*[\w.@-]+\.(?:js|mjs|cjs|ts|py|go|rs|rb|php|java|cc|cpp|cxx|h|hpp)):(\d+)/gm;
  // A Python traceback names its frames `File "tests/x.py", line 12`: the same place as `tests/x.py:12`.
  const withPy = text.replace(/File "([^"]+)", line (\d+)/g, " $1:$2");
  // A path with spaces (`tests/deep dir/x_test.py:4`) is cut at a space by the pattern above: try the text
  // before each `file.ext:line` from each earlier space, and keep the longest tail that names a project file.
  const spaced =
    /([^\s:()'"]*(?: [^\s:()'"]+)+\.(?:js|mjs|cjs|ts|py|go|rs|rb|php|java|cc|cpp|cxx|h|hpp)):(\d+)/gm;
  for (const m of withPy.matchAll(spaced)) {
    const words = m[1].split(" ");
    for (let i = 0; i < words.length - 1; i++) {
      let file = words.slice(i).join(" ").replace(/^\.\//, "");
      if (file.startsWith(projDir + "/")) file = file.slice(projDir.length + 1);
      if (file.startsWith("/") || !file.includes(" ") || !existsSync(path.join(projDir, file))) continue;
      const line = Number(m[2]);
      if (!found.some((p) => p.file === file && p.line === line)) found.push({ file, line });
      break;
    }
  }
  for (const m of withPy.matchAll(re)) {
    let file = m[1].replace(/^\.\//, "");
    if (file.startsWith(projDir + "/")) file = file.slice(projDir.length + 1);
    if (file.startsWith("/") || file.includes("node_modules") || file.startsWith("..")) continue;
    if (!existsSync(path.join(projDir, file))) {
      // A JVM frame names the bare file (`MoneyTest.java:17`): the place is that file wherever the sources hold it.
      const hit = m[1].includes("/") ? undefined : findFile(projDir, m[1]);
      if (!hit) continue;
      file = hit;
    }
    const line = Number(m[2]);
    if (!found.some((p) => p.file === file && p.line === line)) found.push({ file, line });
  }
  return found;
}
function findFile(dir, name, rel = "") {
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === "target" || e.name.startsWith(".")) continue;
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      const hit = findFile(dir, name, r);
      if (hit) return hit;
    } else if (e.name === name) return r;
  }
  return undefined;
}
function xmlCases(xml) {
  // A small reader for JUnit XML as the runners here write it: testcase elements with classname/name,
  // failure/error children (text), skipped children; nested testsuite names kept for node:test.
  const cases = [];
  const stack = [];
  const re =
    /<(\/?)(testsuite|testcase)\b([^>]*?)(\/?)>|<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\5>)|<skipped\b([^>]*)/g;
  let current;
  for (const m of xml.matchAll(re)) {
    if (m[2] === "testsuite") {
      if (m[1]) stack.pop();
      else if (!m[4]) stack.push(attr(m[3], "name"));
    } else if (m[2] === "testcase") {
      if (m[1]) current = undefined;
      else {
        current = {
          classname: attr(m[3], "classname"),
          cls: attr(m[3], "class"),
          name: attr(m[3], "name"),
          suites: [...stack],
          failed: false,
          skipped: false,
          text: "",
        };
        cases.push(current);
        if (m[4]) current = undefined;
      }
    } else if (m[5] && current) {
      current.failed = true;
      current.text += `${xmlUnescape(attr(m[6], "message"))}\n${xmlUnescape(m[7] ?? "")}`;
    } else if (m[0].startsWith("<skipped") && current) {
      current.skipped = true;
      if (/\btype="todo"/.test(m[8] ?? "")) current.todo = true;
    }
  }
  return cases;
}
function attr(s, name) {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(s ?? "");
  return m ? xmlUnescape(m[1]) : "";
}
function xmlUnescape(s) {
  return s
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, d) => String.fromCharCode(Number(d)))
    .replace(/&amp;/g, "&");
}

// ------------------------------------------------------------------------------ ground-truth readers
// Each returns [{ test, failed, skipped, text }] in canonical ids (docs/test-ids.md).
const truth = {
  jestJson(file, projDir) {
    const j = JSON.parse(read(file));
    const out = [];
    for (const suite of j.testResults) {
      const rel = path.relative(projDir, suite.name ?? suite.testFilePath);
      if (suite.assertionResults.length === 0 && suite.status === "failed") {
        out.push({ test: rel, failed: true, skipped: false, text: suite.message ?? "" });
      }
      for (const a of suite.assertionResults) {
        out.push({
          test: [rel, ...a.ancestorTitles, a.title].join(" > "),
          failed: a.status === "failed",
          skipped: a.status === "pending" || a.status === "skipped" || a.status === "todo",
          text: (a.failureMessages ?? []).join("\n"),
        });
      }
    }
    return out;
  },
  vitestJson(file, projDir) {
    // vitest's JSON report lists tests only: a failing `beforeAll` fails its suite, whose tests it marks skipped.
    // vitest's JUnit report of the same run (written beside it, `<report>.junit.xml`) has the suite as a failed
    // testcase named by its title path: that failure is added.
    const out = truth.jestJson(file, projDir);
    const junit = `${file}.junit.xml`;
    if (existsSync(junit))
      for (const c of xmlCases(read(junit))) {
        const test = `${c.classname} > ${c.name}`;
        if (c.failed && !out.some((t) => t.test === test))
          out.push({ test, failed: true, skipped: false, text: c.text });
      }
    return out;
  },
  titlePathJson(file) {
    // Written by projects/js/mocha/titlepath-reporter.cjs and by the Playwright JSON reader below.
    return JSON.parse(read(file));
  },
  playwrightJson(file, projDir) {
    const j = JSON.parse(read(file));
    const out = [];
    const walk = (suite, titles) => {
      const here = suite.title && !suite.file?.endsWith(suite.title) ? [...titles, suite.title] : titles;
      for (const spec of suite.specs ?? []) {
        const file = path.relative(projDir, path.join(j.config.rootDir, spec.file));
        for (const t of spec.tests) {
          const results = t.results ?? [];
          const last = results.at(-1);
          out.push({
            test: [file, ...here, spec.title].join(" > "),
            failed: t.status === "unexpected",
            skipped: t.status === "skipped",
            text:
              results
                .map((r) =>
                  (r.errors ?? [])
                    .map(
                      (e) =>
                        `${e.message ?? ""}\n${e.stack ?? ""}\n${e.location ? `${e.location.file}:${e.location.line}` : ""}`,
                    )
                    .join("\n"),
                )
                .join("\n") + (last ? "" : ""),
          });
        }
      }
      for (const s of suite.suites ?? []) walk(s, here);
    };
    for (const s of j.suites) walk(s, []);
    return out;
  },
  nodeJunit(file) {
    return xmlCases(read(file)).map((c) => {
      // A `{ todo }` test that fails is reported with <skipped type="todo"> beside its <failure>: node counts
      // it as todo, not as a failure, and the run does not fail for it.
      const todo = c.todo === true;
      return {
        test: [...c.suites.filter((s) => s && s !== "root"), c.name].join(" > "),
        failed: c.failed && !todo,
        skipped: c.skipped || todo,
        text: c.text,
      };
    });
  },
  pytestJunit(file) {
    return xmlCases(read(file)).map((c) => {
      // pytest writes classname "tests.test_x.TestK" and name "test_y[p]": rebuild the node id.
      const parts = c.classname.split(".");
      let i = parts.length;
      while (i > 0 && /^[A-Z]/.test(parts[i - 1] ?? "")) i--;
      const mod = parts.slice(0, i).join("/");
      const cls = parts.slice(i);
      const test = c.name ? [`${mod}.py`, ...cls, c.name].join("::") : `${mod}.py`;
      return { test, failed: c.failed, skipped: c.skipped, text: c.text };
    });
  },
  goJson(file) {
    const out = new Map();
    for (const line of read(file).split("\n")) {
      if (!line.startsWith("{")) continue;
      const e = JSON.parse(line);
      if (!e.Test) continue;
      const id = `${e.Package}.${e.Test}`;
      const cur = out.get(id) ?? { test: id, failed: false, skipped: false, text: "" };
      if (e.Action === "output") cur.text += e.Output;
      if (e.Action === "fail") cur.failed = true;
      if (e.Action === "skip") cur.skipped = true;
      out.set(id, cur);
    }
    // A test binary that crashes (a panic in a goroutine) ends its package with `fail` and no event for the test
    // that was running: go 1.19's test2json leaves that test with only `run`. The crash is that test's failure
    // (newer go versions report it so), so a test that started and never ended in a failed package failed.
    const packageFailed = new Set();
    const ended = new Set();
    const started = [];
    for (const line of read(file).split("\n")) {
      if (!line.startsWith("{")) continue;
      const e = JSON.parse(line);
      if (!e.Test && e.Action === "fail") packageFailed.add(e.Package);
      if (e.Test && e.Action === "run") started.push(`${e.Package}.${e.Test}`);
      if (e.Test && ["pass", "fail", "skip"].includes(e.Action)) ended.add(`${e.Package}.${e.Test}`);
    }
    for (const id of started) {
      const t = out.get(id);
      if (!ended.has(id) && [...packageFailed].some((p) => id.startsWith(`${p}.`))) t.failed = true;
    }
    // A parent test fails because its subtest failed: only the leaves are the failures a fix targets,
    // and Retrace reports the leaves (docs/test-ids.md); a parent with no failing child stays a failure.
    const all = [...out.values()];
    return all.map((t) => ({
      ...t,
      parentOnly: t.failed && all.some((o) => o !== t && o.failed && o.test.startsWith(`${t.test}/`)),
    }));
  },
  gtestXml(dir) {
    // GoogleTest's own XML (GTEST_OUTPUT=xml:dir/): one file per test binary; the id is `classname.name`, the
    // full name GoogleTest prints and `--gtest_filter` takes (`Counts/RingSumTest.SumsWhatWasPushed/0`).
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".xml")) : [];
    return files.flatMap((f) =>
      xmlCases(read(path.join(dir, f))).map((c) => ({
        test: `${c.classname}.${c.name}`,
        failed: c.failed,
        skipped: c.skipped,
        text: c.text,
      })),
    );
  },
  minitestJson(file) {
    // Written by projects/minitest/test/report_helper.rb: minitest's own result of each test; the id is
    // `Class#method` as minitest names it (docs/test-ids.md).
    return JSON.parse(read(file)).map((t) => ({
      test: t.test,
      failed: t.failed,
      skipped: t.skipped,
      text: t.text,
    }));
  },
  ctestJunit(file) {
    // CTest's own JUnit report (`ctest --output-junit`, CMake 3.21+): one testcase per CTest test; the id is
    // the CTest test name (docs/test-ids.md).
    return xmlCases(read(file)).map((c) => ({
      test: c.name,
      failed: c.failed,
      skipped: c.skipped,
      text: c.text,
    }));
  },
  jasmineJson(file) {
    // Written by projects/jasmine/spec/helpers/report.mjs: jasmine's own result of each spec; the id is its
    // fullName (docs/test-ids.md).
    return JSON.parse(read(file)).specs.map((s) => ({
      test: s.fullName,
      failed: s.status === "failed",
      skipped: s.status === "pending" || s.status === "excluded",
      text: s.failures.map((f) => `${f.message}\n${f.stack}`).join("\n"),
    }));
  },
  catch2Junit(file) {
    // Catch2's JUnit reporter: classname `<binary>.global`, name `test case/section…`: the id is the name.
    return xmlCases(read(file)).map((c) => ({
      test: c.name,
      failed: c.failed,
      skipped: c.skipped,
      text: c.text,
    }));
  },
  bunJunit(file) {
    // bun's JUnit reporter nests a testsuite per file and per describe: the id is jest's and vitest's,
    // `file > describe … > test` (docs/test-ids.md).
    return xmlCases(read(file)).map((c) => ({
      test: [...c.suites, c.name].join(" > "),
      failed: c.failed,
      skipped: c.skipped,
      text: c.text,
    }));
  },
  rspecJson(file, projDir) {
    const j = JSON.parse(read(file));
    // The file is the one of the example's re-run id (`./spec/render_spec.rb[1:1:2]`), as in RSpec's re-run list
    // (docs/test-ids.md): an example of a shared group defined in another file has that other file as its
    // `file_path`, but runs from (and is re-run by) the spec that includes the group.
    return j.examples.map((e) => ({
      test: `${(e.id ?? e.file_path).replace(/\[[\d:]+\]$/, "").replace(/^\.\//, "")} > ${e.full_description}`,
      failed: e.status === "failed",
      skipped: e.status === "pending",
      text: `${e.exception?.message ?? ""}\n${(e.exception?.backtrace ?? []).join("\n")}`.replaceAll(
        `${projDir}/`,
        "",
      ),
    }));
  },
  surefireDir(dir) {
    // Surefire's and Gradle's XML reports: one TEST-<class>.xml per class; id <classname>.<name>.
    const files = existsSync(dir)
      ? readdirSync(dir).filter((f) => f.startsWith("TEST-") && f.endsWith(".xml"))
      : [];
    return files.flatMap((f) =>
      xmlCases(read(path.join(dir, f))).map((c) => ({
        // Surefire 2 writes a parameterized invocation as `m{String, String}[3]`, Surefire 3 as
        // `m(String, String)[3]`: the canonical id (docs/test-ids.md) is the latter.
        // A class-level error (a failing @BeforeAll) is written with the class as its name: the id is the class.
        test:
          c.name === c.classname
            ? c.classname
            : `${c.classname}.${c.name.replace(/^([\w$]+)\{(.*)\}(\[\d+\])$/, "$1($2)$3")}`,
        failed: c.failed,
        skipped: c.skipped,
        text: c.text,
      })),
    );
  },
  unittestJson(file) {
    // Written by projects/hold3-py/spec_tools/unittest_report.py: unittest's own result object, test.id() per
    // test (a failing subTest keeps unittest's subtest id `<id> [msg] (k=v)`), failures, errors and
    // unexpected successes as failures.
    return JSON.parse(read(file));
  },
  libtestJson(file) {
    // libtest's JSON events (`-Z unstable-options --format json`), one stream per test target (lib, each
    // tests/*.rs, doc-tests): `{"type":"test","event":"failed","name":"tests::x","stdout":"…"}`.
    const out = [];
    for (const line of read(file).split("\n")) {
      if (!line.startsWith("{")) continue;
      const e = JSON.parse(line);
      if (e.type !== "test" || e.event === "started") continue;
      out.push({
        test: e.name,
        failed: e.event === "failed" || e.event === "timeout",
        skipped: e.event === "ignored",
        text: e.stdout ?? "",
      });
    }
    return out;
  },
  phpunitJunit(file) {
    return xmlCases(read(file)).map((c) => ({
      test: `${c.cls || c.classname}::${c.name}`,
      failed: c.failed,
      skipped: c.skipped,
      text: c.text,
    }));
  },
};

// ------------------------------------------------------------------------------------------ the cases
// id: gen-<runner>-<variant>. cmd: what the CI step runs (shown in the framing). run: the command actually
// executed (same runner, plus the flag that writes the machine-readable report). truth: reader + report.
const JS = "js";
const CASES = [
  // jest
  {
    id: "gen-jest-default-actions",
    proj: JS,
    frame: "actions",
    cmd: "npx jest jest/a",
    run: "npx jest jest/a --ci --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "gen-jest-verbose-gitlab",
    proj: JS,
    frame: "gitlab",
    cmd: "npx jest --ci --verbose jest/a jest/b",
    run: "npx jest --ci --verbose jest/a jest/b --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "gen-jest-color-actions",
    proj: JS,
    frame: "actions",
    color: true,
    cmd: "npm test",
    run: "npx jest --ci --colors jest/a jest/b --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "gen-jest-green-console-actions",
    proj: JS,
    frame: "actions",
    cmd: "npx jest jest/green.test.js",
    run: "npx jest --ci jest/green.test.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "gen-jest-shard1-jenkins",
    proj: JS,
    frame: "jenkins",
    cmd: "npx jest --ci --shard=1/2 jest/a jest/b",
    run: "npx jest --ci --shard=1/2 jest/a jest/b --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "gen-jest-shard2-plain",
    proj: JS,
    frame: "plain",
    cmd: "npx jest --ci --shard=2/2 jest/a jest/b",
    run: "npx jest --ci --shard=2/2 jest/a jest/b --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "gen-jest-projects-actions",
    proj: JS,
    frame: "actions",
    cmd: "npx jest --ci -c jest.projects.config.js",
    run: "npx jest --ci -c jest.projects.config.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  // vitest
  {
    id: "gen-vitest-default-actions",
    proj: JS,
    frame: "actions",
    cmd: "npx vitest run vitest/pkg-a",
    run: "npx vitest run vitest/pkg-a --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "gen-vitest-verbose-jenkins",
    proj: JS,
    frame: "jenkins",
    cmd: "npx vitest run --reporter=verbose vitest",
    run: "npx vitest run vitest/pkg-a vitest/pkg-b --reporter=verbose --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "gen-vitest-color-gitlab",
    proj: JS,
    frame: "gitlab",
    color: true,
    cmd: "npx vitest run",
    run: "npx vitest run vitest/pkg-a vitest/pkg-b --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "gen-vitest-shard-actions",
    proj: JS,
    frame: "actions",
    cmd: "npx vitest run --shard=1/2",
    run: "npx vitest run vitest/pkg-a vitest/pkg-b --shard=1/2 --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "gen-vitest-projects-plain",
    proj: JS,
    frame: "plain",
    cmd: "npx vitest run --config vitest.projects.config.mjs",
    run: "npx vitest run --config vitest.projects.config.mjs --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "gen-vitest-green-actions",
    proj: JS,
    frame: "actions",
    cmd: "npx vitest run vitest/green.test.js",
    run: "npx vitest run vitest/green.test.js --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  // mocha
  {
    id: "gen-mocha-spec-actions",
    proj: JS,
    frame: "actions",
    cmd: "npx mocha mocha/money.spec.js",
    run: "npx mocha mocha/money.spec.js --reporter spec --reporter-option x=1; TITLEPATH_OUT=REPORT node_modules/.bin/mocha mocha/money.spec.js --reporter ./mocha/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "gen-mocha-spec-jenkins",
    proj: JS,
    frame: "jenkins",
    cmd: "npx mocha 'mocha/*.spec.js'",
    run: "npx mocha 'mocha/*.spec.js'; TITLEPATH_OUT=REPORT node_modules/.bin/mocha 'mocha/*.spec.js' --reporter ./mocha/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "gen-mocha-green-gitlab",
    proj: JS,
    frame: "gitlab",
    cmd: "npx mocha mocha/green.spec.js",
    run: "npx mocha mocha/green.spec.js; TITLEPATH_OUT=REPORT node_modules/.bin/mocha mocha/green.spec.js --reporter ./mocha/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  // node:test
  {
    id: "gen-node-spec-actions",
    proj: JS,
    frame: "actions",
    cmd: "node --test node/",
    run: "node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT node/",
    truth: "nodeJunit",
  },
  {
    id: "gen-node-tap-gitlab",
    proj: JS,
    frame: "gitlab",
    cmd: "node --test --test-reporter=tap node/",
    run: "node --test --test-reporter=tap --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT node/",
    truth: "nodeJunit",
  },
  {
    id: "gen-node-green-plain",
    proj: JS,
    frame: "plain",
    cmd: "node --test node/green.test.js",
    run: "node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT node/green.test.js",
    truth: "nodeJunit",
  },
  // Playwright Test (no browser needed by these specs)
  {
    id: "gen-playwright-list-actions",
    proj: JS,
    frame: "actions",
    cmd: "npx playwright test",
    run: "PLAYWRIGHT_JSON_OUTPUT_NAME=REPORT npx playwright test --reporter=list,json",
    truth: "playwrightJson",
  },
  {
    id: "gen-playwright-line-jenkins",
    proj: JS,
    frame: "jenkins",
    cmd: "npx playwright test --reporter=line",
    run: "PLAYWRIGHT_JSON_OUTPUT_NAME=REPORT npx playwright test --reporter=line,json",
    truth: "playwrightJson",
  },
  {
    id: "gen-playwright-green-actions",
    proj: JS,
    frame: "actions",
    cmd: "npx playwright test pw/green.spec.js",
    run: "PLAYWRIGHT_JSON_OUTPUT_NAME=REPORT npx playwright test pw/green.spec.js --reporter=list,json",
    truth: "playwrightJson",
  },
  {
    id: "gen-playwright-junit-xml",
    proj: JS,
    frame: "xml",
    cmd: "npx playwright test --reporter=junit",
    run: "PLAYWRIGHT_JUNIT_OUTPUT_NAME=LOGFILE PLAYWRIGHT_JSON_OUTPUT_NAME=REPORT npx playwright test --reporter=junit,json",
    truth: "playwrightJson",
  },
  // pytest
  {
    id: "gen-pytest-default-actions",
    proj: "py",
    frame: "actions",
    cmd: "pytest",
    run: "python3 -m pytest -p no:cacheprovider --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "gen-pytest-verbose-gitlab",
    proj: "py",
    frame: "gitlab",
    cmd: "pytest -v",
    run: "python3 -m pytest -p no:cacheprovider -v --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "gen-pytest-ra-jenkins",
    proj: "py",
    frame: "jenkins",
    cmd: "pytest -rA",
    run: "python3 -m pytest -p no:cacheprovider -rA --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "gen-pytest-xdist-actions",
    proj: "py",
    frame: "actions",
    cmd: "pytest -n 2",
    run: "python3 -m pytest -p no:cacheprovider -n 2 --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "gen-pytest-xdist-verbose-plain",
    proj: "py",
    frame: "plain",
    cmd: "pytest -n 2 -v",
    run: "python3 -m pytest -p no:cacheprovider -n 2 -v --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "gen-pytest-green-actions",
    proj: "py",
    frame: "actions",
    cmd: "pytest tests/test_ok.py",
    run: "python3 -m pytest -p no:cacheprovider tests/test_ok.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "gen-pytest-quiet-green-plain",
    proj: "py",
    frame: "plain",
    cmd: "pytest -q tests/test_ok.py",
    run: "python3 -m pytest -p no:cacheprovider -q tests/test_ok.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "gen-pytest-color-actions",
    proj: "py",
    frame: "actions",
    color: true,
    cmd: "pytest --color=yes",
    run: "python3 -m pytest -p no:cacheprovider --color=yes --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "gen-pytest-subtests-gitlab",
    proj: "py",
    frame: "gitlab",
    cmd: "pytest tests/test_coords.py",
    run: "python3 -m pytest -p no:cacheprovider tests/test_coords.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  // unittest (no machine-readable report: expected written by hand)
  {
    id: "gen-unittest-subtest-actions",
    proj: "py",
    frame: "actions",
    cmd: "python -m unittest tests.test_coords",
    run: "python3 -m unittest tests.test_coords",
    handExpected: true,
  },
  {
    id: "gen-unittest-verbose-jenkins",
    proj: "py",
    frame: "jenkins",
    cmd: "python -m unittest -v tests.test_coords tests.test_ok",
    run: "python3 -m unittest -v tests.test_coords tests.test_ok",
    handExpected: true,
  },
  {
    id: "gen-unittest-green-plain",
    proj: "py",
    frame: "plain",
    cmd: "python -m unittest -v tests.test_coords.ParseCoordTests.test_two_parts tests.test_coords.ParseCoordTests.test_valid_inputs",
    run: "python3 -m unittest -v tests.test_coords.ParseCoordTests.test_two_parts tests.test_coords.ParseCoordTests.test_valid_inputs",
    handExpected: true,
  },
  {
    id: "gen-pytest-collection-error-actions",
    proj: "py-broken",
    frame: "actions",
    cmd: "pytest",
    run: "python3 -m pytest -p no:cacheprovider",
    handExpected: true,
  },
  // go
  {
    id: "gen-go-default-actions",
    proj: "go",
    frame: "actions",
    cmd: "go test ./...",
    run: "go test ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "gen-go-verbose-gitlab",
    proj: "go",
    frame: "gitlab",
    cmd: "go test -v ./...",
    run: "go test -v ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "gen-go-race-actions",
    proj: "go",
    frame: "actions",
    cmd: "go test -race ./...",
    run: "go test -race ./...; go test -race -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "gen-go-json-jenkins",
    proj: "go",
    frame: "jenkins",
    cmd: "go test -json ./...",
    run: "go test -json ./... | tee REPORT",
    truth: "goJson",
  },
  {
    id: "gen-go-build-error-gitlab",
    proj: "go-broken",
    frame: "gitlab",
    cmd: "go test ./...",
    run: "go test ./...",
    handExpected: true,
  },
  {
    id: "gen-go-green-plain",
    proj: "go",
    frame: "plain",
    cmd: "go test ./ledger/...",
    run: "go test ./ledger/...; go test -json ./ledger/... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  // cargo (expected by hand)
  {
    id: "gen-cargo-test-actions",
    proj: "rust",
    frame: "actions",
    cmd: "cargo test",
    run: "cargo test --offline",
    handExpected: true,
  },
  {
    id: "gen-cargo-test-nocapture-gitlab",
    proj: "rust",
    frame: "gitlab",
    cmd: "cargo test --no-fail-fast",
    run: "cargo test --offline --no-fail-fast",
    handExpected: true,
  },
  {
    id: "gen-cargo-junit-xml",
    proj: "rust",
    frame: "xml-stdout",
    cmd: "cargo test -- -Z unstable-options --format junit",
    run: "RUSTC_BOOTSTRAP=1 cargo test --offline --quiet --lib -- -Z unstable-options --format junit",
    handExpected: true,
  },
  // Maven Surefire (Debian's Maven repository, offline) and Gradle (Debian's gradle, JUnit 4 from the same repository)
  {
    id: "gen-surefire-actions",
    proj: "java",
    frame: "actions",
    cmd: "mvn -B test",
    run: "mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo test; rc=$?; cp -r target/surefire-reports REPORT; exit $rc",
    truth: "surefireDir",
  },
  {
    id: "gen-surefire-gitlab",
    proj: "java",
    frame: "gitlab",
    color: true,
    cmd: "mvn test",
    run: "mvn -o -Dmaven.repo.local=/usr/share/maven-repo -Dstyle.color=always test; rc=$?; cp -r target/surefire-reports REPORT; exit $rc",
    truth: "surefireDir",
  },
  {
    id: "gen-surefire-trimstack-jenkins",
    proj: "java",
    frame: "jenkins",
    cmd: "mvn -B -DtrimStackTrace=false test",
    run: "mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo -DtrimStackTrace=false test; rc=$?; cp -r target/surefire-reports REPORT; exit $rc",
    truth: "surefireDir",
  },
  {
    id: "gen-surefire-xml",
    proj: "java",
    frame: "xml",
    cmd: "mvn test (target/surefire-reports/TEST-com.acme.ledger.MoneyTest.xml)",
    run: "mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo test; cp -r target/surefire-reports REPORT; cp target/surefire-reports/TEST-com.acme.ledger.MoneyTest.xml LOGFILE",
    truth: "surefireDir",
  },
  // rspec
  {
    id: "gen-rspec-progress-actions",
    proj: "ruby",
    frame: "actions",
    cmd: "bundle exec rspec",
    run: "rspec --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "gen-rspec-doc-gitlab",
    proj: "ruby",
    frame: "gitlab",
    cmd: "rspec --format documentation",
    run: "rspec --format documentation --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "gen-rspec-green-plain",
    proj: "ruby",
    frame: "plain",
    cmd: "rspec spec/ok_spec.rb",
    run: "rspec spec/ok_spec.rb --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  // rspec documentation format: `#method` groups under a described class (no space in the full description),
  // a one-liner's generated description, pending examples numbered in `Pending:` before `Failures:`, two spec files.
  {
    id: "gen-rspec-doc-pending-actions",
    proj: "rspec-doc",
    frame: "actions",
    cmd: "bundle exec rspec --format documentation",
    run: "rspec --format documentation --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "gen-rspec-doc-pending-jenkins",
    proj: "rspec-doc",
    frame: "jenkins",
    cmd: "rspec -fd spec/inventory_spec.rb",
    run: "rspec -fd spec/inventory_spec.rb --format json --out REPORT",
    truth: "rspecJson",
  },
  // GoogleTest 1.12 (Debian's libgtest-dev) built with CMake: the test binary run alone, under CTest with
  // --output-on-failure, its XML report, and a green binary that prints a `[  FAILED  ]`-looking line.
  {
    id: "gen-gtest-plain-actions",
    proj: "gtest",
    frame: "actions",
    cmd: "cmake -S . -B build && cmake --build build && ./build/ring_test",
    run: "cmake -S . -B build && cmake --build build && GTEST_OUTPUT=xml:REPORT/ ./build/ring_test",
    truth: "gtestXml",
  },
  {
    id: "gen-gtest-ctest-gitlab",
    proj: "gtest",
    frame: "gitlab",
    cmd: "cmake -S . -B build && cmake --build build && cd build && ctest --output-on-failure",
    run: "cmake -S . -B build && cmake --build build && cd build && GTEST_OUTPUT=xml:REPORT/ ctest --output-on-failure",
    truth: "gtestXml",
  },
  {
    id: "gen-gtest-xml",
    proj: "gtest",
    frame: "xml",
    cmd: "ring_test --gtest_output=xml (test_detail.xml)",
    run: "cmake -S . -B build >/dev/null && cmake --build build >/dev/null && GTEST_OUTPUT=xml:REPORT/ ./build/ring_test; cp REPORT/ring_test.xml LOGFILE",
    truth: "gtestXml",
  },
  {
    id: "gen-gtest-green-jenkins",
    proj: "gtest",
    frame: "jenkins",
    cmd: "cmake -S . -B build && cmake --build build && ./build/green_test",
    run: "cmake -S . -B build && cmake --build build && GTEST_OUTPUT=xml:REPORT/ ./build/green_test",
    truth: "gtestXml",
  },
  // Plain test executables under CTest 3.25 (no test framework): a failure, an abort, a skip by exit code;
  // CTest's own JUnit report is the answer.
  {
    id: "gen-ctest-output-on-failure-jenkins",
    proj: "ctest",
    frame: "jenkins",
    cmd: "cmake -S . -B build && cmake --build build && cd build && ctest --output-on-failure",
    run: "cmake -S . -B build >/dev/null && cmake --build build >/dev/null && cd build && ctest --output-on-failure --output-junit REPORT",
    truth: "ctestJunit",
  },
  {
    id: "gen-ctest-green-actions",
    proj: "ctest",
    frame: "actions",
    cmd: "cmake -S . -B build && cmake --build build && cd build && ctest -R shelf",
    run: "cmake -S . -B build >/dev/null && cmake --build build >/dev/null && cd build && ctest -R shelf --output-junit REPORT",
    truth: "ctestJunit",
  },
  // minitest 5.15 (Debian's ruby): the default reporter; a helper reporter writes minitest's own results.
  {
    id: "gen-minitest-actions",
    proj: "minitest",
    frame: "actions",
    cmd: 'ruby -e \'require_relative "test/jar_test"; require_relative "test/shelf_test"\' -- --seed 7',
    run: 'MINITEST_JSON=REPORT ruby -e \'require_relative "test/jar_test"; require_relative "test/shelf_test"\' -- --seed 7',
    truth: "minitestJson",
  },
  {
    id: "gen-minitest-green-gitlab",
    proj: "minitest",
    frame: "gitlab",
    cmd: "ruby test/green_test.rb",
    run: "MINITEST_JSON=REPORT ruby test/green_test.rb",
    truth: "minitestJson",
  },
  // jasmine 7 (its default console reporter; a helper reporter writes the expected answer)
  {
    id: "gen-jasmine-actions",
    proj: "jasmine",
    frame: "actions",
    cmd: "npx jasmine",
    run: "JASMINE_JSON=REPORT SCRATCH/jasmine/node_modules/.bin/jasmine",
    truth: "jasmineJson",
  },
  {
    id: "gen-jasmine-green-jenkins",
    proj: "jasmine",
    frame: "jenkins",
    cmd: "npx jasmine spec/green.spec.mjs",
    run: "JASMINE_JSON=REPORT SCRATCH/jasmine/node_modules/.bin/jasmine spec/green.spec.mjs",
    truth: "jasmineJson",
  },
  {
    id: "gen-jasmine-gitlab",
    proj: "jasmine",
    frame: "gitlab",
    cmd: "npx jasmine spec/nested/unique.spec.mjs",
    run: "JASMINE_JSON=REPORT SCRATCH/jasmine/node_modules/.bin/jasmine spec/nested/unique.spec.mjs",
    truth: "jasmineJson",
  },
  // Catch2 2.13 (Debian's header-only catch2): the console reporter is the log, a second run with `-r junit` the answer
  {
    id: "gen-catch2-jenkins",
    proj: "catch2",
    frame: "jenkins",
    cmd: "make && ./build/stack_tests",
    run: "make -s && ./build/stack_tests; ./build/stack_tests -r junit -o REPORT",
    twoRuns: true,
    truth: "catch2Junit",
  },
  {
    id: "gen-catch2-green-gitlab",
    proj: "catch2",
    frame: "gitlab",
    cmd: "make && ./build/stack_tests '[stack]' '~stack limits' '~empty stack'",
    run: "make -s && ./build/stack_tests '[stack]' '~stack limits' '~empty stack'; ./build/stack_tests '[stack]' '~stack limits' '~empty stack' -r junit -o REPORT",
    twoRuns: true,
    truth: "catch2Junit",
  },
  // bun test 1.4 (non-TTY output: `(pass)`/`(fail)` lines after each failure's code frame and error)
  {
    id: "gen-bun-actions",
    proj: "bun",
    frame: "actions",
    cmd: "bun test",
    run: "SCRATCH/bun/node_modules/.bin/bun test --reporter=junit --reporter-outfile=REPORT",
    truth: "bunJunit",
  },
  {
    id: "gen-bun-green-gitlab",
    proj: "bun",
    frame: "gitlab",
    cmd: "bun test test/green.test.js",
    run: "SCRATCH/bun/node_modules/.bin/bun test test/green.test.js --reporter=junit --reporter-outfile=REPORT",
    truth: "bunJunit",
  },
  {
    id: "gen-bun-junit-xml",
    proj: "bun",
    frame: "xml",
    cmd: "bun test --reporter=junit --reporter-outfile=junit.xml (junit.xml)",
    run: "SCRATCH/bun/node_modules/.bin/bun test --reporter=junit --reporter-outfile=REPORT; cp REPORT LOGFILE",
    truth: "bunJunit",
  },
  {
    id: "gen-bun-plain",
    proj: "bun",
    frame: "plain",
    cmd: "bun test test/deep",
    run: "SCRATCH/bun/node_modules/.bin/bun test test/deep --reporter=junit --reporter-outfile=REPORT",
    truth: "bunJunit",
  },
  // phpunit
  {
    id: "gen-phpunit-default-actions",
    proj: "php",
    frame: "actions",
    cmd: "vendor/bin/phpunit",
    run: "phpunit --log-junit REPORT",
    truth: "phpunitJunit",
  },
  {
    id: "gen-phpunit-testdox-jenkins",
    proj: "php",
    frame: "jenkins",
    cmd: "vendor/bin/phpunit --testdox",
    run: "phpunit --testdox --log-junit REPORT",
    truth: "phpunitJunit",
  },
  {
    id: "gen-phpunit-junit-xml",
    proj: "php",
    frame: "xml",
    cmd: "phpunit --log-junit report.xml",
    run: "phpunit --log-junit REPORT; cp REPORT LOGFILE",
    truth: "phpunitJunit",
  },
  {
    id: "gen-phpunit-green-gitlab",
    proj: "php",
    frame: "gitlab",
    cmd: "phpunit tests/OkTest.php",
    run: "phpunit tests/OkTest.php --log-junit REPORT",
    truth: "phpunitJunit",
  },

  // ---- held out: a second set of projects (an inventory library) written after the parsers were tuned, so
  // no one working on the parsers saw them; scored once with `--prefix hold-`.
  {
    id: "hold-jest-actions",
    proj: "hold-js",
    frame: "actions",
    cmd: "npx jest",
    run: "npx jest --ci --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold-jest-verbose-jenkins",
    proj: "hold-js",
    frame: "jenkins",
    cmd: "npx jest --verbose",
    run: "npx jest --ci --verbose --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold-vitest-gitlab",
    proj: "hold-js",
    frame: "gitlab",
    cmd: "npx vitest run",
    run: "npx vitest run --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold-vitest-verbose-actions",
    proj: "hold-js",
    frame: "actions",
    color: true,
    cmd: "npx vitest run --reporter=verbose",
    run: "npx vitest run --reporter=verbose --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold-mocha-plain",
    proj: "hold-js",
    frame: "plain",
    cmd: "npx mocha spec/mocha",
    run: "npx mocha spec/mocha; TITLEPATH_OUT=REPORT node_modules/.bin/mocha spec/mocha --reporter ./spec-tools/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "hold-node-spec-gitlab",
    proj: "hold-js",
    frame: "gitlab",
    cmd: "node --test spec/node/",
    run: "node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT spec/node/",
    truth: "nodeJunit",
  },
  {
    id: "hold-node-tap-actions",
    proj: "hold-js",
    frame: "actions",
    cmd: "node --test --test-reporter=tap spec/node/",
    run: "node --test --test-reporter=tap --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT spec/node/",
    truth: "nodeJunit",
  },
  {
    id: "hold-pytest-actions",
    proj: "hold-py",
    frame: "actions",
    cmd: "pytest",
    run: "python3 -m pytest -p no:cacheprovider --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold-pytest-vv-gitlab",
    proj: "hold-py",
    frame: "gitlab",
    cmd: "pytest -vv",
    run: "python3 -m pytest -p no:cacheprovider -vv --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold-pytest-xdist-ra-jenkins",
    proj: "hold-py",
    frame: "jenkins",
    cmd: "pytest -n 2 -rA",
    run: "python3 -m pytest -p no:cacheprovider -n 2 -rA --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold-pytest-quiet-plain",
    proj: "hold-py",
    frame: "plain",
    cmd: "pytest -q",
    run: "python3 -m pytest -p no:cacheprovider -q --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold-unittest-actions",
    proj: "hold-py",
    frame: "actions",
    cmd: "python -m unittest discover -v",
    run: "python3 -m unittest discover -v",
    handExpected: true,
  },
  {
    id: "hold-go-actions",
    proj: "hold-go",
    frame: "actions",
    cmd: "go test ./...",
    run: "go test ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold-go-v-gitlab",
    proj: "hold-go",
    frame: "gitlab",
    cmd: "go test -v ./...",
    run: "go test -v ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold-go-json-plain",
    proj: "hold-go",
    frame: "plain",
    cmd: "go test -json ./...",
    run: "go test -json ./... | tee REPORT",
    truth: "goJson",
  },
  {
    id: "hold-rspec-actions",
    proj: "hold-rb",
    frame: "actions",
    cmd: "bundle exec rspec",
    run: "rspec --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold-rspec-doc-jenkins",
    proj: "hold-rb",
    frame: "jenkins",
    cmd: "rspec -f d",
    run: "rspec --format documentation --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold-phpunit-actions",
    proj: "hold-php",
    frame: "actions",
    cmd: "vendor/bin/phpunit",
    run: "phpunit --log-junit REPORT",
    truth: "phpunitJunit",
  },
  {
    id: "hold-phpunit-testdox-gitlab",
    proj: "hold-php",
    frame: "gitlab",
    cmd: "vendor/bin/phpunit --testdox",
    run: "phpunit --testdox --log-junit REPORT",
    truth: "phpunitJunit",
  },

  // ---- held out, second set: a booking library written in a later session, after the parsers met the
  // first held-out set (same-named tests in two classes/describes, template tables, failing hooks, soft
  // assertions, expected-to-fail tests, a todo test, helpers, examples, nested classes, aggregate
  // failures); scored once with `--prefix hold2-`.
  {
    id: "hold2-jest-gitlab",
    proj: "hold2-js",
    frame: "gitlab",
    cmd: "npx jest",
    run: "npx jest --ci --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold2-jest-verbose-actions",
    proj: "hold2-js",
    frame: "actions",
    color: true,
    cmd: "npx jest --verbose",
    run: "npx jest --ci --verbose --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold2-vitest-jenkins",
    proj: "hold2-js",
    frame: "jenkins",
    cmd: "npx vitest run",
    run: "npx vitest run --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold2-vitest-verbose-plain",
    proj: "hold2-js",
    frame: "plain",
    cmd: "npx vitest run --reporter=verbose",
    run: "npx vitest run --reporter=verbose --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold2-mocha-actions",
    proj: "hold2-js",
    frame: "actions",
    cmd: "npx mocha spec/mocha",
    run: "npx mocha spec/mocha; TITLEPATH_OUT=REPORT node_modules/.bin/mocha spec/mocha --reporter ./spec-tools/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "hold2-node-spec-jenkins",
    proj: "hold2-js",
    frame: "jenkins",
    cmd: "node --test spec/node/",
    run: "node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT spec/node/",
    truth: "nodeJunit",
  },
  {
    id: "hold2-pytest-jenkins",
    proj: "hold2-py",
    frame: "jenkins",
    cmd: "pytest",
    run: "python3 -m pytest -p no:cacheprovider --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold2-pytest-ra-actions",
    proj: "hold2-py",
    frame: "actions",
    cmd: "pytest -rA",
    run: "python3 -m pytest -p no:cacheprovider -rA --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold2-pytest-tbshort-gitlab",
    proj: "hold2-py",
    frame: "gitlab",
    cmd: "pytest -v --tb=short",
    run: "python3 -m pytest -p no:cacheprovider -v --tb=short --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold2-go-actions",
    proj: "hold2-go",
    frame: "actions",
    cmd: "go test ./...",
    run: "go test ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold2-go-json-gitlab",
    proj: "hold2-go",
    frame: "gitlab",
    cmd: "go test -json ./...",
    run: "go test -json ./... | tee REPORT",
    truth: "goJson",
  },
  {
    id: "hold2-rspec-gitlab",
    proj: "hold2-rb",
    frame: "gitlab",
    cmd: "bundle exec rspec",
    run: "rspec --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold2-mvn-actions",
    proj: "hold2-java",
    frame: "actions",
    cmd: "mvn -B test",
    run: "mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo test; rc=$?; cp -r target/surefire-reports REPORT; exit $rc",
    truth: "surefireDir",
  },
  {
    id: "hold2-mvn-jenkins",
    proj: "hold2-java",
    frame: "jenkins",
    cmd: "mvn -B test",
    run: "mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo test; rc=$?; cp -r target/surefire-reports REPORT; exit $rc",
    truth: "surefireDir",
  },
  // ---- held out, third set: a pantry library (unit conversion, recipe scaling) written in a later session,
  // before its author read the parsers: unicode and brackets in names, tests in nested directories, snapshot
  // and inline-snapshot failures, timeouts, failing hooks (beforeEach, before(:context), setUp, tearDown,
  // @BeforeAll, @AfterEach, t.Cleanup, setUpClass), an uncaught error between mocha tests, a thrown string,
  // very long messages, a data race, doc-tests, a Result-returning Rust test, sharded vitest, xdist, green
  // logs that print FAIL/Error; scored once with `--prefix hold3-`.
  {
    id: "hold3-jest-actions",
    proj: "hold3-js",
    frame: "actions",
    cmd: "npx jest --ci",
    run: "npx jest --ci --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold3-jest-green-verbose-gitlab",
    proj: "hold3-js",
    frame: "gitlab",
    cmd: "npx jest --ci --verbose spec/jest/green.spec.js",
    run: "npx jest --ci --verbose spec/jest/green.spec.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold3-vitest-jenkins",
    proj: "hold3-js",
    frame: "jenkins",
    cmd: "npx vitest run",
    run: "npx vitest run --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold3-vitest-shard2-actions",
    proj: "hold3-js",
    frame: "actions",
    color: true,
    cmd: "npx vitest run --shard=2/2",
    run: "npx vitest run --shard=2/2 --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold3-vitest-green-verbose-plain",
    proj: "hold3-js",
    frame: "plain",
    cmd: "npx vitest run --reporter=verbose spec/vitest/green.test.js",
    run: "npx vitest run spec/vitest/green.test.js --reporter=verbose --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold3-mocha-gitlab",
    proj: "hold3-js",
    frame: "gitlab",
    cmd: "npx mocha spec/mocha",
    run: "npx mocha spec/mocha; TITLEPATH_OUT=REPORT node_modules/.bin/mocha spec/mocha --reporter ./spec-tools/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "hold3-node-spec-actions",
    proj: "hold3-js",
    frame: "actions",
    cmd: "node --test spec/node/",
    run: "node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT spec/node/",
    truth: "nodeJunit",
  },
  {
    id: "hold3-node-tap-jenkins",
    proj: "hold3-js",
    frame: "jenkins",
    cmd: "node --test --test-reporter=tap spec/node/",
    run: "node --test --test-reporter=tap --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT spec/node/",
    truth: "nodeJunit",
  },
  {
    id: "hold3-playwright-list-gitlab",
    proj: "hold3-js",
    frame: "gitlab",
    cmd: "npx playwright test",
    run: "PLAYWRIGHT_JSON_OUTPUT_NAME=REPORT npx playwright test --reporter=list,json",
    truth: "playwrightJson",
  },
  {
    id: "hold3-playwright-junit-xml",
    proj: "hold3-js",
    frame: "xml",
    cmd: "npx playwright test --reporter=junit",
    run: "PLAYWRIGHT_JUNIT_OUTPUT_NAME=LOGFILE PLAYWRIGHT_JSON_OUTPUT_NAME=REPORT npx playwright test --reporter=junit,json",
    truth: "playwrightJson",
  },
  {
    id: "hold3-pytest-xdist-actions",
    proj: "hold3-py",
    frame: "actions",
    cmd: "pytest -n 2",
    run: "python3 -m pytest -p no:cacheprovider -n 2 --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold3-pytest-v-ra-jenkins",
    proj: "hold3-py",
    frame: "jenkins",
    cmd: "pytest -v -rA",
    run: "python3 -m pytest -p no:cacheprovider -v -rA --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold3-pytest-green-ra-gitlab",
    proj: "hold3-py",
    frame: "gitlab",
    cmd: "pytest -rA tests/test_green.py",
    run: "python3 -m pytest -p no:cacheprovider -rA tests/test_green.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold3-pytest-junit-xml",
    proj: "hold3-py",
    frame: "xml",
    cmd: "pytest --junitxml=report.xml",
    run: "python3 -m pytest -p no:cacheprovider --junitxml=REPORT; cp REPORT LOGFILE",
    truth: "pytestJunit",
  },
  {
    id: "hold3-unittest-plain",
    proj: "hold3-py",
    frame: "plain",
    cmd: "python -m unittest discover -v",
    run: "python3 -m unittest discover -v; python3 spec_tools/unittest_report.py REPORT",
    truth: "unittestJson",
    twoRuns: true,
  },
  {
    id: "hold3-go-race-gitlab",
    proj: "hold3-go",
    frame: "gitlab",
    cmd: "go test -race ./...",
    run: "go test -race ./...; go test -race -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold3-go-json-actions",
    proj: "hold3-go",
    frame: "actions",
    cmd: "go test -json ./...",
    run: "go test -json ./... | tee REPORT",
    truth: "goJson",
  },
  {
    id: "hold3-go-v-jenkins",
    proj: "hold3-go",
    frame: "jenkins",
    cmd: "go test -v ./...",
    run: "go test -v ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold3-go-green-v-plain",
    proj: "hold3-go",
    frame: "plain",
    cmd: "go test -v -run 'TestNoisyButGreen|TestScaleDouble' ./...",
    run: "go test -v -run 'TestNoisyButGreen|TestScaleDouble' ./...; go test -json -run 'TestNoisyButGreen|TestScaleDouble' ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold3-cargo-actions",
    proj: "hold3-rust",
    frame: "actions",
    env: { RUST_BACKTRACE: "1" },
    cmd: "cargo test --no-fail-fast",
    run: "cargo test --offline --no-fail-fast; RUSTC_BOOTSTRAP=1 cargo test --offline --no-fail-fast -- -Z unstable-options --format json > REPORT",
    truth: "libtestJson",
    twoRuns: true,
  },
  {
    id: "hold3-cargo-gitlab",
    proj: "hold3-rust",
    frame: "gitlab",
    env: { RUST_BACKTRACE: "0" },
    cmd: "cargo test",
    run: "cargo test --offline; RUSTC_BOOTSTRAP=1 cargo test --offline -- -Z unstable-options --format json > REPORT",
    truth: "libtestJson",
    twoRuns: true,
  },
  {
    id: "hold3-rspec-doc-actions",
    proj: "hold3-rb",
    frame: "actions",
    cmd: "bundle exec rspec --format documentation",
    run: "rspec --format documentation --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold3-rspec-progress-jenkins",
    proj: "hold3-rb",
    frame: "jenkins",
    cmd: "bundle exec rspec",
    run: "rspec --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold3-rspec-green-gitlab",
    proj: "hold3-rb",
    frame: "gitlab",
    cmd: "bundle exec rspec spec/green_spec.rb",
    run: "rspec spec/green_spec.rb --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold3-phpunit-actions",
    proj: "hold3-php",
    frame: "actions",
    cmd: "vendor/bin/phpunit",
    run: "phpunit --log-junit REPORT",
    truth: "phpunitJunit",
  },
  {
    id: "hold3-phpunit-testdox-plain",
    proj: "hold3-php",
    frame: "plain",
    cmd: "vendor/bin/phpunit --testdox",
    run: "phpunit --testdox --log-junit REPORT",
    truth: "phpunitJunit",
  },
  {
    id: "hold3-phpunit-green-jenkins",
    proj: "hold3-php",
    frame: "jenkins",
    cmd: "vendor/bin/phpunit tests/GreenTest.php",
    run: "phpunit tests/GreenTest.php --log-junit REPORT",
    truth: "phpunitJunit",
  },
  {
    id: "hold3-mvn-actions",
    proj: "hold3-java",
    frame: "actions",
    cmd: "mvn -B test",
    run: "mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo test; rc=$?; cp -r target/surefire-reports REPORT; exit $rc",
    truth: "surefireDir",
  },
  {
    id: "hold3-mvn-color-gitlab",
    proj: "hold3-java",
    frame: "gitlab",
    color: true,
    cmd: "mvn test",
    run: "mvn -o -Dmaven.repo.local=/usr/share/maven-repo -Dstyle.color=always test; rc=$?; cp -r target/surefire-reports REPORT; exit $rc",
    truth: "surefireDir",
  },
  {
    id: "hold3-surefire-xml",
    proj: "hold3-java",
    frame: "xml",
    cmd: "mvn test (target/surefire-reports/TEST-org.pantry.units.ConvertTest.xml)",
    run: "mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo test; mkdir REPORT; cp target/surefire-reports/TEST-org.pantry.units.ConvertTest.xml REPORT/; cp REPORT/TEST-org.pantry.units.ConvertTest.xml LOGFILE",
    truth: "surefireDir",
  },
  // Gradle (Debian's gradle 4.4, JUnit 4 from Debian's Maven repository, offline); the answer from its XML reports.
  {
    id: "hold3-gradle-actions",
    proj: "hold3-gradle",
    frame: "actions",
    cmd: "gradle test",
    run: "gradle --offline --no-daemon test; rc=$?; cp -r build/test-results/test REPORT; exit $rc",
    truth: "surefireDir",
  },
  {
    id: "hold3-gradle-fulllog-jenkins",
    proj: "hold3-gradle",
    frame: "jenkins",
    cmd: "gradle test -PfullLog",
    run: "gradle --offline --no-daemon test -PfullLog; rc=$?; cp -r build/test-results/test REPORT; exit $rc",
    truth: "surefireDir",
  },
  // hold4-*: a fifth held-out set (projects/hold4-*, a text-templating library), written by a helper that had
  // not read the parsers: deep paths with spaces, 4-level describes, parametrised ids with quotes, slashes,
  // escaped newlines and emoji, tests named like summary lines, messages holding stack-like lines, timeouts,
  // retried flaky tests (jest, vitest, mocha, Playwright, Surefire rerunFailingTestsCount) that pass on retry,
  // class- and module-level fixture errors, strict xpass, go helpers' t.Fatal and a panic in a goroutine,
  // cargo should_panic, RSpec shared examples and aggregate_failures, PHPUnit named data sets, a multi-module
  // Gradle build, JUnit XML from vitest, pytest, cargo, PHPUnit and Surefire, and green logs that print
  // failure words; scored once with `--prefix hold4-`.
  {
    id: "hold4-jest-actions",
    proj: "hold4-js",
    frame: "actions",
    cmd: "npx jest --ci spec/jest/deep",
    run: "npx jest --ci spec/jest/deep --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold4-jest-verbose-plain",
    proj: "hold4-js",
    frame: "plain",
    cmd: "npx jest --ci --verbose spec/jest/deep",
    run: "npx jest --ci --verbose spec/jest/deep --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold4-jest-green-gitlab",
    proj: "hold4-js",
    frame: "gitlab",
    cmd: "npx jest --ci spec/jest/green.test.js",
    run: "npx jest --ci spec/jest/green.test.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold4-vitest-verbose-jenkins",
    proj: "hold4-js",
    frame: "jenkins",
    cmd: "npx vitest run --reporter=verbose spec/vitest/loops.test.js",
    run: "npx vitest run spec/vitest/loops.test.js --reporter=verbose --reporter=json --outputFile.json=REPORT --reporter=junit --outputFile.junit=REPORT.junit.xml",
    truth: "vitestJson",
  },
  {
    id: "hold4-vitest-color-actions",
    proj: "hold4-js",
    frame: "actions",
    color: true,
    cmd: "npx vitest run",
    run: "npx vitest run --reporter=default --reporter=json --outputFile.json=REPORT --reporter=junit --outputFile.junit=REPORT.junit.xml",
    truth: "vitestJson",
  },
  {
    id: "hold4-vitest-junit-xml",
    proj: "hold4-js",
    frame: "xml",
    cmd: "npx vitest run --reporter=junit --outputFile=junit.xml",
    run: "npx vitest run --reporter=junit --outputFile.junit=LOGFILE --reporter=json --outputFile.json=REPORT; cp LOGFILE REPORT.junit.xml",
    truth: "vitestJson",
  },
  {
    id: "hold4-vitest-green-plain",
    proj: "hold4-js",
    frame: "plain",
    cmd: "npx vitest run spec/vitest/green.test.js",
    run: "npx vitest run spec/vitest/green.test.js --reporter=default --reporter=json --outputFile.json=REPORT --reporter=junit --outputFile.junit=REPORT.junit.xml",
    truth: "vitestJson",
  },
  {
    id: "hold4-mocha-gitlab",
    proj: "hold4-js",
    frame: "gitlab",
    cmd: "npx mocha spec/mocha",
    run: "npx mocha spec/mocha; TITLEPATH_OUT=REPORT node_modules/.bin/mocha spec/mocha --reporter ./spec-tools/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "hold4-node-spec-actions",
    proj: "hold4-js",
    frame: "actions",
    cmd: "node --test spec/node/",
    run: "node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT spec/node/",
    truth: "nodeJunit",
  },
  {
    id: "hold4-node-tap-jenkins",
    proj: "hold4-js",
    frame: "jenkins",
    cmd: "node --test --test-reporter=tap spec/node/",
    run: "node --test --test-reporter=tap --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT spec/node/",
    truth: "nodeJunit",
  },
  {
    id: "hold4-playwright-list-jenkins",
    proj: "hold4-js",
    frame: "jenkins",
    cmd: "npx playwright test",
    run: "PLAYWRIGHT_JSON_OUTPUT_NAME=REPORT npx playwright test --reporter=list,json",
    truth: "playwrightJson",
  },
  {
    id: "hold4-playwright-line-actions",
    proj: "hold4-js",
    frame: "actions",
    cmd: "npx playwright test --reporter=line",
    run: "PLAYWRIGHT_JSON_OUTPUT_NAME=REPORT npx playwright test --reporter=line,json",
    truth: "playwrightJson",
  },
  {
    id: "hold4-pytest-actions",
    proj: "hold4-py",
    frame: "actions",
    cmd: "pytest",
    run: "python3 -m pytest -p no:cacheprovider --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold4-pytest-xdist-v-gitlab",
    proj: "hold4-py",
    frame: "gitlab",
    cmd: "pytest -n 2 -v",
    run: "python3 -m pytest -p no:cacheprovider -n 2 -v --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold4-pytest-q-ra-jenkins",
    proj: "hold4-py",
    frame: "jenkins",
    cmd: "pytest -q -rA",
    run: "python3 -m pytest -p no:cacheprovider -q -rA --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold4-pytest-green-ra-plain",
    proj: "hold4-py",
    frame: "plain",
    cmd: "pytest -rA tests/test_green.py",
    run: "python3 -m pytest -p no:cacheprovider -rA tests/test_green.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold4-pytest-junit-xml",
    proj: "hold4-py",
    frame: "xml",
    cmd: "pytest --junitxml=report.xml",
    run: "python3 -m pytest -p no:cacheprovider --junitxml=REPORT; cp REPORT LOGFILE",
    truth: "pytestJunit",
  },
  {
    id: "hold4-go-v-actions",
    proj: "hold4-go",
    frame: "actions",
    cmd: "go test -v ./...",
    run: "go test -v ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold4-go-json-jenkins",
    proj: "hold4-go",
    frame: "jenkins",
    cmd: "go test -json ./...",
    run: "go test -json ./... > REPORT; rc=$?; cat REPORT; exit $rc",
    truth: "goJson",
  },
  {
    id: "hold4-go-gitlab",
    proj: "hold4-go",
    frame: "gitlab",
    cmd: "go test ./...",
    run: "go test ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold4-go-green-v-plain",
    proj: "hold4-go",
    frame: "plain",
    cmd: "go test -v -run 'TestGreenNoisy|TestPASSWithFailWordsInLog' ./tmpl",
    run: "go test -v -run 'TestGreenNoisy|TestPASSWithFailWordsInLog' ./tmpl; go test -json -run 'TestGreenNoisy|TestPASSWithFailWordsInLog' ./tmpl > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold4-cargo-actions",
    proj: "hold4-rust",
    frame: "actions",
    env: { RUST_BACKTRACE: "1" },
    cmd: "cargo test --no-fail-fast",
    run: "cargo test --offline --no-fail-fast; RUSTC_BOOTSTRAP=1 cargo test --offline --no-fail-fast -- -Z unstable-options --format json > REPORT",
    truth: "libtestJson",
    twoRuns: true,
  },
  {
    id: "hold4-cargo-junit-xml",
    proj: "hold4-rust",
    frame: "xml",
    env: { RUST_BACKTRACE: "0" },
    cmd: "cargo test --lib -- -Z unstable-options --format junit > junit.xml",
    run: "RUSTC_BOOTSTRAP=1 cargo test --offline --lib -- -Z unstable-options --format junit > LOGFILE; RUSTC_BOOTSTRAP=1 cargo test --offline --lib -- -Z unstable-options --format json > REPORT",
    truth: "libtestJson",
  },
  {
    id: "hold4-rspec-doc-gitlab",
    proj: "hold4-rb",
    frame: "gitlab",
    cmd: "bundle exec rspec --format documentation",
    run: "rspec --format documentation --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold4-rspec-progress-actions",
    proj: "hold4-rb",
    frame: "actions",
    cmd: "bundle exec rspec",
    run: "rspec --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold4-rspec-green-jenkins",
    proj: "hold4-rb",
    frame: "jenkins",
    cmd: "bundle exec rspec spec/green_spec.rb",
    run: "rspec spec/green_spec.rb --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold4-phpunit-jenkins",
    proj: "hold4-php",
    frame: "jenkins",
    cmd: "vendor/bin/phpunit",
    run: "phpunit --log-junit REPORT",
    truth: "phpunitJunit",
  },
  {
    id: "hold4-phpunit-testdox-actions",
    proj: "hold4-php",
    frame: "actions",
    cmd: "vendor/bin/phpunit --testdox",
    run: "phpunit --testdox --log-junit REPORT",
    truth: "phpunitJunit",
  },
  {
    id: "hold4-phpunit-junit-xml",
    proj: "hold4-php",
    frame: "xml",
    cmd: "vendor/bin/phpunit --log-junit junit.xml",
    run: "phpunit --log-junit REPORT; cp REPORT LOGFILE",
    truth: "phpunitJunit",
  },
  {
    id: "hold4-mvn-actions",
    proj: "hold4-java",
    frame: "actions",
    cmd: "mvn -B test",
    run: "mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo test; rc=$?; cp -r target/surefire-reports REPORT; exit $rc",
    truth: "surefireDir",
  },
  {
    id: "hold4-mvn-green-gitlab",
    proj: "hold4-java",
    frame: "gitlab",
    cmd: "mvn -B test -Dtest=GreenTest",
    run: "mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo test -Dtest=GreenTest; rc=$?; cp -r target/surefire-reports REPORT; exit $rc",
    truth: "surefireDir",
  },
  {
    id: "hold4-surefire-xml",
    proj: "hold4-java",
    frame: "xml",
    cmd: "mvn test (target/surefire-reports/TEST-org.stencil.RenderTest.xml)",
    run: "mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo test; mkdir REPORT; cp target/surefire-reports/TEST-org.stencil.RenderTest.xml REPORT/; cp REPORT/TEST-org.stencil.RenderTest.xml LOGFILE",
    truth: "surefireDir",
  },
  {
    id: "hold4-gradle-jenkins",
    proj: "hold4-gradle",
    frame: "jenkins",
    cmd: "gradle test --continue",
    run: "gradle --offline --no-daemon test --continue; rc=$?; mkdir REPORT; cp core/build/test-results/test/*.xml web/build/test-results/test/*.xml REPORT/; exit $rc",
    truth: "surefireDir",
  },
  // hold13-*: a fourteenth held-out set (issue 10), generated half (projects/hold13-*, a harbour tide-table
  // library), written by a helper that had not read the parsers: jest and vitest projects (workspace labels) and
  // shards, retries that pass (jest retryTimes, mocha this.retries, Playwright retries) beside ones that do not,
  // failures only in hooks (jest beforeAll, vitest afterEach, mocha beforeEach, node:test before, pytest fixture,
  // unittest setUp, RSpec before, PHPUnit setUp, JUnit 5 @BeforeEach), pytest default / -v -rA / -vv / -n 2 / -s,
  // pytest 9 subtests, unittest subTest with parameters, go -race and -json, compile errors with no test id (go,
  // cargo), Playwright list/line/JUnit with Debian's Chromium and test.step, Surefire 3 console, Gradle 4 console,
  // CTest's JUnit XML whose only message is in system-out, ANSI colours, CRLF, a log cut short, very long lines,
  // non-ASCII names, two runners in one Actions job, and green logs that print FAIL/Error:/failed/panic words.
  {
    id: "hold13-jest-projects-actions",
    proj: "hold13-js",
    frame: "actions",
    cmd: "npx jest --ci -c jest.projects.config.js",
    run: "npx jest --ci -c jest.projects.config.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold13-jest-shard2-gitlab",
    proj: "hold13-js",
    frame: "gitlab",
    cmd: "npx jest --ci --shard=2/2 spec/jest/unit spec/jest/integration",
    run: "npx jest --ci --shard=2/2 spec/jest/unit spec/jest/integration --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold13-jest-green-noisy-plain",
    proj: "hold13-js",
    frame: "plain",
    cmd: "npx jest --ci spec/jest/green",
    run: "npx jest --ci spec/jest/green --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold13-vitest-projects-color-actions",
    proj: "hold13-js",
    frame: "actions",
    color: true,
    env: { NO_COLOR: null },
    cmd: "npx vitest run --config vitest.projects.config.mjs",
    run: "npx vitest run --config vitest.projects.config.mjs --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold13-vitest-shard1-jenkins",
    proj: "hold13-js",
    frame: "jenkins",
    cmd: "npx vitest run --shard=1/2",
    run: "npx vitest run --shard=1/2 --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold13-vitest-green-noisy-gitlab",
    proj: "hold13-js",
    frame: "gitlab",
    cmd: "npx vitest run spec/vitest/green",
    run: "npx vitest run spec/vitest/green --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold13-mocha-retries-hook-actions",
    proj: "hold13-js",
    frame: "actions",
    cmd: "npx mocha spec/mocha",
    run: "npx mocha spec/mocha; TITLEPATH_OUT=REPORT node_modules/.bin/mocha spec/mocha --reporter ./spec-tools/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "hold13-node-spec-hook-jenkins",
    proj: "hold13-js",
    frame: "jenkins",
    cmd: "node --test --test-reporter=spec spec/node/harbor.test.mjs",
    run: "node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT spec/node/harbor.test.mjs",
    truth: "nodeJunit",
  },
  {
    id: "hold13-node-green-tap-plain",
    proj: "hold13-js",
    frame: "plain",
    cmd: "node --test --test-reporter=tap spec/node/green.test.mjs",
    run: "node --test --test-reporter=tap --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT spec/node/green.test.mjs",
    truth: "nodeJunit",
  },
  {
    id: "hold13-playwright-list-retries-actions",
    proj: "hold13-js",
    frame: "actions",
    cmd: "npx playwright test spec/pw/board.spec.js",
    run: "PLAYWRIGHT_JSON_OUTPUT_NAME=REPORT npx playwright test spec/pw/board.spec.js --reporter=list,json",
    truth: "playwrightJson",
  },
  {
    id: "hold13-playwright-line-gitlab",
    proj: "hold13-js",
    frame: "gitlab",
    cmd: "npx playwright test --reporter=line",
    run: "PLAYWRIGHT_JSON_OUTPUT_NAME=REPORT npx playwright test --reporter=line,json",
    truth: "playwrightJson",
  },
  {
    id: "hold13-playwright-junit-xml",
    proj: "hold13-js",
    frame: "xml",
    cmd: "npx playwright test --reporter=junit",
    run: "PLAYWRIGHT_JUNIT_OUTPUT_NAME=LOGFILE PLAYWRIGHT_JSON_OUTPUT_NAME=REPORT npx playwright test --reporter=junit,json",
    truth: "playwrightJson",
  },
  {
    id: "hold13-playwright-green-jenkins",
    proj: "hold13-js",
    frame: "jenkins",
    cmd: "npx playwright test spec/pw/green.spec.js",
    run: "PLAYWRIGHT_JSON_OUTPUT_NAME=REPORT npx playwright test spec/pw/green.spec.js --reporter=list,json",
    truth: "playwrightJson",
  },
  {
    id: "hold13-pytest-crlf-plain",
    proj: "hold13-py",
    frame: "plain",
    crlf: true,
    cmd: "pytest tests/unit",
    run: "python3 -m pytest -p no:cacheprovider tests/unit --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold13-pytest-v-ra-gitlab",
    proj: "hold13-py",
    frame: "gitlab",
    cmd: "pytest -v -rA",
    run: "python3 -m pytest -p no:cacheprovider -v -rA --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold13-pytest-xdist-jenkins",
    proj: "hold13-py",
    frame: "jenkins",
    cmd: "pytest -n 2 tests/unit tests/integration",
    run: "python3 -m pytest -p no:cacheprovider -n 2 tests/unit tests/integration --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold13-pytest-vv-long-lines-actions",
    proj: "hold13-py",
    frame: "actions",
    color: true,
    cmd: "pytest -vv --color=yes tests/unit/test_tides.py",
    run: "python3 -m pytest -p no:cacheprovider -vv --color=yes tests/unit/test_tides.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold13-pytest-v-cut-short-actions",
    proj: "hold13-py",
    frame: "actions",
    truncateAfterLines: 40,
    handExpected: true,
    cmd: "pytest -v tests/integration tests/unit",
    run: "python3 -m pytest -p no:cacheprovider -v tests/integration tests/unit --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold13-pytest-green-noisy-s-gitlab",
    proj: "hold13-py",
    frame: "gitlab",
    cmd: "pytest -s -rA tests/test_green_noisy.py",
    run: "python3 -m pytest -p no:cacheprovider -s -rA tests/test_green_noisy.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold13-unittest-subtests-plain",
    proj: "hold13-py",
    frame: "plain",
    cmd: "python -m unittest tests.test_unittest_style -v",
    run: "python3 -m unittest tests.test_unittest_style -v; python3 spec_tools/unittest_report.py REPORT tests.test_unittest_style",
    truth: "unittestJson",
    twoRuns: true,
  },
  {
    id: "hold13-go-race-gitlab",
    proj: "hold13-go",
    frame: "gitlab",
    cmd: "go test -race ./...",
    run: "go test -race ./...; go test -race -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold13-go-json-actions",
    proj: "hold13-go",
    frame: "actions",
    cmd: "go test -json ./tide/ ./quay/",
    run: "go test -json ./tide/ ./quay/ | tee REPORT",
    truth: "goJson",
  },
  {
    id: "hold13-go-green-v-noisy-plain",
    proj: "hold13-go",
    frame: "plain",
    cmd: "go test -v ./quay/",
    run: "go test -v ./quay/; go test -json ./quay/ > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold13-go-build-failed-jenkins",
    proj: "hold13-go-broken",
    frame: "jenkins",
    handExpected: true,
    cmd: "go test ./...",
    run: "go test ./...",
    truth: "goJson",
  },
  {
    id: "hold13-cargo-nofailfast-actions",
    proj: "hold13-rust",
    frame: "actions",
    env: { RUST_BACKTRACE: "0" },
    cmd: "cargo test --no-fail-fast",
    run: "cargo test --offline --no-fail-fast; RUSTC_BOOTSTRAP=1 cargo test --offline --no-fail-fast -- -Z unstable-options --format json > REPORT",
    truth: "libtestJson",
    twoRuns: true,
  },
  {
    id: "hold13-cargo-compile-error-gitlab",
    proj: "hold13-rust-broken",
    frame: "gitlab",
    handExpected: true,
    cmd: "cargo test",
    run: "cargo test --offline",
    truth: "libtestJson",
  },
  {
    id: "hold13-rspec-progress-color-actions",
    proj: "hold13-rb",
    frame: "actions",
    color: true,
    cmd: "bundle exec rspec --force-color",
    run: "rspec --force-color --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold13-rspec-green-noisy-jenkins",
    proj: "hold13-rb",
    frame: "jenkins",
    cmd: "bundle exec rspec spec/harbor/green_spec.rb",
    run: "rspec spec/harbor/green_spec.rb --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold13-phpunit-gitlab",
    proj: "hold13-php",
    frame: "gitlab",
    cmd: "vendor/bin/phpunit",
    run: "phpunit --log-junit REPORT",
    truth: "phpunitJunit",
  },
  {
    id: "hold13-phpunit-green-noisy-actions",
    proj: "hold13-php",
    frame: "actions",
    cmd: "vendor/bin/phpunit --bootstrap tests/bootstrap.php tests/Green",
    run: "phpunit --bootstrap tests/bootstrap.php tests/Green --log-junit REPORT",
    truth: "phpunitJunit",
  },
  {
    id: "hold13-mvn-surefire3-actions",
    proj: "hold13-java",
    frame: "actions",
    dropLines: /^\[WARNING\] The POM for .* is missing, no dependency information available\n/gm,
    cmd: "mvn -B test",
    run: "mvn -o -B test; rc=$?; cp -r target/surefire-reports REPORT; exit $rc",
    truth: "surefireDir",
  },
  {
    id: "hold13-gradle-jenkins",
    proj: "hold13-gradle",
    frame: "jenkins",
    cmd: "gradle test",
    run: "gradle --offline --no-daemon test; rc=$?; cp -r build/test-results/test REPORT; exit $rc",
    truth: "surefireDir",
  },
  {
    id: "hold13-ctest-junit-system-out-xml",
    proj: "hold13-ctest",
    frame: "xml",
    handExpected: true,
    cmd: "ctest --output-junit junit.xml (build/junit.xml)",
    run: "cmake -S . -B build >/dev/null && cmake --build build >/dev/null && cd build && ctest --output-junit LOGFILE",
    truth: "ctestJunit",
  },
  {
    id: "hold13-two-runners-jest-pytest-actions",
    steps: [
      {
        proj: "hold13-js",
        cmd: "npx jest --ci spec/jest/unit",
        run: "npx jest --ci spec/jest/unit --json --outputFile=REPORT",
        truth: "jestJson",
        continueOnError: true,
      },
      {
        proj: "hold13-py",
        cmd: "pytest tests/integration",
        run: "python3 -m pytest -p no:cacheprovider tests/integration --junitxml=REPORT",
        truth: "pytestJunit",
      },
    ],
  },
  // hold14-*: a fifteenth held-out set (issue 10), generated part (projects/hold14-*, an orchard harvest library),
  // written by a helper that had not read the parsers: jest describe.each with %o titles and an async rejection,
  // a test printing a jest FAIL line; mocha beforeEach failure; node:test describe/it beside test()/t.test()
  // subtests; pytest -rA with a parametrised boundary, a fixture error and xfail; go -v subtests with spaces and a
  // recovered panic turned into a skip; cargo with nested modules, a doc-test, should_panic and a test returning
  // Err; RSpec documentation format with a pending example; PHPUnit named data sets; green runs (vitest, unittest,
  // go -json) that print FAIL/Error:/ERROR:/--- FAIL words.
  {
    id: "hold14-jest-each-async-jenkins",
    proj: "hold14-js",
    frame: "jenkins",
    cmd: "npx jest --ci",
    run: "npx jest --ci --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold14-vitest-green-noisy-actions",
    proj: "hold14-js",
    frame: "actions",
    cmd: "npx vitest run",
    run: "npx vitest run --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold14-mocha-hook-gitlab",
    proj: "hold14-js",
    frame: "gitlab",
    cmd: "npx mocha spec/mocha",
    run: "npx mocha spec/mocha; TITLEPATH_OUT=REPORT node_modules/.bin/mocha spec/mocha --reporter ./spec-tools/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "hold14-node-spec-subtests-actions",
    proj: "hold14-js",
    frame: "actions",
    cmd: "node --test spec/node/",
    run: "node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT spec/node/orchard.test.mjs",
    truth: "nodeJunit",
  },
  {
    id: "hold14-pytest-ra-fixture-jenkins",
    proj: "hold14-py",
    frame: "jenkins",
    cmd: "pytest -rA tests/grading",
    run: "python3 -m pytest -p no:cacheprovider -rA tests/grading --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold14-unittest-green-noisy-gitlab",
    proj: "hold14-py",
    frame: "gitlab",
    cmd: "python -m unittest -v tests.test_green_unittest",
    run: "python3 -m unittest -v tests.test_green_unittest; python3 spec_tools/unittest_report.py REPORT tests.test_green_unittest",
    truth: "unittestJson",
    twoRuns: true,
  },
  {
    id: "hold14-pytest-green-ra-unittest-style-actions",
    proj: "hold14-py",
    frame: "actions",
    cmd: "pytest -rA tests/test_green_unittest.py",
    run: "python3 -m pytest -p no:cacheprovider -rA tests/test_green_unittest.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold14-go-v-subtests-gitlab",
    proj: "hold14-go",
    frame: "gitlab",
    cmd: "go test -v ./...",
    run: "go test -v ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold14-go-green-json-plain",
    proj: "hold14-go",
    frame: "plain",
    cmd: "go test -json ./rows/",
    run: "go test -json ./rows/ | tee REPORT",
    truth: "goJson",
  },
  {
    id: "hold14-cargo-doctest-err-actions",
    proj: "hold14-rust",
    frame: "actions",
    env: { RUST_BACKTRACE: "0" },
    cmd: "cargo test --no-fail-fast",
    run: "cargo test --offline --no-fail-fast; RUSTC_BOOTSTRAP=1 cargo test --offline --no-fail-fast -- -Z unstable-options --format json > REPORT",
    truth: "libtestJson",
    twoRuns: true,
  },
  {
    id: "hold14-rspec-doc-pending-gitlab",
    proj: "hold14-rb",
    frame: "gitlab",
    cmd: "bundle exec rspec --format documentation",
    run: "rspec --format documentation --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold14-phpunit-named-sets-jenkins",
    proj: "hold14-php",
    frame: "jenkins",
    cmd: "vendor/bin/phpunit",
    run: "phpunit --log-junit REPORT",
    truth: "phpunitJunit",
  },
  // hold15-*: a sixteenth held-out set (issue 10), generated part (projects/hold15-*, an apiary library), written by
  // a helper that had not read the parsers: jest test.each with %j titles, a rejected promise awaited without
  // expect, a thrown TypeError; vitest it.each with $-titles and toMatchObject on a string; node:test TAP with
  // describe/it and t.test() subtests; pytest -v with a fixture error at setup, parametrised float equality, xfail,
  // skip; go -v table subtests with spaces; RSpec progress with a nested context, a compound matcher; green runs
  // (jest, mocha, pytest, go) whose tests print FAIL / AssertionError / FAILED / E lines / panic: words.
  {
    id: "hold15-jest-each-reject-gitlab",
    proj: "hold15-js",
    frame: "gitlab",
    cmd: "npx jest --ci spec/jest/hives/yield.spec.js",
    run: "npx jest --ci spec/jest/hives/yield.spec.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold15-jest-green-fail-line-jenkins",
    proj: "hold15-js",
    frame: "jenkins",
    cmd: "npx jest --ci spec/jest/hives/label.spec.js",
    run: "npx jest --ci spec/jest/hives/label.spec.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold15-vitest-each-actions",
    proj: "hold15-js",
    frame: "actions",
    cmd: "npx vitest run",
    run: "npx vitest run --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold15-mocha-green-noisy-plain",
    proj: "hold15-js",
    frame: "plain",
    cmd: "npx mocha spec/mocha",
    run: "npx mocha spec/mocha; TITLEPATH_OUT=REPORT node_modules/.bin/mocha spec/mocha --reporter ./spec-tools/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "hold15-node-tap-subtests-gitlab",
    proj: "hold15-js",
    frame: "gitlab",
    cmd: "node --test --test-reporter=tap spec/node/",
    run: "node --test --test-reporter=tap --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT spec/node/apiary.test.mjs",
    truth: "nodeJunit",
  },
  {
    id: "hold15-pytest-v-setup-error-jenkins",
    proj: "hold15-py",
    frame: "jenkins",
    cmd: "pytest -v tests/hives",
    run: "python3 -m pytest -p no:cacheprovider -v tests/hives --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold15-pytest-green-noisy-actions",
    proj: "hold15-py",
    frame: "actions",
    cmd: "pytest -rA tests/test_green_noisy.py",
    run: "python3 -m pytest -p no:cacheprovider -rA tests/test_green_noisy.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold15-go-v-table-jenkins",
    proj: "hold15-go",
    frame: "jenkins",
    cmd: "go test -v ./...",
    run: "go test -v ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold15-go-green-log-words-gitlab",
    proj: "hold15-go",
    frame: "gitlab",
    cmd: "go test -v ./jars/",
    run: "go test -v ./jars/; go test -json ./jars/ > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold15-rspec-progress-context-actions",
    proj: "hold15-rb",
    frame: "actions",
    cmd: "bundle exec rspec",
    run: "rspec --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  // hold16-*: a seventeenth held-out set (issue 10), generated part (projects/hold16-*, a ferry timetable library),
  // written by a helper that had not read the parsers: jest test.each with %s/%i titles, a rejected async load, a
  // thrown RangeError message mismatch; vitest it.each with $-titles on undefined results and a toThrowError regex;
  // mocha nested describes after a before hook, a deepStrictEqual array diff and an async rejection; pytest -v with a
  // fixture that opens a missing file (error at setup), parametrised rounding, an IndexError from a class test;
  // go -v table subtests with spaces, t.Fatal, and a panic that ends the package; RSpec documentation format;
  // green runs (jest, node:test spec, pytest -rA, go -v) whose tests print FAIL / Error: / not ok / --- FAIL: words.
  {
    id: "hold16-jest-each-async-actions",
    proj: "hold16-js",
    frame: "actions",
    cmd: "npx jest --ci spec/jest/routes/times.spec.js",
    run: "npx jest --ci spec/jest/routes/times.spec.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold16-jest-green-noisy-gitlab",
    proj: "hold16-js",
    frame: "gitlab",
    cmd: "npx jest --ci spec/jest/routes/fares.spec.js",
    run: "npx jest --ci spec/jest/routes/fares.spec.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold16-vitest-each-jenkins",
    proj: "hold16-js",
    frame: "jenkins",
    cmd: "npx vitest run spec/vitest/fares.test.js",
    run: "npx vitest run spec/vitest/fares.test.js --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold16-mocha-before-hook-gitlab",
    proj: "hold16-js",
    frame: "gitlab",
    cmd: "npx mocha spec/mocha",
    run: "npx mocha spec/mocha; TITLEPATH_OUT=REPORT node_modules/.bin/mocha spec/mocha --reporter ./spec-tools/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "hold16-node-spec-green-noisy-actions",
    proj: "hold16-js",
    frame: "actions",
    cmd: "node --test spec/node/",
    run: "node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT spec/node/ferry.test.mjs",
    truth: "nodeJunit",
  },
  {
    id: "hold16-pytest-v-setup-error-actions",
    proj: "hold16-py",
    frame: "actions",
    cmd: "pytest -v tests/routes",
    run: "python3 -m pytest -p no:cacheprovider -v tests/routes --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold16-pytest-green-ra-noisy-jenkins",
    proj: "hold16-py",
    frame: "jenkins",
    cmd: "pytest -rA tests/test_green_report.py",
    run: "python3 -m pytest -p no:cacheprovider -rA tests/test_green_report.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold16-go-v-panic-gitlab",
    proj: "hold16-go",
    frame: "gitlab",
    cmd: "go test -v ./...",
    run: "go test -v ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold16-go-green-logs-jenkins",
    proj: "hold16-go",
    frame: "jenkins",
    cmd: "go test -v ./berth/",
    run: "go test -v ./berth/; go test -json ./berth/ > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold16-rspec-doc-actions",
    proj: "hold16-rb",
    frame: "actions",
    cmd: "bundle exec rspec spec/ferry/manifest_spec.rb --format documentation",
    run: "rspec spec/ferry/manifest_spec.rb --format documentation --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold16-rspec-green-prints-failures-jenkins",
    proj: "hold16-rb",
    frame: "jenkins",
    cmd: "bundle exec rspec spec/ferry/green_spec.rb",
    run: "rspec spec/ferry/green_spec.rb --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold16-vitest-green-noisy-gitlab",
    proj: "hold16-js",
    frame: "gitlab",
    cmd: "npx vitest run spec/vitest/green-noisy.test.js",
    run: "npx vitest run spec/vitest/green-noisy.test.js --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  // hold17-*: an eighteenth held-out set (issue 10), generated part (projects/hold17-*, a lending library), written
  // by a helper that had not read the parsers: pytest parametrised fee rounding and a KeyError in a class test, a skip;
  // a green pytest -rA run printing FAILED / Error: / AssertionError lines; go -v table subtests with spaces and
  // t.Fatalf, a green package whose t.Log prints --- FAIL: and FAIL:; vitest describe + it.each $-titles with a thrown
  // Error, a skip; a green RSpec documentation run that prints Failure/Error: and a red count line.
  {
    id: "hold17-pytest-param-class-keyerror-actions",
    proj: "hold17-py",
    frame: "actions",
    cmd: "pytest tests/test_dues.py",
    run: "python3 -m pytest -p no:cacheprovider tests/test_dues.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold17-pytest-green-ra-noisy-gitlab",
    proj: "hold17-py",
    frame: "gitlab",
    cmd: "pytest -rA tests/test_green_noise.py",
    run: "python3 -m pytest -p no:cacheprovider -rA tests/test_green_noise.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold17-go-v-subtests-fatalf-jenkins",
    proj: "hold17-go",
    frame: "jenkins",
    cmd: "go test -v ./...",
    run: "go test -v ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold17-go-green-log-fail-words-actions",
    proj: "hold17-go",
    frame: "actions",
    cmd: "go test -v ./shelf/",
    run: "go test -v ./shelf/; go test -json ./shelf/ > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold17-vitest-each-throw-gitlab",
    proj: "hold17-js",
    frame: "gitlab",
    cmd: "npx vitest run spec/holds.test.js",
    run: "npx vitest run spec/holds.test.js --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold17-rspec-doc-green-noisy-jenkins",
    proj: "hold17-rb",
    frame: "jenkins",
    cmd: "bundle exec rspec spec/lending/catalog_spec.rb --format documentation",
    run: "rspec spec/lending/catalog_spec.rb --format documentation --format json --out REPORT",
    truth: "rspecJson",
  },
  // hold18-*: a nineteenth held-out set (issue 10), generated part (projects/hold18-*, a weather-station library),
  // written by a helper that had not read the parsers: pytest with a KeyError, a float sum, a fixture error at setup
  // and a skip; a green pytest run whose tests print FAILED / Error: / a red summary rule; go (not -v) with a failing
  // package beside a green one whose t.Log prints --- FAIL:; vitest nested describes with a reduce TypeError; a green
  // vitest run printing FAIL / Error: / a red Tests line; RSpec progress format with a NoMethodError and a pending.
  {
    id: "hold18-pytest-keyerror-fixture-error-actions",
    proj: "hold18-py",
    frame: "actions",
    cmd: "pytest tests/test_readings.py",
    run: "python3 -m pytest -p no:cacheprovider tests/test_readings.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold18-pytest-green-noisy-jenkins",
    proj: "hold18-py",
    frame: "jenkins",
    cmd: "pytest -q tests/test_green_log.py",
    run: "python3 -m pytest -p no:cacheprovider -q tests/test_green_log.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold18-go-two-packages-errorf-gitlab",
    proj: "hold18-go",
    frame: "gitlab",
    cmd: "go test ./...",
    run: "go test ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold18-vitest-nested-typeerror-actions",
    proj: "hold18-js",
    frame: "actions",
    cmd: "npx vitest run spec/wind.test.js",
    run: "npx vitest run spec/wind.test.js --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold18-vitest-green-noisy-jenkins",
    proj: "hold18-js",
    frame: "jenkins",
    cmd: "npx vitest run spec/green-noise.test.js",
    run: "npx vitest run spec/green-noise.test.js --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold18-rspec-progress-nomethod-pending-gitlab",
    proj: "hold18-rb",
    frame: "gitlab",
    cmd: "bundle exec rspec",
    run: "rspec spec/forecast_spec.rb --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  // hold19-*: a twentieth held-out set (issue 10), generated part (projects/hold19-*, a parking-fee library), written
  // by a helper that had not read the parsers: pytest parametrised ids, a KeyError and float sums; a green pytest run
  // printing FAILED / Error: / a summary-like rule; go -v with table subtests in one package beside a green one whose
  // t.Log prints --- FAIL: and FAIL lines; a green go -v run of that package alone; jest nested describes with a
  // reduce TypeError on an empty array and a rejects matcher on a resolved promise; a green jest run printing FAIL /
  // Error: / a Tests: line; RSpec documentation format with a NoMethodError on nil; a green RSpec run printing Failures:.
  {
    id: "hold19-pytest-param-keyerror-actions",
    proj: "hold19-py",
    frame: "actions",
    cmd: "python -m pytest tests/test_fees.py",
    run: "python3 -m pytest -p no:cacheprovider tests/test_fees.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold19-pytest-green-noisy-gitlab",
    proj: "hold19-py",
    frame: "gitlab",
    cmd: "pytest -rA tests/test_green_output.py",
    run: "python3 -m pytest -p no:cacheprovider -rA tests/test_green_output.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold19-go-verbose-subtests-jenkins",
    proj: "hold19-go",
    frame: "jenkins",
    cmd: "go test -v ./...",
    run: "go test -v ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold19-go-green-log-fail-lines-actions",
    proj: "hold19-go",
    frame: "actions",
    cmd: "go test -v ./plates/",
    run: "go test -v ./plates/; go test -json ./plates/ > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold19-jest-nested-reduce-rejects-gitlab",
    proj: "hold19-js",
    frame: "gitlab",
    cmd: "npx jest --ci spec/tickets.test.js",
    run: "npx jest --ci spec/tickets.test.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold19-jest-green-noisy-actions",
    proj: "hold19-js",
    frame: "actions",
    cmd: "npx jest --ci spec/green.test.js",
    run: "npx jest --ci spec/green.test.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold19-rspec-doc-nil-jenkins",
    proj: "hold19-rb",
    frame: "jenkins",
    cmd: "bundle exec rspec spec/garage_spec.rb --format documentation",
    run: "rspec spec/garage_spec.rb --format documentation --format json --out REPORT",
    truth: "rspecJson",
  },
  {
    id: "hold19-rspec-green-failures-text-gitlab",
    proj: "hold19-rb",
    frame: "gitlab",
    cmd: "bundle exec rspec spec/green_spec.rb",
    run: "rspec spec/green_spec.rb --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  // hold20-*: a twenty-first held-out set (issue 10), generated part (projects/hold20-*, a library-lending module),
  // written by a helper that had not read the parsers: pytest -n 2 (xdist) with a parametrised KeyError, a cap and a
  // class method; a green pytest -rA run printing FAILED / Error: / a summary-like rule; go -race with a data race
  // beside failing table subtests and a green package whose t.Log prints --- FAIL: / FAIL / panic: lines; that green
  // package alone; jest nested describes, test.each and a resolves matcher; vitest toStrictEqual; a green jest run
  // printing FAIL / Error: / Tests: / a bullet; RSpec progress format with subjects and a nil sum.
  {
    id: "hold20-pytest-xdist-keyerror-actions",
    proj: "hold20-py",
    frame: "actions",
    cmd: "python -m pytest -n 2 tests/test_loans.py",
    run: "python3 -m pytest -p no:cacheprovider -n 2 tests/test_loans.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold20-pytest-green-noisy-jenkins",
    proj: "hold20-py",
    frame: "jenkins",
    cmd: "pytest -rA tests/test_quiet.py",
    run: "python3 -m pytest -p no:cacheprovider -rA tests/test_quiet.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold20-go-race-subtests-gitlab",
    proj: "hold20-go",
    frame: "gitlab",
    cmd: "go test -race ./...",
    run: "go test -race ./...; go test -race -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold20-go-green-log-lines-actions",
    proj: "hold20-go",
    frame: "actions",
    cmd: "go test -v ./catalog/",
    run: "go test -v ./catalog/; go test -json ./catalog/ > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold20-jest-nested-each-resolves-jenkins",
    proj: "hold20-js",
    frame: "jenkins",
    cmd: "npx jest --ci spec/holds.test.js",
    run: "npx jest --ci spec/holds.test.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold20-vitest-strict-equal-actions",
    proj: "hold20-js",
    frame: "actions",
    cmd: "npx vitest run",
    run: "npx vitest run --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "vitestJson",
  },
  {
    id: "hold20-jest-green-noisy-gitlab",
    proj: "hold20-js",
    frame: "gitlab",
    cmd: "npx jest --ci spec/green.test.js",
    run: "npx jest --ci spec/green.test.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold20-rspec-progress-subjects-actions",
    proj: "hold20-rb",
    frame: "actions",
    cmd: "bundle exec rspec",
    run: "rspec spec/branch_spec.rb --format progress --format json --out REPORT",
    truth: "rspecJson",
  },
  // hold21-*: a twenty-second held-out set (issue 10), generated part (projects/hold21-*, a shipping-rates library),
  // written by a helper that had not read the parsers: two LARGE runs (pytest -v with ~3,100 parametrised cases and five
  // failures in the middle; go test -v ./... with ~1,600 subtests, one failing leaf, a plain failure and an index
  // panic in another package), a green pytest run printing FAILED / Error: / a summary-like rule, jest nested
  // describes with test.each and a toThrow on the wrong error, a green vitest run printing FAIL / Error: / a Tests
  // line with a skip, RSpec documentation format with a subject, a ZeroDivisionError and a pending example.
  {
    id: "hold21-pytest-large-verbose-actions",
    proj: "hold21-py",
    frame: "actions",
    cmd: "python -m pytest -v tests/test_rates.py",
    run: "python3 -m pytest -p no:cacheprovider -v tests/test_rates.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold21-pytest-green-noisy-gitlab",
    proj: "hold21-py",
    frame: "gitlab",
    cmd: "pytest -rA tests/test_green.py",
    run: "python3 -m pytest -p no:cacheprovider -rA tests/test_green.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold21-go-large-verbose-jenkins",
    proj: "hold21-go",
    frame: "jenkins",
    cmd: "go test -v ./...",
    run: "go test -v ./...; go test -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold21-jest-each-tothrow-actions",
    proj: "hold21-js",
    frame: "actions",
    cmd: "npx jest --ci spec/labels.test.js",
    run: "npx jest --ci spec/labels.test.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold21-vitest-green-noisy-jenkins",
    proj: "hold21-js",
    frame: "jenkins",
    cmd: "npx vitest run",
    run: "npx vitest run --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "vitestJson",
  },
  {
    id: "hold21-rspec-doc-zerodiv-gitlab",
    proj: "hold21-rb",
    frame: "gitlab",
    cmd: "bundle exec rspec --format documentation",
    run: "rspec spec/depot_spec.rb --format documentation --format json --out REPORT",
    truth: "rspecJson",
  },
  // hold22-*: a twenty-third held-out set (issue 10), generated part (projects/hold22-*, a ticket-booking library),
  // written by a helper that had not read the parsers: jest with retryTimes (a flaky test passing on its second
  // attempt, errors logged before each retry, a wrong price, a reduce TypeError on an empty array); a LARGE vitest
  // verbose run (~1,560 it.each seat labels, two failing in the middle, a wrong rounding); pytest -n 2 -v (xdist
  // workers interleaved: a LookupError, a KeyError, a float rounding); go test -race ./... (a data race and a failing
  // table subtest in two packages, a t.Log printing --- FAIL:); green jest, vitest, pytest and go -v runs printing FAIL /
  // Error: / Tests: / FAILED / panic: / summary-like lines (go and vitest with a skip).
  {
    id: "hold22-jest-retry-flaky-actions",
    proj: "hold22-js",
    frame: "actions",
    cmd: "npx jest --ci spec/booking.jest.test.js",
    run: "npx jest --ci spec/booking.jest.test.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold22-jest-green-noisy-jenkins",
    proj: "hold22-js",
    frame: "jenkins",
    cmd: "npx jest --ci spec/green.jest.test.js",
    run: "npx jest --ci spec/green.jest.test.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold22-vitest-large-verbose-gitlab",
    proj: "hold22-js",
    frame: "gitlab",
    cmd: "npx vitest run --reporter=verbose spec/large.vitest.test.js",
    run: "npx vitest run spec/large.vitest.test.js --reporter=verbose --reporter=json --outputFile.json=REPORT",
    truth: "vitestJson",
  },
  {
    id: "hold22-vitest-green-noisy-actions",
    proj: "hold22-js",
    frame: "actions",
    cmd: "npx vitest run spec/green.vitest.test.js",
    run: "npx vitest run spec/green.vitest.test.js --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "vitestJson",
  },
  {
    id: "hold22-go-green-verbose-skip-gitlab",
    proj: "hold22-go",
    frame: "gitlab",
    cmd: "go test -v ./venues/...",
    run: "go test -count=1 -v ./venues/...; go test -count=1 -json ./venues/... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold22-pytest-xdist-interleaved-actions",
    proj: "hold22-py",
    frame: "actions",
    cmd: "python -m pytest -n 2 -v tests/test_hall.py",
    run: "python3 -m pytest -p no:cacheprovider -n 2 -v tests/test_hall.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold22-pytest-green-noisy-gitlab",
    proj: "hold22-py",
    frame: "gitlab",
    cmd: "pytest -rA tests/test_green.py",
    run: "python3 -m pytest -p no:cacheprovider -rA tests/test_green.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold22-go-race-two-packages-jenkins",
    proj: "hold22-go",
    frame: "jenkins",
    cmd: "go test -race ./...",
    run: "go test -race -count=1 ./...; go test -race -count=1 -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  // hold23-*: a twenty-fourth held-out set (issue 10), generated part (projects/hold23-*, a library-lending model),
  // written by a helper that had not read the parsers: mocha with this.retries(2) (a flaky kiosk test passing on its
  // second attempt beside a test failing all three attempts); a LARGE pytest -v run (1,004 parametrised ids, failures
  // at the top of each hundred); two runners in one job (vitest then pytest, if: always()); go test -v with parallel
  // subtests and a t.Log printing --- FAIL:; RSpec with colour forced on every line; green jest and go -race runs
  // printing FAIL / Error: / Tests: lines.
  {
    id: "hold23-mocha-retries-flaky-jenkins",
    proj: "hold23-js",
    frame: "jenkins",
    cmd: "npx mocha spec/loans.mocha.spec.js",
    run: "npx mocha spec/loans.mocha.spec.js; TITLEPATH_OUT=REPORT node_modules/.bin/mocha spec/loans.mocha.spec.js --reporter ./mocha/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "hold23-pytest-large-verbose-gitlab",
    proj: "hold23-py",
    frame: "gitlab",
    cmd: "python -m pytest -v tests/test_catalog_large.py",
    run: "python3 -m pytest -p no:cacheprovider -v tests/test_catalog_large.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold23-vitest-then-pytest-two-runners-actions",
    steps: [
      {
        proj: "hold23-js",
        cmd: "npx vitest run spec/fines.vitest.test.js",
        run: "npx vitest run spec/fines.vitest.test.js --reporter=default --reporter=json --outputFile.json=REPORT",
        truth: "vitestJson",
        continueOnError: true,
      },
      {
        proj: "hold23-py",
        cmd: "pytest tests/test_members.py",
        run: "python3 -m pytest -p no:cacheprovider tests/test_members.py --junitxml=REPORT",
        truth: "pytestJunit",
      },
    ],
  },
  {
    id: "hold23-go-parallel-subtests-jenkins",
    proj: "hold23-go",
    frame: "jenkins",
    cmd: "go test -v ./...",
    run: "go test -count=1 -v ./...; go test -count=1 -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold23-rspec-color-gitlab",
    proj: "hold23-rb",
    frame: "gitlab",
    cmd: "bundle exec rspec --force-color",
    run: "rspec spec/shelf_spec.rb --force-color --format progress --format json --out REPORT",
    truth: "rspecJson",
    color: true,
  },
  {
    id: "hold23-jest-green-console-fail-gitlab",
    proj: "hold23-js",
    frame: "gitlab",
    cmd: "npx jest --ci spec/green.jest.test.js",
    run: "npx jest --ci spec/green.jest.test.js --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold23-go-green-race-gitlab",
    proj: "hold23-go",
    frame: "gitlab",
    cmd: "go test -race -v ./fines/...",
    run: "go test -race -count=1 -v ./fines/...; go test -race -count=1 -json ./fines/... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold23-pytest-green-noisy-jenkins",
    proj: "hold23-py",
    frame: "jenkins",
    cmd: "python -m pytest -rA tests/test_green.py",
    run: "python3 -m pytest -p no:cacheprovider -rA tests/test_green.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold23-mocha-green-noisy-gitlab",
    proj: "hold23-js",
    frame: "gitlab",
    cmd: "npx mocha spec/green.mocha.spec.js",
    run: "npx mocha spec/green.mocha.spec.js; TITLEPATH_OUT=REPORT node_modules/.bin/mocha spec/green.mocha.spec.js --reporter ./mocha/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "hold23-node-test-nested-subtests-jenkins",
    proj: "hold23-js",
    frame: "jenkins",
    cmd: "node --test node/",
    run: "node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT node/",
    truth: "nodeJunit",
  },
  // hold24-*: a twenty-fifth held-out set (issue 10), generated part (projects/hold24-*, a parking-garage model),
  // written by a helper that had not read the parsers: jest --shard=1/2 over four files; pytest -p no:cacheprovider -q;
  // cargo test over a three-crate workspace (--no-fail-fast, a failing doc-test); go test -json as the log itself;
  // node:test with the spec reporter; a LARGE mocha run (1,512 tests, three failing); green vitest and pytest -q runs
  // whose tests print FAIL / Error: / FAILED / summary-like lines.
  {
    id: "hold24-jest-shard-1-of-2-actions",
    proj: "hold24-js",
    frame: "actions",
    cmd: "npx jest --ci --shard=1/2",
    run: "npx jest --ci --shard=1/2 --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold24-pytest-quiet-no-cacheprovider-gitlab",
    proj: "hold24-py",
    frame: "gitlab",
    cmd: "python -m pytest -p no:cacheprovider -q tests/test_tickets.py",
    run: "python3 -m pytest -p no:cacheprovider -q tests/test_tickets.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  {
    id: "hold24-cargo-workspace-three-crates-jenkins",
    proj: "hold24-rust",
    frame: "jenkins",
    env: { RUST_BACKTRACE: "0" },
    cmd: "cargo test --workspace --no-fail-fast",
    run: "cargo test --offline --workspace --no-fail-fast; RUSTC_BOOTSTRAP=1 cargo test --offline --workspace --no-fail-fast -- -Z unstable-options --format json > REPORT",
    truth: "libtestJson",
    twoRuns: true,
  },
  {
    id: "hold24-go-test-json-log-jenkins",
    proj: "hold24-go",
    frame: "jenkins",
    cmd: "go test -json ./...",
    run: "go test -count=1 -json ./...; go test -count=1 -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold24-node-test-spec-reporter-actions",
    proj: "hold24-js",
    frame: "actions",
    cmd: "node --test --test-reporter=spec node/",
    run: "node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=REPORT node/",
    truth: "nodeJunit",
  },
  {
    id: "hold24-mocha-large-tariff-table-gitlab",
    proj: "hold24-js",
    frame: "gitlab",
    cmd: "npx mocha spec/tariffs.mocha.spec.js",
    run: "npx mocha spec/tariffs.mocha.spec.js; TITLEPATH_OUT=REPORT node_modules/.bin/mocha spec/tariffs.mocha.spec.js --reporter ./mocha/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "hold24-vitest-green-audit-lines-jenkins",
    proj: "hold24-js",
    frame: "jenkins",
    cmd: "npx vitest run spec/audit.vitest.test.js",
    run: "npx vitest run spec/audit.vitest.test.js --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "vitestJson",
  },
  {
    id: "hold24-pytest-green-quiet-report-lines-actions",
    proj: "hold24-py",
    frame: "actions",
    cmd: "python -m pytest -p no:cacheprovider -q tests/test_green_reports.py",
    run: "python3 -m pytest -p no:cacheprovider -q tests/test_green_reports.py --junitxml=REPORT",
    truth: "pytestJunit",
  },
  // hold25-*: a twenty-sixth held-out set (issue 10), generated part (projects/hold25-*, a library-lending model),
  // written by a helper that had not read the parsers: a vitest run over two inline projects (workspace labels),
  // pytest --tb=line, go test -count=2 (a test failing in both runs, one failing only in the second), mocha's dot
  // reporter, jest --silent --verbose=false, and a green pytest run whose tests print FAILED / summary-like lines.
  {
    id: "hold25-vitest-two-projects-actions",
    proj: "hold25-js",
    frame: "actions",
    cmd: "npx vitest run",
    run: "npx vitest run --reporter=default --reporter=json --outputFile.json=REPORT",
    truth: "vitestJson",
  },
  {
    id: "hold25-pytest-tb-line-gitlab",
    proj: "hold25-py",
    frame: "gitlab",
    cmd: "python -m pytest -p no:cacheprovider --tb=line tests/unit",
    run: "python3 -m pytest -p no:cacheprovider --tb=line tests/unit; python3 -m pytest -p no:cacheprovider --tb=line tests/unit --junitxml=REPORT",
    truth: "pytestJunit",
    twoRuns: true,
  },
  {
    id: "hold25-go-count-2-jenkins",
    proj: "hold25-go",
    frame: "jenkins",
    cmd: "go test -count=2 ./...",
    run: "go test -count=2 ./...; go test -count=2 -json ./... > REPORT",
    truth: "goJson",
    twoRuns: true,
  },
  {
    id: "hold25-mocha-dot-reporter-gitlab",
    proj: "hold25-js",
    frame: "gitlab",
    cmd: "npx mocha --reporter dot spec/holds.mocha.spec.js",
    run: "npx mocha --reporter dot spec/holds.mocha.spec.js; TITLEPATH_OUT=REPORT node_modules/.bin/mocha spec/holds.mocha.spec.js --reporter ./mocha/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "hold25-mocha-dot-green-printed-failing-jenkins",
    proj: "hold25-js",
    frame: "jenkins",
    cmd: "npx mocha --reporter dot spec/receipts.mocha.spec.js",
    run: "npx mocha --reporter dot spec/receipts.mocha.spec.js; TITLEPATH_OUT=REPORT node_modules/.bin/mocha spec/receipts.mocha.spec.js --reporter ./mocha/titlepath-reporter.cjs",
    truth: "titlePathJson",
    twoRuns: true,
  },
  {
    id: "hold25-jest-silent-not-verbose-actions",
    proj: "hold25-js",
    frame: "actions",
    cmd: "npx jest --ci --silent --verbose=false",
    run: "npx jest --ci --silent --verbose=false --json --outputFile=REPORT",
    truth: "jestJson",
  },
  {
    id: "hold25-pytest-green-tb-line-printed-failed-jenkins",
    proj: "hold25-py",
    frame: "jenkins",
    cmd: "python -m pytest -p no:cacheprovider --tb=line -s tests/test_green_audit.py",
    run: "python3 -m pytest -p no:cacheprovider --tb=line -s tests/test_green_audit.py; python3 -m pytest -p no:cacheprovider --tb=line -s tests/test_green_audit.py --junitxml=REPORT",
    truth: "pytestJunit",
    twoRuns: true,
  },
];

// ------------------------------------------------------------------------------------------ running
function prepare(proj) {
  const dir = path.join(scratch, "work", proj);
  rmSync(dir, { recursive: true, force: true });
  cpSync(path.join(projects, proj), dir, { recursive: true });
  if (proj === JS || /^hold\d*-js$/.test(proj)) {
    const js = path.join(scratch, "js");
    if (!existsSync(path.join(js, "node_modules/.bin/jest"))) {
      mkdirSync(js, { recursive: true });
      writeFileSync(path.join(js, "package.json"), '{"name":"real-logs-tools","private":true}\n');
      execFileSync(
        "npm",
        ["install", "--no-audit", "--no-fund", "jest@30", "vitest@4", "mocha@12", "@playwright/test@1"],
        { cwd: js, stdio: "inherit" },
      );
    }
    symlinkSync(path.join(js, "node_modules"), path.join(dir, "node_modules"));
  }
  if (proj === "jasmine") {
    const jas = path.join(scratch, "jasmine");
    if (!existsSync(path.join(jas, "node_modules/.bin/jasmine"))) {
      mkdirSync(jas, { recursive: true });
      writeFileSync(path.join(jas, "package.json"), '{"name":"real-logs-jasmine","private":true}\n');
      execFileSync("npm", ["install", "--no-audit", "--no-fund", "jasmine@7.0.0"], {
        cwd: jas,
        stdio: "inherit",
      });
    }
  }
  if (proj === "bun") {
    // bun from the npm registry (the `bun` package and its platform binary package), in the scratch directory.
    const bun = path.join(scratch, "bun");
    if (!existsSync(path.join(bun, "node_modules/.bin/bun"))) {
      mkdirSync(bun, { recursive: true });
      writeFileSync(path.join(bun, "package.json"), '{"name":"real-logs-bun","private":true}\n');
      execFileSync("npm", ["install", "--no-audit", "--no-fund", "bun@1.4.4"], {
        cwd: bun,
        stdio: "inherit",
      });
    }
  }
  return dir;
}

/** hold13: what a CI log does to a runner's output after the fact (a Windows runner's CRLF, a log cut short). */
function postProcess(c, log) {
  let out = log;
  if (c.truncateAfterLines) out = `${out.split("\n").slice(0, c.truncateAfterLines).join("\n")}\n`;
  if (c.crlf) out = out.replace(/\r?\n/g, "\r\n");
  return out;
}

/**
 * hold13: one GitHub Actions job with several steps, each a REAL runner on its own project (two runners in one
 * log). Each step's answer comes from its own runner's report; the case's answer is their union.
 */
function runSteps(c) {
  const proj = "harbor";
  const ciDir = FRAMES.actions.dir.replaceAll("PROJ", proj);
  const parts = [];
  const failures = [];
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const ran = [];
  let lastExit = 0;
  let i = 0;
  for (const step of c.steps) {
    const dir = prepare(step.proj);
    const report = path.join(scratch, `${c.id}.${i}.report`);
    rmSync(report, { force: true, recursive: true });
    const cmd = step.run.replaceAll("REPORT", report);
    let { out, exit } = sh(dir, cmd, step.env ?? {});
    if (step.twoRuns) ({ out, exit } = sh(dir, cmd.split(";")[0], step.env ?? {}));
    const rewrite = (s) => s.replaceAll(dir, ciDir).replaceAll(scratch, "/tmp/ci");
    parts.push({ cmd: step.cmd, body: rewrite(out), exit });
    ran.push(step.run.replaceAll(scratch, "<scratch>"));
    const tests = truth[step.truth](report, dir);
    for (const t of tests.filter((x) => x.failed && !x.parentOnly)) {
      if (failures.some((f) => f.test === t.test)) continue;
      failures.push({
        test: t.test,
        places: placesIn(rewrite(t.text).replaceAll("file://", "").replaceAll(`${ciDir}/`, ""), dir),
      });
    }
    counts.passed += tests.filter((t) => !t.failed && !t.skipped && !t.parentOnly).length;
    counts.skipped += tests.filter((t) => t.skipped).length;
    lastExit = exit;
    i++;
    if (exit !== 0 && !step.continueOnError) break;
  }
  counts.failed = failures.length;
  // One job: checkout, then each step's group and output; a failed step ends the job unless the next one is
  // `if: always()` (continueOnError here).
  const lines = ["##[group]Run actions/checkout@v4", "with:", `  repository: acme/${proj}`, "##[endgroup]"];
  for (const p of parts) {
    lines.push(
      `##[group]Run ${p.cmd}`,
      `${ESC}[36;1m${p.cmd}${ESC}[0m`,
      "shell: /usr/bin/bash -e {0}",
      "##[endgroup]",
    );
    lines.push(...p.body.replace(/\n$/, "").split("\n"));
    if (p.exit !== 0) lines.push(`##[error]Process completed with exit code ${p.exit}.`);
  }
  lines.push("Post job cleanup.");
  const log = postProcess(c, `${lines.map((l, n) => `${stamp(n)} ${l}`).join("\n")}\n`);
  const outDir = path.join(corpus, c.id);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, "log.txt"), log);
  const meta = {
    id: c.id,
    source: {
      kind: "generated",
      project: c.steps.map((s) => `test/fixtures/logs-real/projects/${s.proj}`).join(" + "),
      command: c.steps.map((s) => s.cmd).join(" ; "),
      ran: ran.join(" ; "),
      framing: "actions",
      generator: "scripts/make-real-logs.mjs",
      tools: Object.assign({}, ...c.steps.map((s) => versions(s.proj))),
    },
    log: "log.txt",
    exitCode: lastExit,
  };
  writeFileSync(path.join(outDir, "case.json"), `${JSON.stringify(meta, null, 2)}\n`);
  const expected = {
    decidedBy: `each step's own runner report (${c.steps.map((s) => s.truth).join(", ")}) of the same run, united`,
    green: failures.length === 0 && parts.every((p) => p.exit === 0),
    failures,
    counts,
  };
  writeFileSync(path.join(outDir, "expected.json"), `${JSON.stringify(expected, null, 2)}\n`);
}

function runCase(c) {
  if (c.steps) return runSteps(c);
  const dir = prepare(c.proj);
  const report = path.join(scratch, `${c.id}.report`);
  const logfile = path.join(scratch, `${c.id}.logfile`);
  rmSync(report, { force: true, recursive: true });
  rmSync(logfile, { force: true });
  const cmd = c.run
    .replaceAll("REPORT", report)
    .replaceAll("LOGFILE", logfile)
    .replaceAll("SCRATCH", scratch);
  const env = { ...(c.color ? { NO_COLOR: "", FORCE_COLOR: "1" } : {}), ...(c.env ?? {}) };
  if (c.color) delete process.env.NO_COLOR;
  let { out, exit } = sh(dir, cmd, env);
  if (c.color) process.env.NO_COLOR = "1";

  if (c.twoRuns) {
    // The report came from a second run of the same command (whose stdout went to the report file); the log
    // is the first run's output, and the exit status is the first run's too.
    const first = sh(dir, cmd.split(";")[0], env);
    out = first.out;
    exit = first.exit;
  }
  // Lines this machine prints that a CI runner would not (Maven's offline-repository POM warnings).
  if (c.dropLines) out = out.replace(c.dropLines, "");
  const proj =
    c.proj === JS
      ? "ledger-js"
      : c.proj.startsWith("hold-")
        ? `inventory-${c.proj.slice(5)}`
        : c.proj.startsWith("hold2-")
          ? `booking-${c.proj.slice(6)}`
          : c.proj.startsWith("hold3-")
            ? `pantry-${c.proj.slice(6)}`
            : c.proj.startsWith("hold4-")
              ? `stencil-${c.proj.slice(6)}`
              : c.proj.startsWith("hold13-")
                ? "harbor"
                : `ledger-${c.proj}`;
  const ciDir = FRAMES[c.frame]?.dir.replaceAll("PROJ", proj) ?? "/home/runner/work/x/x";
  const rewrite = (s) => s.replaceAll(dir, ciDir).replaceAll(scratch, "/tmp/ci");
  let log;
  if (c.frame === "xml") log = rewrite(read(logfile));
  else if (c.frame === "xml-stdout") log = rewrite(out.slice(out.indexOf("<?xml")));
  else log = frame(c.frame, c.cmd, rewrite(out), exit, proj);
  log = postProcess(c, log);
  const outDir = path.join(corpus, c.id);
  mkdirSync(outDir, { recursive: true });
  const logName = c.frame.startsWith("xml") ? "log.xml" : "log.txt";
  writeFileSync(path.join(outDir, logName), log);
  const meta = {
    id: c.id,
    source: {
      kind: "generated",
      project: `test/fixtures/logs-real/projects/${c.proj}`,
      command: c.cmd,
      ran: c.run.replaceAll(scratch, "<scratch>"),
      framing: c.frame,
      generator: "scripts/make-real-logs.mjs",
      tools: versions(c.proj),
    },
    log: logName,
    exitCode: exit,
  };
  writeFileSync(path.join(outDir, "case.json"), `${JSON.stringify(meta, null, 2)}\n`);
  if (c.handExpected) {
    if (!existsSync(path.join(outDir, "expected.json")))
      process.stderr.write(`${c.id}: write expected.json by hand\n`);
    return;
  }
  const tests = truth[c.truth](report, dir);
  // ESM stacks name files as `file:///…` URLs: the path is what follows `file://`.
  // Colour codes in a report's text are not part of a path (pytest --color=yes writes them into its JUnit XML,
  // the escape character spelled `#x1B`).
  const placesOf = (text) =>
    placesIn(
      rewrite(text)
        .replace(/(?:\u001b|#x1B)\[[0-9;]*m/g, "")
        .replaceAll("file://", "")
        .replaceAll(`${ciDir}/`, ""),
      dir,
    );
  const failures = [];
  for (const t of tests.filter((x) => x.failed && !x.parentOnly)) {
    // A test the runner reports failing twice (mocha: an uncaught error, then `done()` called twice) is one
    // failing test: one expected failure, with the places of both reports.
    const same = failures.find((f) => f.test === t.test);
    const places = placesOf(t.text);
    if (!same) failures.push({ test: t.test, places });
    else
      for (const p of places)
        if (!same.places.some((q) => q.file === p.file && q.line === p.line)) same.places.push(p);
  }
  const expected = {
    decidedBy: `the runner's own report (${c.truth}) of the same run`,
    green: exit === 0 && failures.length === 0,
    failures,
    counts: {
      passed: tests.filter((t) => !t.failed && !t.skipped && !t.parentOnly).length,
      failed: failures.length,
      skipped: tests.filter((t) => t.skipped).length,
    },
  };
  writeFileSync(path.join(outDir, "expected.json"), `${JSON.stringify(expected, null, 2)}\n`);
}

const versionCache = new Map();
function versions(proj) {
  if (versionCache.has(proj)) return versionCache.get(proj);
  const v = (cmd) => sh(scratch, cmd).out.trim().split("\n")[0];
  const table = {
    js: () => ({
      node: process.version,
      jest: v(`${scratch}/js/node_modules/.bin/jest --version`),
      vitest: v(`${scratch}/js/node_modules/.bin/vitest --version`),
      mocha: v(`${scratch}/js/node_modules/.bin/mocha --version`),
      playwright: v(`${scratch}/js/node_modules/.bin/playwright --version`),
    }),
    "py-broken": () => ({ python: v("python3 --version"), pytest: v("python3 -m pytest --version") }),
    "go-broken": () => ({ go: v("go version") }),
    py: () => ({
      python: v("python3 --version"),
      pytest: v("python3 -m pytest --version"),
      xdist: v("python3 -c 'import xdist; print(xdist.__version__)'"),
    }),
    go: () => ({ go: v("go version") }),
    rust: () => ({ cargo: v("cargo --version"), rustc: v("rustc --version") }),
    ruby: () => ({ rspec: v("rspec --version | tr '\\n' ' '") }),
    php: () => ({ phpunit: v("phpunit --version") }),
    "hold-js": () => table.js(),
    "hold-py": () => table.py(),
    "hold-go": () => table.go(),
    "hold-rb": () => table.ruby(),
    "hold-php": () => table.php(),
    "hold2-js": () => table.js(),
    "hold2-py": () => table.py(),
    "hold2-go": () => table.go(),
    "hold2-rb": () => table.ruby(),
    "hold2-java": () => table.java(),
    "hold3-js": () => table.js(),
    "hold3-py": () => table.py(),
    "hold3-go": () => table.go(),
    "hold3-rb": () => table.ruby(),
    "hold3-php": () => table.php(),
    "hold3-java": () => table.java(),
    "hold3-rust": () => table.rust(),
    "hold3-gradle": () => ({ gradle: v("gradle --version | grep '^Gradle'"), java: v("java -version 2>&1") }),
    java: () => ({ maven: v("mvn -v"), java: v("java -version 2>&1") }),
    "hold4-js": () => table.js(),
    "hold4-py": () => table.py(),
    "hold4-go": () => table.go(),
    "hold4-rb": () => table.ruby(),
    "hold4-php": () => table.php(),
    "hold4-java": () => ({ ...table.java(), surefire: "2.22.3", junit: "4.13.2" }),
    "hold4-rust": () => table.rust(),
    "hold4-gradle": () => table["hold3-gradle"](),
    "hold13-js": () => table.js(),
    "hold13-py": () => table.py(),
    "hold13-go": () => table.go(),
    "hold13-go-broken": () => table.go(),
    "hold13-rust": () => table.rust(),
    "hold13-rust-broken": () => table.rust(),
    "hold13-rb": () => table.ruby(),
    "hold13-php": () => table.php(),
    "hold13-java": () => ({ ...table.java(), surefire: "3.2.5", junit: "5.11.4" }),
    "hold13-gradle": () => table["hold3-gradle"](),
    "hold13-ctest": () => ({ cmake: v("cmake --version"), gcc: v("gcc --version") }),
    "hold14-js": () => table.js(),
    "hold14-py": () => table.py(),
    "hold14-go": () => table.go(),
    "hold14-rust": () => table.rust(),
    "hold14-rb": () => table.ruby(),
    "hold14-php": () => table.php(),
    "hold15-js": () => table.js(),
    "hold15-py": () => table.py(),
    "hold15-go": () => table.go(),
    "hold15-rb": () => table.ruby(),
    "hold16-js": () => table.js(),
    "hold16-py": () => table.py(),
    "hold16-go": () => table.go(),
    "hold16-rb": () => table.ruby(),
    "hold17-js": () => table.js(),
    "hold17-py": () => table.py(),
    "hold17-go": () => table.go(),
    "hold17-rb": () => table.ruby(),
    "hold18-js": () => table.js(),
    "hold18-py": () => table.py(),
    "hold18-go": () => table.go(),
    "hold18-rb": () => table.ruby(),
    "hold19-js": () => table.js(),
    "hold19-py": () => table.py(),
    "hold19-go": () => table.go(),
    "hold19-rb": () => table.ruby(),
    "hold20-js": () => table.js(),
    "hold20-py": () => table.py(),
    "hold20-go": () => table.go(),
    "hold20-rb": () => table.ruby(),
    "hold21-js": () => table.js(),
    "hold21-py": () => table.py(),
    "hold21-go": () => table.go(),
    "hold21-rb": () => table.ruby(),
    "hold22-js": () => table.js(),
    "hold22-py": () => table.py(),
    "hold22-go": () => table.go(),
    "hold23-js": () => table.js(),
    "hold23-py": () => table.py(),
    "hold23-go": () => table.go(),
    "hold23-rb": () => table.ruby(),
    "hold24-js": () => table.js(),
    "hold24-py": () => table.py(),
    "hold24-go": () => table.go(),
    "hold24-rust": () => table.rust(),
    "hold25-js": () => table.js(),
    "hold25-py": () => table.py(),
    "hold25-go": () => table.go(),
    "rspec-doc": () => table.ruby(),
    bun: () => ({ bun: v(`${scratch}/bun/node_modules/.bin/bun --version`) }),
    catch2: () => ({ catch2: v("dpkg-query -W catch2"), gcc: v("g++ --version") }),
    jasmine: () => ({ jasmine: v(`${scratch}/jasmine/node_modules/.bin/jasmine --version | tr '\\n' ' '`) }),
    minitest: () => ({
      ruby: v("ruby --version"),
      minitest: v("ruby -rminitest -e 'puts Minitest::VERSION'"),
    }),
    ctest: () => ({ cmake: v("cmake --version"), gcc: v("gcc --version") }),
    gtest: () => ({
      cmake: v("cmake --version"),
      gtest: v("dpkg-query -W libgtest-dev"),
      gcc: v("g++ --version"),
    }),
  };
  const r = table[proj]();
  versionCache.set(proj, r);
  return r;
}

mkdirSync(scratch, { recursive: true });
for (const c of CASES) {
  if (only && c.id !== only) continue;
  if (prefix && !c.id.startsWith(prefix)) continue;
  process.stderr.write(`${c.id}\n`);
  runCase(c);
}
if (!only) {
  const known = new Set(CASES.map((c) => c.id));
  for (const d of readdirSync(corpus)) {
    if (d.startsWith("gen-") && !known.has(d))
      process.stderr.write(`note: ${d} is not produced by this script\n`);
  }
}
