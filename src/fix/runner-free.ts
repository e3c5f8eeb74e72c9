/**
 * The runner-free run: each previously failing test's body executed OUTSIDE its test runner, by a minimal harness
 * of ours in a fresh interpreter (src/fix/runner-free-harness.ts), so that no runner state exists — no pytest
 * plugins (warnings recorder, thread exception hook, output capture), no `node --test` internals, no jest or vitest
 * globals, worker pools or module wrappers. A correct fix passes there exactly as under the runner; a patch that
 * passes only under the runner depends on it. Tests the harness cannot stand in for (fixtures, mocking APIs,
 * runner configuration, matchers it does not know) are left out with a reason: the layer is not applied to them,
 * never failed.
 *
 * And, for Python, the same run again with **real-shaped doubles**: `io.StringIO` (the usual stand-in for
 * `sys.stdout`/`sys.stderr` in tests) given the `.buffer` a real stream has, writing through to its text. A fix
 * whose outcome changes only because the double now looks like the real stream was written for the double.
 *
 * Pure: `planRunnerFree` builds the files and the command; `judgeRunnerFree` reads the report.
 */
import type { TestFramework } from "./test-runner/types.ts";
import {
  JS_SHIM,
  jsColdHarness,
  jsHarness,
  jsShimEsm,
  NODE_FLAG,
  PY_HARNESS,
} from "./runner-free-harness.ts";

/** One test to run outside the runner: where it was located (see tripwire.ts `locate`). */
export interface RunnerFreeTarget {
  /** Index of the failing test. */
  index: number;
  file: string;
  name: string;
  className?: string;
  /** JS: the titles of the id (describe titles, then the test's). */
  titles?: string[];
}

export interface RunnerFreePlan {
  files: Record<string, string>;
  /** Shell command (run from the repository's directory, before the neutral run). */
  command: string;
  reportFile: string;
  /** Indexes of the failing tests the harness runs. */
  targets: number[];
  /** Tests left out before running, with why (the layer is not applied to them). */
  skipped: { index: number; why: string }[];
  /** Whether the real-shaped doubles variant runs (Python). */
  doubles: boolean;
  /**
   * Whether the cold-start variant runs: Python in the harness itself (a forked child), JS for CommonJS test files
   * by `coldCommand`, run after `command`; with why not, when it does not.
   */
  cold: boolean;
  coldCommand?: string;
  coldNote?: string;
}

export interface RunnerFreeResult {
  key: string;
  outcome: "passed" | "failed" | "skipped" | "unsupported";
  message?: string;
  doubles?: { outcome: RunnerFreeResult["outcome"]; message?: string };
  cold?: { outcome: RunnerFreeResult["outcome"]; message?: string };
}

