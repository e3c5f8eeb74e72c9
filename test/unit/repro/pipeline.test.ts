/**
 * The pipeline with fake ports (the Sandbox port answers from a list): verdict folding over repeats,
 * the version matrix, install failures, and the three report shapes.
 */
import { describe, expect, it } from "vitest";
import { defaultConfig, RetraceConfig } from "../../../src/config/schema.ts";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { ManualClock } from "../../../src/core/loop-clock.ts";
import { Redactor } from "../../../src/core/redact.ts";
import { localReproOptions } from "../../../src/jobs/pipelines.ts";
import { replayTrace } from "../../../src/jobs/replay.ts";
import { runJob } from "../../../src/jobs/run-job.ts";
import { renderReproReport } from "../../../src/report/repro-report.ts";
import { foldRuns, matchRun, messagesAgree, outputAppears } from "../../../src/repro/match.ts";
import { normalizeText } from "../../../src/repro/normalize.ts";
import type { DependencyInstaller, InstallRequest, ReproPorts } from "../../../src/repro/ports.ts";
import { ReproResult } from "../../../src/repro/result.ts";
import { runRepro } from "../../../src/repro/run-repro.ts";
import { reproductionFile } from "../../../src/repro/script-header.ts";
import type { Sandbox, SandboxRunResult } from "../../../src/core/ports/sandbox.ts";
import { fakeSandbox } from "../../support/fake-sandbox.ts";

const fence = "```";

function run(partial: Partial<SandboxRunResult>): SandboxRunResult {
  return {
    exitCode: 0,
    signal: null,
    stdout: "",
    stderr: "",
    stdoutTruncated: false,
    stderrTruncated: false,
    durationMs: 120,
    files: {},
    stoppedBy: null,
    ...partial,
  };
}

class FakeInstaller implements DependencyInstaller {
  readonly requests: InstallRequest[] = [];
  constructor(private readonly failFor: string | null = null) {}
  async install(req: InstallRequest) {
    this.requests.push(req);
    const failures = req.packages
      .filter((p) => p.name === this.failFor)
      .map((p) => ({ name: p.name, version: p.version, reason: "no such version" }));
    return {
      dir: failures.length ? null : `/cache/${req.packages.map((p) => `${p.name}-${p.version}`).join("+")}`,
      pythonPath: req.ecosystem === "pypi" ? "python-packages" : null,
      installed: failures.length
        ? []
        : req.packages.map((p) => ({ name: p.name, version: p.version ?? "9.9.9" })),
      failures,
      cached: false,
      durationMs: 5,
    };
  }
}

function ports(sandbox: Sandbox, extra: Partial<ReproPorts> = {}): ReproPorts {
  return {
    sandbox,
    installer: new FakeInstaller(),
    model: null,
    clock: new ManualClock(),
    registry: { latestVersion: async () => "7.6.0" },
    transpile: async (code) => code.replace(/: number/g, ""),
    ...extra,
  };
}

const spec = (markdown: string, runs = 3) => ReproJobSpec.parse({ kind: "repro", id: "t", markdown, runs });
const keyErrorReport = `# crash\n\n${fence}python\nd = {}\nprint(d["k"])\n${fence}\n\n${fence}\nTraceback (most recent call last):\n  File "/home/u/x.py", line 2, in <module>\nKeyError: 'k'\n${fence}\n`;
const keyErrorRun = run({
  exitCode: 1,
  stderr: `@@retrace-runtime 3.11.2\nTraceback (most recent call last):\n  File "/workspace/reproduction.py", line 2, in <module>\nKeyError: 'k'\n`,
});

