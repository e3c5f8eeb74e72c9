/**
 * `npm run bench -- parse-log [--mb 50]`: generates a realistic GitHub Actions log of ~50 MB (runner
 * timestamps, groups, ANSI colours; npm noise, eslint, jest --verbose, pytest -v, go -json and vitest
 * output built from the real runner fixtures, with thousands of passing tests and some failures), then
 * parses it in a child process twice: with the streaming parser alone (file stream → parseChunks) and
 * through the `retrace parse-log --json` CLI. Wall time and peak RSS come from /usr/bin/time -v when
 * present (else the child's own resourceUsage). One JSON object per line; the last line is the headline.
 * `--mb N` changes the size; `--keep` keeps the generated log (its path is on the first line).
 */
import { spawnSync } from "node:child_process";
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const fixtures = path.join(root, "test/fixtures/logs");
const mbArg = process.argv.indexOf("--mb");
const targetMb = mbArg > 0 ? Number(process.argv[mbArg + 1]) : 50;
const fx = (rel: string) => readFileSync(path.join(fixtures, rel), "utf8").replace(/\r/g, "").split("\n");

async function generate(file: string): Promise<{ bytes: number; lines: number; expectedFailures: number }> {
  const out = createWriteStream(file, { encoding: "utf8" });
  let t = Date.parse("2024-05-02T10:00:00.000Z");
  let lines = 0;
  let bytes = 0;
  let buf: string[] = [];
  const emit = (s: string) => {
    t += 3;
    const line = `${new Date(t).toISOString().replace("Z", "0000Z")} ${s}\n`;
    buf.push(line);
    bytes += Buffer.byteLength(line);
    lines++;
  };
  const flush = async () => {
    if (!out.write(buf.join(""))) await once(out, "drain");
    buf = [];
  };
  const eslint = fx("eslint/stylish.log");
  const jestVerbose = fx("jest/verbose.log");
  const pytestVerbose = fx("pytest/verbose.log");
  const goJson = fx("go/json.log").filter((l) => l.startsWith("{"));
  const vitest = fx("vitest/verbose.log");
  let expectedFailures = 0;
  for (let round = 0; bytes < targetMb * 1024 * 1024; round++) {
    emit(`##[group]Run npm ci (round ${round})`);
    for (let i = 0; i < 40; i++)
      emit(`npm warn deprecated inflight@1.0.${i}: This module is not supported, and leaks memory.`);
    emit(`added ${900 + round} packages, and audited ${901 + round} packages in 12s`);
    emit("##[endgroup]");
    emit("##[group]Run npx eslint src");
    for (const l of eslint) emit(l.replace("src/app.js", `src/app${round}.js`));
    emit("##[endgroup]");
    emit("##[group]Run npx jest --ci --verbose");
    // Many passing suites, coloured as jest prints them in CI with --colors.
    for (let s = 0; s < 60; s++) {
      emit(
        `\u001b[0m\u001b[7m\u001b[1m\u001b[32m PASS \u001b[39m\u001b[22m\u001b[27m\u001b[0m \u001b[2mtest/\u001b[22m\u001b[1mmod${round}_${s}.test.js\u001b[22m`,
      );
      emit("  module");
      for (let k = 0; k < 25; k++)
        emit(`    \u001b[32m✓\u001b[39m \u001b[2mcase ${k} computes value ${k * 7} (${k % 5} ms)\u001b[22m`);
      emit("");
    }
    for (const l of jestVerbose) emit(l.replace(/calc\.test\.js/g, `calc${round}.test.js`));
    emit("##[error]Process completed with exit code 1.");
    emit("##[group]Run pytest -v");
    emit("============================= test session starts ==============================");
    for (let k = 0; k < 400; k++)
      emit(
        `tests/test_mod${round}.py::test_case_${k} PASSED${" ".repeat(30)}[${String(Math.floor(k / 4)).padStart(3)}%]`,
      );
    for (const l of pytestVerbose.slice(pytestVerbose.findIndex((x) => x.startsWith("=====")) + 1)) {
      emit(l.replace(/tests\/test_calc\.py/g, `tests/test_calc${round}.py`));
    }
    emit("##[endgroup]");
    emit("##[group]Run go test -json ./...");
    for (let k = 0; k < 150; k++) {
      emit(
        `{"Time":"2024-05-02T10:00:00Z","Action":"run","Package":"example.com/m${round}","Test":"TestOk${k}"}`,
      );
      emit(
        `{"Time":"2024-05-02T10:00:00Z","Action":"output","Package":"example.com/m${round}","Test":"TestOk${k}","Output":"=== RUN   TestOk${k}\\n"}`,
      );
      emit(
        `{"Time":"2024-05-02T10:00:00Z","Action":"pass","Package":"example.com/m${round}","Test":"TestOk${k}","Elapsed":0}`,
      );
    }
    for (const l of goJson) emit(l.replace(/example\.com\/calc\/calc/g, `example.com/calc${round}`));
    emit("##[endgroup]");
    emit("##[group]Run npx vitest run");
    for (const l of vitest) emit(l.replace(/test\/calc\.test\.js/g, `test/calc${round}.test.js`));
    emit("##[endgroup]");
    // eslint 4 + jest 2 + pytest 5 + go 4 + vitest 2 failures per round.
    expectedFailures += 17;
    await flush();
  }
  await flush();
  out.end();
  await once(out, "finish");
  return { bytes, lines, expectedFailures };
}