const RUNNER_MODULES = /(["'])(node:test|vitest|@jest\/globals)\1/;

function dirOf(p: string): string {
  const i = p.lastIndexOf("/");
  return i === -1 ? "" : p.slice(0, i + 1);
}

function relTo(fromFile: string, rootFile: string): string {
  const up = "../".repeat(dirOf(fromFile).split("/").length - 1);
  return up ? `${up}${rootFile}` : `./${rootFile}`;
}

/** Runner configuration that changes what a test sees (setup files, module mapping, transforms, environments). */
const JEST_RISKY =
  /\b(setupFiles|setupFilesAfterEnv|moduleNameMapper|transform|preset|globals|testEnvironment|moduleDirectories|modulePaths|resolver|globalSetup|injectGlobals|extensionsToTreatAsEsm|projects|rootDir)\b/;
const VITEST_RISKY =
  /\b(setupFiles|globalSetup|alias|plugins|define|environment|resolve|deps|server\s*:\s*\{[^}]*deps|poolOptions|sequence|projects|workspace)\b/;
const MOCHA_RISKY = /\b(require|file|ui|loader|import|extension)\b/;

async function configProblem(
  fw: TestFramework,
  readFile: (p: string) => Promise<string | null>,
  files: string[],
): Promise<string | null> {
  let pkg: Record<string, unknown> = {};
  try {
    pkg = JSON.parse((await readFile("package.json")) ?? "{}") as Record<string, unknown>;
  } catch {
    pkg = {};
  }
  const top = files.filter((f) => !f.includes("/"));
  // The option that made the decision, named in the note (`… sets up the test environment (transform)`).
  // A match used as a key (`transform: …`, `"globals":`) is named first: `resolve` imported from node:path is not it.
  const named = (re: RegExp, text: string): string | null => {
    const all = [...text.matchAll(new RegExp(re.source, "g"))];
    const m = all.find((x) => /^["']?\s*:/.test(text.slice(x.index + x[0].length))) ?? all[0];
    return m ? ` (${m[1]})` : null;
  };
  if (fw === "jest") {
    const inPkg = pkg.jest !== undefined ? named(JEST_RISKY, JSON.stringify(pkg.jest)) : null;
    if (inPkg) return `jest's configuration in package.json sets up the test environment${inPkg}`;
    for (const f of top.filter((f) => /^jest\.config\.[cm]?[jt]s(on)?$/.test(f))) {
      const why = named(JEST_RISKY, (await readFile(f)) ?? "");
      if (why) return `${f} sets up the test environment${why}`;
    }
    if (top.some((f) => /^(\.babelrc|babel\.config\.)/.test(f)))
      return "jest transforms the tests with babel";
  }
  if (fw === "vitest") {
    for (const f of top.filter((f) => /^(vitest|vite)\.(config|workspace)\.[cm]?[jt]s$/.test(f))) {
      const text = ((await readFile(f)) ?? "").replace(/\/\/.*$/gm, "");
      const why = named(VITEST_RISKY, text.replace(/server\s*:\s*\{\s*host\s*:\s*["'][^"']*["']\s*\}/, ""));
      if (why) return `${f} sets up the test environment${why}`;
    }
  }
  if (fw === "mocha") {
    const inPkg = pkg.mocha !== undefined ? named(MOCHA_RISKY, JSON.stringify(pkg.mocha)) : null;
    if (inPkg) return `mocha's configuration in package.json loads files or another interface${inPkg}`;
    for (const f of top.filter((f) => /^\.mocharc\./.test(f))) {
      const why = named(MOCHA_RISKY, (await readFile(f)) ?? "");
      if (why) return `${f} loads files or another interface${why}`;
    }
  }
  return null;
}

/** `pythonpath` of pytest's ini options (pytest.ini, pyproject.toml, setup.cfg, tox.ini), when set. */
async function pytestPaths(
  readFile: (p: string) => Promise<string | null>,
): Promise<{ paths: string[]; problem: string | null }> {
  for (const f of ["pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"]) {
    const text = (await readFile(f)) ?? "";
    const section = /^\[(pytest|tool:pytest|tool\.pytest\.ini_options)\]\s*$/m.exec(text);
    if (!section) continue;
    const body = text.slice(section.index + section[0].length).split(/^\[/m)[0] ?? "";
    // `[ \t]*`, not `\s*`, after `^` under /m: `\s*` spans lines, and a run of blank lines made each pattern
    // quadratic (a 1 MiB pytest.ini of newlines held the host for hours). The same for the test files below.
    if (
      /^[ \t]*(usefixtures|required_plugins)\s*=/m.test(body) ||
      /^[ \t]*addopts\s*=.*(-p\s|--import-mode)/m.test(body)
    )
      return { paths: [], problem: `${f} loads plugins or fixtures for every test` };
    const m = /^[ \t]*pythonpath\s*=\s*(.*)$/m.exec(body);
    const paths = m
      ? (m[1] ?? "")
          .replace(/[[\]"',]/g, " ")
          .split(/\s+/)
          .filter(Boolean)
      : [];
    return { paths, problem: null };
  }
  return { paths: [], problem: null };
}

/** Builds the runner-free run for the located failing tests. */
export async function planRunnerFree(input: {
  framework: TestFramework;
  targets: RunnerFreeTarget[];
  readFile(path: string): Promise<string | null>;
  listFiles(): Promise<string[]>;
  nonce: string;
}): Promise<RunnerFreePlan | { unsupported: string }> {
  const fw = input.framework;
  const tag = input.nonce.slice(0, 8);
  const reportFile = `.retrace-report-${input.nonce}-rf.json`;
  const files: Record<string, string> = {};
  const skipped: { index: number; why: string }[] = [];
  const all = await input.listFiles();
  const byFile = new Map<string, RunnerFreeTarget[]>();
  for (const t of input.targets) byFile.set(t.file, [...(byFile.get(t.file) ?? []), t]);
  const tests: Record<string, unknown>[] = [];
  let fileIndex = 0;

  if (fw === "pytest") {
    const { paths, problem } = await pytestPaths(input.readFile);
    if (problem) return { unsupported: problem };
    for (const [file, ts] of byFile) {
      const src = await input.readFile(file);
      const why =
        src === null
          ? "its file is not in the patched tree"
          : /\bautouse\b|^pytestmark\b|^[ \t]*(def|async def) (setup|teardown)_(module|function)\b/m.test(src)
            ? "its file uses autouse fixtures, module marks or module setup"
            : conftestOf(file, all)
              ? `a conftest.py (${conftestOf(file, all)}) may set up fixtures or hooks for it`
              : null;
      if (why || src === null) {
        for (const t of ts) skipped.push({ index: t.index, why: why ?? "" });
        continue;
      }
      fileIndex++;
      const copy = `${dirOf(file)}u${tag}f${fileIndex}.py`;
      files[copy] = src;
      for (const t of ts)
        tests.push({
          key: String(t.index),
          file: copy,
          name: t.name,
          ...(t.className ? { className: t.className } : {}),
        });
    }
    if (tests.length === 0) return { unsupported: describeSkipped(skipped) };
    const harness = `h${tag}.py`;
    files[harness] = PY_HARNESS.replace("__SPEC__", () =>
      JSON.stringify(
        JSON.stringify({
          out: `/workspace/${reportFile}`,
          tests,
          pythonpath: paths,
          doubles: true,
          cold: true,
        }),
      ),
    );
    return {
      files,
      command: `python3 ${harness}`,
      reportFile,
      targets: tests.map((t) => Number(t.key)),
      skipped,
      doubles: true,
      cold: true,
    };
  }

  if (!["node-test", "jest", "vitest", "mocha"].includes(fw))
    return {
      unsupported: `the runner-free run supports pytest, node:test, jest, vitest and mocha, not ${fw}`,
    };
  const config = await configProblem(fw, input.readFile, all);
  if (config) return { unsupported: config };
  const shim = `r${tag}.cjs`;
  const shimEsm = `r${tag}.mjs`;
  let esmPackage = false;
  try {
    esmPackage =
      (JSON.parse((await input.readFile("package.json")) ?? "{}") as { type?: unknown }).type === "module";
  } catch {
    esmPackage = false;
  }
  const coldTests: Record<string, unknown>[] = [];
  for (const [file, ts] of byFile) {
    const src = await input.readFile(file);
    const why =
      src === null
        ? "its file is not in the patched tree"
        : /\.(ts|tsx|mts|cts|jsx)$/.test(file)
          ? "a TypeScript or JSX test file needs the runner's transform"
          : /\b(jest|vi|vitest|sinon|td)\s*\.\s*(mock|fn|spyOn|useFakeTimers|stubGlobal|stubEnv|doMock|hoisted|setSystemTime|replaceProperty)\b|\bmock\s*\.\s*(fn|method|timers|module)\b/.test(
                src,
              )
            ? "the test file uses a runner's mocking API"
            : fw === "jest" && /^[ \t]*(import\s[^(]|export\s)/m.test(src)
              ? "jest transforms ES module syntax in this test file"
              : null;
    if (why || src === null) {
      for (const t of ts) skipped.push({ index: t.index, why: why ?? "" });
      continue;
    }
    fileIndex++;
    const ext = /\.[^./]+$/.exec(file)?.[0] ?? ".js";
    const copy = `${dirOf(file)}u${tag}f${fileIndex}${ext}`;
    files[copy] = src.replace(
      /(\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^[ \t]*import\s*)(["'])(node:test|vitest|@jest\/globals)\2/gm,
      (_m, head: string, q: string) => `${head}${q}${relTo(file, /require/.test(head) ? shim : shimEsm)}${q}`,
    );
    if (RUNNER_MODULES.test(files[copy]!)) {
      delete files[copy];
      for (const t of ts)
        skipped.push({
          index: t.index,
          why: "its runner module is loaded in a way the harness cannot replace",
        });
      continue;
    }
    const commonJs =
      ext === ".cjs" ||
      (ext === ".js" && !esmPackage && !/^[ \t]*(import\s*[\w{*"']|export\s)/m.test(files[copy]!));
    for (const t of ts) {
      tests.push({ key: String(t.index), file: copy, titles: t.titles ?? [t.name] });
      if (commonJs) coldTests.push({ key: String(t.index), file: copy, titles: t.titles ?? [t.name] });
    }
  }
  if (tests.length === 0) return { unsupported: describeSkipped(skipped) };
  files[shim] = JS_SHIM;
  files[shimEsm] = jsShimEsm(shim);
  const harness = `h${tag}.mjs`;
  files[harness] = jsHarness(shim, { out: `/workspace/${reportFile}`, tests }, fw !== "node-test");
  const cold = `c${tag}.cjs`;
  if (coldTests.length > 0)
    files[cold] = jsColdHarness(
      shim,
      { out: `/workspace/${reportFile}`, tests: coldTests },
      fw !== "node-test",
    );
  return {
    files,
    command: `node ${NODE_FLAG} ${harness}`,
    reportFile,
    targets: tests.map((t) => Number(t.key)),
    skipped,
    doubles: false,
    cold: coldTests.length > 0,
    ...(coldTests.length > 0
      ? { coldCommand: `node ${NODE_FLAG} ${cold}` }
      : {
          coldNote:
            "cold-start run not made: the test files are ES modules (only CommonJS can be loaded and called in one tick)",
        }),
  };
}

function conftestOf(file: string, all: string[]): string | null {
  const parts = file.split("/").slice(0, -1);
  for (let i = parts.length; i >= 0; i--) {
    const c = [...parts.slice(0, i), "conftest.py"].join("/");
    if (all.includes(c)) return c;
  }
  return null;
}

function describeSkipped(skipped: { index: number; why: string }[]): string {
  return [...new Set(skipped.map((s) => s.why))].join("; ") || "no test could be run outside the runner";
}

/** What the runner-free run showed, per covered failing test. Pure. */
export function judgeRunnerFree(
  plan: RunnerFreePlan,
  failing: { id: string }[],
  report: string | undefined,
): {
  applied: boolean;
  mismatches: string[];
  doublesApplied: boolean;
  doublesMismatches: string[];
  coldApplied: boolean;
  coldMismatches: string[];
  notes: string[];
  passed: number;
} {
  const notes = plan.skipped.map(
    (s) => `runner-free run not applied to ${failing[s.index]?.id ?? s.index}: ${s.why}`,
  );
  let results: RunnerFreeResult[] = [];
  try {
    results = report === undefined ? [] : (JSON.parse(report) as RunnerFreeResult[]);
  } catch {
    results = [];
  }
  if (!Array.isArray(results) || results.length === 0) {
    return {
      applied: false,
      mismatches: [],
      doublesApplied: false,
      doublesMismatches: [],
      coldApplied: false,
      coldMismatches: [],
      notes: [...notes, "the runner-free run produced no report: not applied"],
      passed: 0,
    };
  }
  const mismatches: string[] = [];
  const doublesMismatches: string[] = [];
  const coldMismatches: string[] = [];
  let passed = 0;
  let doublesRan = 0;
  let coldRan = 0;
  if (plan.coldNote) notes.push(plan.coldNote);
  for (const i of plan.targets) {
    const id = failing[i]?.id ?? String(i);
    const r = results.find((x) => x.key === String(i));
    if (!r) {
      notes.push(`runner-free run not applied to ${id}: the harness did not report it`);
      continue;
    }
    if (r.outcome === "unsupported") {
      notes.push(`runner-free run not applied to ${id}: ${r.message ?? "unsupported"}`);
      continue;
    }
    if (r.outcome !== "passed") {
      mismatches.push(`${id} (${r.outcome} outside the runner${r.message ? `: ${r.message}` : ""})`);
      continue;
    }
    passed++;
    if (r.doubles && r.doubles.outcome !== "unsupported") {
      doublesRan++;
      if (r.doubles.outcome !== "passed")
        doublesMismatches.push(
          `${id} (${r.doubles.outcome} with io.StringIO given a real stream's .buffer${r.doubles.message ? `: ${r.doubles.message}` : ""})`,
        );
    }
    if (!plan.cold) continue;
    if (!r.cold) {
      notes.push(
        `cold-start run not applied to ${id}: not run (an earlier test was asynchronous, or the run ended)`,
      );
    } else if (r.cold.outcome === "unsupported") {
      notes.push(`cold-start run not applied to ${id}: ${r.cold.message ?? "unsupported"}`);
    } else {
      coldRan++;
      if (r.cold.outcome !== "passed")
        coldMismatches.push(
          `${id} (${r.cold.outcome} on a cold start${r.cold.message ? `: ${r.cold.message}` : ""})`,
        );
    }
  }
  return {
    applied: passed + mismatches.length > 0,
    mismatches,
    doublesApplied: doublesRan > 0,
    doublesMismatches,
    coldApplied: coldRan > 0,
    coldMismatches,
    notes,
    passed,
  };
}