describe("runRepro (fake sandbox)", () => {
  it("REPRODUCED when every run shows the reported exception; runs the script offline with an explicit env", async () => {
    const sb = fakeSandbox(() => keyErrorRun);
    const { result, events } = await runRepro(spec(keyErrorReport), ports(sb));
    expect(ReproResult.parse(result)).toEqual(result);
    expect(result.verdict).toBe("REPRODUCED");
    expect(result.evidence).toMatchObject({
      runs: 3,
      reproducedRuns: 3,
      exceptionType: "KeyError",
      exceptionMessage: "'k'",
      exitCode: 1,
    });
    expect(result.runtime).toEqual({ name: "python", version: "3.11.2", reported: null });
    expect(sb.requests).toHaveLength(3);
    expect(sb.requests[0]!.command.join(" ")).toContain("exec python3 'reproduction.py'");
    // The complete environment of the run: nothing from the host.
    expect(sb.requests[0]!.env).toEqual({
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: "/tmp",
      LANG: "C.UTF-8",
      TZ: "UTC",
      PYTHONUNBUFFERED: "1",
      PYTHONIOENCODING: "utf-8",
      NO_COLOR: "1",
      FORCE_COLOR: "0",
    });
    expect(sb.requests[0]!.limits).toEqual({ timeoutMs: 10_000 });
    expect(sb.requests[0]!.input?.files?.["reproduction.py"]).toBe('d = {}\nprint(d["k"])\n');
    expect(events.map((e) => e.step)).toEqual(["parse", "expectations", "complete", "run"]);
  });

  it("a mix of reproducing and clean runs is PARTIAL with the rate", async () => {
    const sb = fakeSandbox((_r, n) => (n === 1 ? run({ stdout: "ok\n" }) : keyErrorRun));
    const { result } = await runRepro(spec(keyErrorReport), ports(sb));
    expect(result.verdict).toBe("PARTIAL");
    expect(result.summary).toContain("reproduced in 2 of 3 runs");
    expect(result.questions[0]).toMatch(/every time/);
  });

  it("another crash is PARTIAL with the difference spelled out; a clean run is NOT_REPRODUCED", async () => {
    const other = fakeSandbox(() =>
      run({ exitCode: 1, stderr: 'Traceback (most recent call last):\n  File "r.py"\nTypeError: boom\n' }),
    );
    const partial = (await runRepro(spec(keyErrorReport), ports(other))).result;
    expect(partial.verdict).toBe("PARTIAL");
    expect(partial.differences[0]).toBe("reported `KeyError: 'k'`, got `TypeError: boom`");
    const clean = (await runRepro(spec(keyErrorReport), ports(fakeSandbox(() => run({ stdout: "None\n" })))))
      .result;
    expect(clean.verdict).toBe("NOT_REPRODUCED");
  });

  it("runs the latest release too when the report pins an older one, and says where it reproduces", async () => {
    const md = `# t\n\nsemver@5.0.0\n\n${fence}js\nconst semver = require("semver");\nsemver.coerce("1");\n${fence}\n\nIt throws \`TypeError: semver.coerce is not a function\`.\n`;
    const sb = fakeSandbox((req) =>
      req.input?.dir?.includes("5.0.0")
        ? run({
            exitCode: 1,
            stderr:
              "@@retrace-runtime v18.20.4\nTypeError: semver.coerce is not a function\n    at Object.<anonymous> (/workspace/reproduction.cjs:2:8)\n",
          })
        : run({}),
    );
    const installer = new FakeInstaller();
    const { result } = await runRepro(spec(md, 2), ports(sb, { installer }));
    expect(result.verdict).toBe("REPRODUCED");
    expect(installer.requests.map((r) => r.packages)).toEqual([
      [{ name: "semver", version: "5.0.0" }],
      [{ name: "semver", version: "7.6.0" }],
    ]);
    expect(result.matrixSummary).toBe(
      "reproduces on semver@5.0.0; does not on semver@7.6.0 (latest) — fixed upstream",
    );
    expect(result.runtime.version).toBe("18.20.4");
  });

  it("a package that cannot be installed is a reason, not a crash", async () => {
    const md = `# t\n\nnumpy==1.2.0\n\n${fence}python\nimport numpy as np\nprint(np.zeros(2))\n${fence}\n\nprints \`[0. 0.]\`\n`;
    const sb = fakeSandbox(() => run({}));
    const { result } = await runRepro(spec(md), ports(sb, { installer: new FakeInstaller("numpy") }));
    expect(result.verdict).toBe("NEEDS_INFO");
    expect(result.reasons).toEqual(["could not install numpy==1.2.0: no such version"]);
    expect(sb.requests).toHaveLength(0);
  });

  it("a report with nothing runnable asks for code; a stdin reader is not run", async () => {
    const none = (
      await runRepro(spec("# slow\n\nIt is slow after a while."), ports(fakeSandbox(() => run({}))))
    ).result;
    expect(none.verdict).toBe("NEEDS_INFO");
    // The question names what this report lacks (words only: no block, no inline code), not a generic list.
    expect(none.questions[0]).toMatch(
      /^The report describes the problem in words only \(no code block, no inline code/,
    );
    expect(none.questions.length).toBeLessThanOrEqual(3);
    const sb = fakeSandbox(() => run({}));
    const stdin = (
      await runRepro(spec(`# t\n\n${fence}python\nx = input()\nprint(int(x))\n${fence}\n`), ports(sb))
    ).result;
    expect(stdin.verdict).toBe("NEEDS_INFO");
    expect(sb.requests).toHaveLength(0);
  });

  it("transpiles TypeScript before running it and redacts secrets from the output", async () => {
    const md = `# t\n\n${fence}ts\nconst n: number = 1;\nthrow new Error("token ghp_abcdefghijklmnopqrstuvwxyz0123456789");\n${fence}\n\nIt throws \`Error\`.\n`;
    const sb = fakeSandbox(() =>
      run({
        exitCode: 1,
        stderr:
          "Error: token ghp_abcdefghijklmnopqrstuvwxyz0123456789\n    at x (/workspace/reproduction.cjs:2:7)\n",
      }),
    );
    const redactor = new Redactor();
    const { result } = await runRepro(spec(md, 1), ports(sb, { redact: (s) => redactor.redact(s) }));
    expect(sb.requests[0]!.input?.files?.["reproduction.cjs"]).toContain("const n = 1;");
    expect(result.verdict).toBe("REPRODUCED");
    expect(JSON.stringify(result)).not.toContain("ghp_abcdef");
    expect(result.evidence.exceptionMessage).toContain("[REDACTED:github-token]");
  });
});

describe("configuration reaches the runs (repro.*, sandbox.limits)", () => {
  const semverReport = `# t\n\nsemver@5.0.0\n\n${fence}js\nconst semver = require("semver");\nsemver.coerce("1");\n${fence}\n\nIt throws \`TypeError: semver.coerce is not a function\`.\n`;

  it("merges the sandbox limits into every run; the repro run timeout wins over sandbox.limits.timeoutMs", async () => {
    const sb = fakeSandbox(() => keyErrorRun);
    await runRepro(
      spec(keyErrorReport, 2),
      ports(sb, { runTimeoutMs: 45_000, limits: { memoryMb: 256, pids: 64, timeoutMs: 5_000 } }),
    );
    expect(sb.requests.map((r) => r.limits)).toEqual([
      { memoryMb: 256, pids: 64, timeoutMs: 45_000 },
      { memoryMb: 256, pids: 64, timeoutMs: 45_000 },
    ]);
    const only = fakeSandbox(() => keyErrorRun);
    await runRepro(spec(keyErrorReport, 1), ports(only, { limits: { cpus: 0.5, timeoutMs: 7_000 } }));
    expect(only.requests[0]!.limits).toEqual({ cpus: 0.5, timeoutMs: 7_000 });
  });

  it("passes the install timeout to every install, and compareLatest: false runs the reported versions only", async () => {
    const installer = new FakeInstaller();
    const registry = {
      looked: [] as string[],
      async latestVersion(_e: string, name: string) {
        this.looked.push(name);
        return "7.6.0";
      },
    };
    const sb = fakeSandbox(() =>
      run({ exitCode: 1, stderr: "TypeError: semver.coerce is not a function\n" }),
    );
    const { result } = await runRepro(
      spec(semverReport, 1),
      ports(sb, { installer, registry, installTimeoutMs: 42_000, compareLatest: false }),
    );
    expect(installer.requests.map((r) => [r.packages, r.timeoutMs])).toEqual([
      [[{ name: "semver", version: "5.0.0" }], 42_000],
    ]);
    expect(registry.looked).toEqual([]);
    expect(result.matrix.map((m) => m.label)).toEqual(["reported"]);
    expect(result.matrixSummary).toBeNull();
    expect(sb.requests).toHaveLength(1);
  });

  it("runJob (the App/Action path) takes them from .github/retrace.yml, with the documented defaults without one", async () => {
    const sb = fakeSandbox(() => keyErrorRun);
    const job = ReproJobSpec.parse({ kind: "repro", id: "cfg", markdown: keyErrorReport, runs: 1 });
    const config = RetraceConfig.parse({
      repro: { runTimeoutMs: 30_000 },
      sandbox: { limits: { memoryMb: 512, pids: 128 } },
    });
    const withConfig = await runJob(job, { model: null, sandbox: sb, config });
    expect(withConfig.result.verdict).toBe("REPRODUCED");
    expect(sb.requests[0]!.limits).toEqual({ memoryMb: 512, pids: 128, timeoutMs: 30_000 });
    await runJob(job, { model: null, sandbox: sb });
    expect(sb.requests[1]!.limits).toEqual({ timeoutMs: 60_000 });

    const options = localReproOptions(
      {
        model: null,
        config: RetraceConfig.parse({ repro: { installTimeoutMs: 90_000, compareLatest: false } }),
      },
      new Redactor(),
    );
    expect(options).toMatchObject({
      runTimeoutMs: 60_000,
      installTimeoutMs: 90_000,
      compareLatest: false,
      limits: {},
    });
    expect(localReproOptions({ model: null }, new Redactor())).toMatchObject({
      runTimeoutMs: defaultConfig().repro.runTimeoutMs,
      installTimeoutMs: 300_000,
      compareLatest: true,
    });
  });
});

describe("the report as a reader sees it", () => {
  it("hidden code is not run; invisible characters in code are a security note in the result and the report", async () => {
    const md = `# crash\n\n<div hidden>\n\n${fence}python\nimport os\nprint(os.environ)\n${fence}\n\n</div>\n\n${fence}python\nd = {}  # \u2066admin\u2069\nprint(d["k"])\n${fence}\n\n${fence}\nTraceback (most recent call last):\n  File "/home/u/x.py", line 2, in <module>\nKeyError: 'k'\n${fence}\n`;
    const sb = fakeSandbox(() => keyErrorRun);
    const { result, events } = await runRepro(spec(md, 1), ports(sb));
    expect(result.verdict).toBe("REPRODUCED");
    expect(sb.requests[0]!.input?.files).toEqual({
      "reproduction.py": 'd = {}  # \u2066admin\u2069\nprint(d["k"])\n',
    });
    // The verdict says what decided it (issue 12), then the security note.
    expect(result.reasons).toEqual([
      "Decided by: the reported behaviour is `KeyError: 'k'`, taken from the traceback in the report; the report states no expected output.",
      "Security note: the report's code at line 12 contains bidi control characters (kept as written); code with such characters can read differently from how it runs (Trojan Source), so check it before trusting this reproduction.",
    ]);
    expect(renderReproReport(result)).toContain("Security note: the report's code at line 12");
    expect(events[0]!.summary).toContain("hidden text removed: 1 hiddenElements");
    const none = (await runRepro(spec(`# t\n\nIt fails: \`x\u200By\`\n`), ports(sb))).result;
    expect(none.verdict).toBe("NEEDS_INFO");
    expect(none.reasons).toContain(
      "Security note: the report's code at line 3 contains invisible characters (kept as written); code with such characters can read differently from how it runs (Trojan Source), so check it before trusting this reproduction.",
    );
  });
});

describe("matching", () => {
  it("normalizes paths, addresses, line numbers, timestamps and colours", () => {
    expect(
      normalizeText(
        '\u001b[31mFile "/home/a/x.py", line 12\u001b[0m <Foo object at 0x7f3a2b1c> 2024-01-02T03:04:05Z',
      ),
    ).toBe('File "<path>", line <n> <Foo object at 0x<addr>> <time>');
    expect(messagesAgree("'k'", "k")).toBe(true);
    expect(
      messagesAgree(
        "Cannot read properties of undefined",
        "Cannot read properties of undefined (reading 'x')",
      ),
    ).toBe(true);
    expect(outputAppears(["[1, 3]", "done"], "[1, 3]\nmore\ndone\n")).toBe(true);
    expect(outputAppears(["done", "[1, 3]"], "[1, 3]\ndone\n")).toBe(false);
  });
  it("a reported hang matches a timeout; a missing file asks for the file", () => {
    const hang = {
      kind: "hang" as const,
      exceptionType: null,
      exceptionMessage: null,
      output: [],
      source: "x",
    };
    expect(
      matchRun(hang, {
        exitCode: null,
        stoppedBy: "timeout",
        stdout: "",
        stderr: "",
        exception: null,
        durationMs: 1,
      }).kind,
    ).toBe("match");
    const exc = {
      kind: "exception" as const,
      exceptionType: "KeyError",
      exceptionMessage: null,
      output: [],
      source: "x",
    };
    const m = matchRun(exc, {
      exitCode: 1,
      stoppedBy: null,
      stdout: "",
      stderr: "FileNotFoundError: [Errno 2] No such file or directory: 'data.csv'",
      exception: { type: "FileNotFoundError", message: "x" },
      durationMs: 1,
    });
    expect(m.kind).toBe("needs");
    expect(foldRuns([m]).verdict).toBe("NEEDS_INFO");
  });
});

describe("report and reproduction file", () => {
  it("renders the three shapes and a header with date, runtime and packages", async () => {
    const sb = fakeSandbox(() => keyErrorRun);
    const { result } = await runRepro(spec(keyErrorReport), ports(sb));
    const md = renderReproReport(result);
    expect(md).toContain("## Retrace: ✅ Reproduced");
    expect(md).toContain("### Evidence");
    expect(md).toContain("### Reproduction");
    const file = reproductionFile(result, new Date("2025-01-02T00:00:00Z"))!;
    expect(file.filename).toBe("reproduction.py");
    expect(file.content).toMatch(
      /^"""\nReproduction of: crash\nVerdict: REPRODUCED \(3\/3 runs\) on 2025-01-02\nRuntime: Python 3.11.2 \| Packages: standard library only\n/,
    );
    const partial = renderReproReport(
      (
        await runRepro(
          spec(keyErrorReport),
          ports(fakeSandbox(() => run({ exitCode: 1, stderr: "ValueError: v\n" }))),
        )
      ).result,
    );
    expect(partial).toContain("## Retrace: ⚠️ Partly reproduced");
    expect(partial).toContain("**Difference:**");
    expect(partial).toContain("### Questions for the author");
    const needs = renderReproReport((await runRepro(spec("# slow\n\nslow"), ports(sb))).result);
    expect(needs).toContain("## Retrace: ❓ Needs more information");
    expect(needs).toContain("### Questions for the author");
    expect(needs).not.toContain("### Evidence");
  });
});

describe("the deterministic path on the loop engine", () => {
  it("records one trace with the result as its output, and replays to the same transitions and result", async () => {
    const sb = fakeSandbox(() => keyErrorRun);
    const job = ReproJobSpec.parse({ kind: "repro", id: "one-trace", markdown: keyErrorReport, runs: 2 });
    const run = await runJob(job, { model: null, sandbox: sb });
    expect(run.trace.machine).toBe("repro");
    expect(run.trace.steps.map((s) => `${s.state}→${s.next}`)).toEqual([
      "parse→expectations",
      "expectations→complete",
      "complete→run",
      "run→done",
    ]);
    expect(run.trace.steps.every((s) => s.model === null && s.exchanges.length === 0)).toBe(true);
    expect(run.trace.result).toMatchObject({ reason: "completed", output: { verdict: "REPRODUCED" } });
    const replay = await replayTrace(JSON.parse(JSON.stringify(run.trace)), { sandbox: sb });
    expect(replay.divergences).toEqual([]);
    expect(replay.same).toBe(true);
  });

  it("a zero dollar budget does not stop it: the deterministic steps call no model", async () => {
    const job = ReproJobSpec.parse({
      kind: "repro",
      id: "zero",
      markdown: keyErrorReport,
      runs: 1,
      budget: { maxUsd: 0, maxTokens: 0 },
    });
    const { result } = await runRepro(job, ports(fakeSandbox(() => keyErrorRun)));
    expect(result.verdict).toBe("REPRODUCED");
  });
});

describe("a run stopped at the time limit, where the report describes no hang", () => {
  const timedOut = run({ exitCode: null, stoppedBy: "timeout", durationMs: 10_000 });
  it("runs once more alone with twice the time, and the finished run decides", async () => {
    // The three repeats ran side by side and two passed the limit; alone, each finishes.
    const sb = fakeSandbox((_req, i) => (i === 1 || i === 2 ? timedOut : keyErrorRun));
    const progress: string[] = [];
    const { result } = await runRepro(
      spec(keyErrorReport),
      ports(sb, { compareLatest: false, onProgress: (l) => progress.push(l) }),
    );
    expect(result.verdict).toBe("REPRODUCED");
    expect(sb.requests.map((r) => r.limits?.timeoutMs)).toEqual([10_000, 10_000, 10_000, 20_000, 20_000]);
    expect(progress.join("\n")).toMatch(
      /run 2 \(reported versions\) stopped at the time limit \(10 s\) beside the other runs: once more alone with 20 s/,
    );
  });

  it("a run that still does not finish with twice the time is the host's, not a verdict: an infrastructure error (f12ba)", async () => {
    const sb = fakeSandbox(() => ({ ...timedOut, stderr: "@@retrace-runtime 3.11.2\n" }));
    const err = await runRepro(spec(keyErrorReport, 1), ports(sb, { compareLatest: false })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InfrastructureError);
    expect((err as InfrastructureError).message).toMatch(
      /did not finish within the sandbox's time limit .*the report describes no hang: the sandbox ran Python 3\.11/,
    );
    expect((err as InfrastructureError).hint).toMatch(/--timeout SECONDS.*repro\.runTimeoutMs/);
    expect(sb.requests.map((r) => r.limits?.timeoutMs)).toEqual([10_000, 20_000]);
  });

  it("one run still stopped beside runs that showed the claim is no verdict either (never PARTIAL 'intermittent')", async () => {
    // Runs 1 and 3 reproduce; run 2 passes the limit side by side and again alone.
    const sb = fakeSandbox((_req, i) => (i === 1 || i === 3 ? timedOut : keyErrorRun));
    const err = await runRepro(spec(keyErrorReport), ports(sb, { compareLatest: false })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InfrastructureError);
  });

  it("must not fire: a reproducer that repeats until the bug shows ran the whole time without it (NOT_REPRODUCED)", async () => {
    const loop = `# flaky\n\nSometimes it raises RuntimeError:\n\n${fence}python\nimport random\nwhile True:\n    if random.random() > 2:\n        raise RuntimeError('bad')\n${fence}\n`;
    const sb = fakeSandbox(() => timedOut);
    const { result } = await runRepro(spec(loop, 1), ports(sb, { compareLatest: false }));
    expect(result.verdict).toBe("NOT_REPRODUCED");
  });

  const hangReport = `# hangs\n\nThis never finishes, it hangs forever:\n\n${fence}python\nwhile True:\n    pass\n${fence}\n`;
  it("a timeout the report describes as the bug (a hang) is confirmed by one run alone with twice the time", async () => {
    const sb = fakeSandbox(() => timedOut);
    const progress: string[] = [];
    const { result } = await runRepro(
      spec(hangReport, 3),
      ports(sb, { compareLatest: false, onProgress: (l) => progress.push(l) }),
    );
    expect(result.verdict).toBe("REPRODUCED");
    // Three side by side, then one alone: a real hang costs one more run, not three.
    expect(sb.requests.map((r) => r.limits?.timeoutMs)).toEqual([10_000, 10_000, 10_000, 20_000]);
    expect(progress.join("\n")).toMatch(/as a hang would: once more alone with 20 s to confirm it/);
  });

  it("must not fire: a reported hang whose timed-out run finishes alone (the machine's load) is no reproduction", async () => {
    // Side by side on a busy host all three pass the limit; alone, the code ends normally.
    const finished = run({ exitCode: 0, stdout: "done\n", durationMs: 12_000 });
    const sb = fakeSandbox((_req, i) => (i < 3 ? timedOut : finished));
    const { result } = await runRepro(spec(hangReport, 3), ports(sb, { compareLatest: false }));
    expect(result.verdict).not.toBe("REPRODUCED");
    expect(sb.requests.map((r) => r.limits?.timeoutMs)).toEqual([
      10_000, 10_000, 10_000, 20_000, 20_000, 20_000,
    ]);
  });
});

describe("a parse error at a line Retrace wrote (f12m)", () => {
  const report = `# t\n\n${fence}js\nconsole.log(1 + 1);\n${fence}\n\nIt prints \`3\`.\n`;
  const parseErrorAt = (line: string) =>
    fakeSandbox(() =>
      run({
        exitCode: 1,
        stderr: `@@retrace-runtime v18.20.4\n/workspace/reproduction.cjs:3\n${line}\n^\n\nSyntaxError: Identifier '_echo' has already been declared\n`,
      }),
    );

  it("is Retrace's internal error, not NEEDS_INFO blaming the report", async () => {
    await expect(runRepro(spec(report), ports(parseErrorAt("function _echo(value) {")))).rejects.toThrow(
      /does not parse at a line Retrace wrote itself/,
    );
  });

  it("must not fire: the report's own line that does not parse stays NEEDS_INFO", async () => {
    const r = (await runRepro(spec(report), ports(parseErrorAt("console.log(1 + 1);")))).result;
    expect(r.verdict).toBe("NEEDS_INFO");
  });
});