interface Measure {
  wallMs: number;
  /** User + system CPU time of the child: about the wall time on an idle core (this machine is shared). */
  cpuMs: number;
  peakRssMb: number;
  parseMs?: number;
  failures?: number;
  tests?: number;
  droppedFailures?: number;
}

function measure(args: string[], parseOutput: (stdout: string) => Partial<Measure>): Measure {
  const useTime = existsSync("/usr/bin/time");
  const cmd = useTime ? "/usr/bin/time" : process.execPath;
  const argv = useTime ? ["-v", process.execPath, ...args] : args;
  const started = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { cwd: root, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`child failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const extra = parseOutput(r.stdout);
  let peakRssMb = extra.peakRssMb ?? Number.NaN;
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  if (m) peakRssMb = Number(m[1]) / 1024;
  const user = /User time \(seconds\): ([\d.]+)/.exec(r.stderr);
  const sys = /System time \(seconds\): ([\d.]+)/.exec(r.stderr);
  const cpuMs = user && sys ? (Number(user[1]) + Number(sys[1])) * 1000 : (extra.cpuMs ?? Number.NaN);
  return {
    ...extra,
    wallMs: Math.round(wallMs),
    cpuMs: Math.round(cpuMs),
    peakRssMb: Math.round(peakRssMb * 10) / 10,
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const dir = mkdtempSync(path.join(tmpdir(), "retrace-bench-parse-log-"));
try {
  const logFile = path.join(dir, "ci.log");
  const gen = await generate(logFile);
  const size = statSync(logFile).size;
  console.log(
    JSON.stringify({ step: "generate", file: logFile, mb: round1(size / 1048576), lines: gen.lines }),
  );

  // The streaming parser, bundled with esbuild as a release would ship it, so the figure is the
  // parser's and not tsx's on-the-fly compilation. The CLI run below goes through tsx, as `retrace` does.
  const entry = path.join(dir, "stream-entry.ts");
  const child = path.join(dir, "stream.mjs");
  writeFileSync(
    entry,
    `import { createReadStream } from "node:fs";
import { parseChunks } from ${JSON.stringify(path.join(root, "src/logs/index.ts"))};
const t0 = performance.now();
const r = await parseChunks(createReadStream(process.argv[2], { encoding: "utf8", highWaterMark: 1 << 14 }));
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ parseMs: Math.round(performance.now() - t0), cpuMs: Math.round((cpu.user + cpu.system) / 1000), failures: r.failures.length, tests: r.tests.length, droppedFailures: r.dropped.failures, formats: r.formats, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
`,
  );
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: child,
    logLevel: "error",
  });
  const streaming = measure([child, logFile], (stdout) => {
    const o = JSON.parse(stdout);
    return {
      parseMs: o.parseMs,
      failures: o.failures,
      tests: o.tests,
      droppedFailures: o.droppedFailures,
      peakRssMb: o.maxRssMb,
    };
  });
  console.log(JSON.stringify({ step: "streaming-parser", ...streaming }));

  // The CLI as `npm run setup` leaves it (bin/retrace.mjs runs the compiled build/cli when it is fresh;
  // through tsx it costs ~100 MB and ~0.5 s more, see scripts/cli-build.mjs). Its stdout is a pipe read by
  // this process, so the JSON is written against back-pressure.
  spawnSync(process.execPath, [path.join(root, "scripts/cli-build.mjs")], { cwd: root, stdio: "ignore" });
  const cli = measure([path.join(root, "bin/retrace.mjs"), "parse-log", logFile, "--json"], (stdout) => {
    const o = JSON.parse(stdout);
    return { failures: o.failures.length, tests: o.tests.length, droppedFailures: o.dropped.failures };
  });
  console.log(JSON.stringify({ step: "cli", ...cli }));

  console.log(
    JSON.stringify({
      bench: "parse-log",
      logMb: round1(size / 1048576),
      lines: gen.lines,
      streamingWallMs: streaming.wallMs,
      streamingCpuMs: streaming.cpuMs,
      streamingParseMs: streaming.parseMs,
      streamingPeakRssMb: streaming.peakRssMb,
      cliWallMs: cli.wallMs,
      cliCpuMs: cli.cpuMs,
      cliPeakRssMb: cli.peakRssMb,
      failures: streaming.failures,
      failuresPresent: gen.expectedFailures,
      droppedFailures: streaming.droppedFailures,
      tests: streaming.tests,
      targets: { wallMs: 1500, peakRssMb: 200 },
      streamingWithinTargets: streaming.wallMs <= 1500 && streaming.peakRssMb <= 200,
      cliWithinTargets: cli.wallMs <= 1500 && cli.peakRssMb <= 200,
      loadAverage1m: round1(loadavg()[0] ?? 0),
      cpus: cpus().length,
    }),
  );
} finally {
  // --keep leaves the generated log for profiling.
  if (!process.argv.includes("--keep")) rmSync(dir, { recursive: true, force: true });
}
