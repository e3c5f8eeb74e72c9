/**
 * The fifth red team: 60 hostile inputs against Retrace's host side (issue 14), written from the source without
 * reading the earlier waves' cases or attack tests, listed with their class, entry and what "contained or
 * refused" means in redteam5-cases.json. Each case runs on the real code through its real entry:
 *
 * - `cli`: the `retrace` command as a process (RETRACE_HOST_LIMITS malformed);
 * - `action-event`: the Action's `runAction` on a real event file, in a child process (time and peak RSS);
 * - `webhook`: the real App server (Probot, signed webhooks over HTTP) in a child process, its peak RSS read
 *   from /proc, GitHub faked on loopback;
 * - `report`: `retrace repro --offline` on the real Docker engine, host CPU measured with /usr/bin/time;
 * - `log`: `retrace parse-log --json` on ~16 MiB logs, CPU against a plain log of the same size;
 * - `verify`: `retrace verify` on a hostile repository on the real engine;
 * - `pr-body`: the draft PR's body rendered from hostile test ids.
 *
 * No program of a case may write the marker file outside Retrace's directories; a host secret beside the
 * repository must never appear in any output.
 *
 * First try (at 56bcd77, before any fix): 38/60 contained, 22 escapes in 9 classes (redteam5-results.md).
 * After the fixes: 69/69 contained (the 60 and 9 added after the first try).
 * Cases marked `added` were written after the first try: counter-cases (ordinary inputs of each fixed class
 * still accepted) and variants of the classes found.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  createWriteStream,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { sign } from "@octokit/webhooks-methods";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerAvailable } from "../../support/docker.ts";
import { example, SECRET as WEBHOOK_SECRET } from "../../e2e/support/app-harness.ts";

interface Case {
  id: string;
  class: string;
  entry: string;
  input: string;
  contained: string;
  // biome-ignore lint/suspicious/noExplicitAny: each kind reads its own parameters.
  run: Record<string, any> & { kind: string };
}

const CASES = JSON.parse(readFileSync(new URL("./redteam5-cases.json", import.meta.url), "utf8")) as Case[];
const ROOT = path.resolve(".");
const BIN = path.join(ROOT, "bin/retrace.mjs");
const STEP = path.join(ROOT, "test/integration/attacks/redteam5-step.ts");
const WORK = mkdtempSync(path.join(tmpdir(), "retrace-rt5-"));
/** Outside every directory Retrace uses: no hostile input may make anything write it. */
const MARKER = path.join(tmpdir(), `retrace-rt5-marker-${process.pid}`);
const TOKEN = `RT5SECRET${randomBytes(6).toString("hex")}`;
const CACHE = path.join(WORK, "cache");

interface Ran {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
  killed: boolean;
  /** user + system CPU seconds of the process and its children (/usr/bin/time), when measured. */
  cpu: number | null;
}

const CAP = 8 * 1024 * 1024;

function run(
  cmd: string,
  args: string[],
  options: { env?: Record<string, string>; stdin?: string; timeoutMs: number; timed?: boolean },
): Promise<Ran> {
  const timeFile = path.join(WORK, `time-${randomBytes(4).toString("hex")}`);
  const argv = options.timed ? ["-f", "%U %S", "-o", timeFile, cmd, ...args] : args;
  const program = options.timed ? "/usr/bin/time" : cmd;
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(program, argv, {
      env: { ...process.env, ...options.env },
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      if (stdout.length < CAP) stdout += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      if (stderr.length < CAP) stderr += c.toString();
    });
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin ?? "");
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
    }, options.timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      let cpu: number | null = null;
      if (options.timed && existsSync(timeFile)) {
        const m = /([\d.]+) ([\d.]+)\s*$/.exec(readFileSync(timeFile, "utf8"));
        if (m) cpu = Number(m[1]) + Number(m[2]);
      }
      resolve({ code, signal, stdout, stderr, ms: performance.now() - t0, killed, cpu });
    });
  });
}

function retrace(args: string[], options: Parameters<typeof run>[2]): Promise<Ran> {
  return run(process.execPath, [BIN, ...args], options);
}

const BASE_ENV = {
  RETRACE_CACHE_DIR: CACHE,
  npm_config_registry: "http://127.0.0.1:9/",
  PIP_INDEX_URL: "http://127.0.0.1:9/simple",
  RETRACE_HOST_LIMITS: "",
  ANTHROPIC_API_KEY: "",
};

interface Verdict {
  contained: boolean;
  detail: string;
}

const results: Array<{ id: string; class: string; contained: boolean; detail: string }> = [];

function noCrash(r: Ran): string | null {
  if (r.killed) return `killed after ${Math.round(r.ms)} ms`;
  if (/unexpected error|Maximum call stack|heap out of memory|FATAL ERROR/.test(r.stdout + r.stderr))
    return `crashed: ${(r.stderr.match(/.*(unexpected error|Maximum call stack|heap out of memory|FATAL ERROR).*/)?.[0] ?? "").slice(0, 300)}`;
  return null;
}

// ---------- cli ----------

async function cliCase(c: Case): Promise<Verdict> {
  const env: Record<string, string> = { ...BASE_ENV };
  for (const [k, v] of Object.entries(c.run.env as Record<string, unknown>)) {
    env[k] = typeof v === "string" ? v : `reportChars=${" ".repeat(120_000)}x`;
  }
  const r = await retrace(c.run.args, { env, stdin: c.run.stdin, timeoutMs: c.run.maxMs + 10_000 });
  const problems: string[] = [];
  if (!c.run.code.includes(r.code)) problems.push(`exit ${r.code} (${r.stderr.slice(0, 200).trim()})`);
  if (c.run.stdout && !new RegExp(c.run.stdout).test(r.stdout))
    problems.push("stdout lacks the expected text");
  if (c.run.stderr && !new RegExp(c.run.stderr).test(r.stderr))
    problems.push("stderr lacks the expected text");
  if (c.run.stderrMax && r.stderr.length > c.run.stderrMax)
    problems.push(`stderr of ${r.stderr.length} bytes`);
  if (r.ms > c.run.maxMs) problems.push(`${Math.round(r.ms)} ms`);
  return { contained: problems.length === 0, detail: problems.join("; ") || `exit ${r.code}` };
}

// ---------- action event ----------

async function writeStreamed(file: string, parts: Array<string | { repeat: string; bytes: number }>) {
  const out = createWriteStream(file);
  const write = (s: string) =>
    new Promise<void>((ok, ko) => {
      if (out.write(s)) ok();
      else out.once("drain", ok).once("error", ko);
    });
  for (const p of parts) {
    if (typeof p === "string") await write(p);
    else {
      const chunk = p.repeat.repeat(Math.ceil((1 << 20) / p.repeat.length));
      for (let n = 0; n < p.bytes; n += chunk.length) await write(chunk);
    }
  }
  await new Promise<void>((ok) => out.end(ok));
}

async function actionCase(c: Case): Promise<Verdict> {
  const dir = mkdtempSync(path.join(WORK, "event-"));
  let file = path.join(dir, "event.json");
  let name = "issues";
  const MB = 1 << 20;
  switch (c.run.shape) {
    case "huge":
      name = "issue_comment";
      await writeStreamed(file, [
        '{"action":"created","comment":{"body":"/repro ',
        { repeat: "a", bytes: c.run.mb * MB },
        '","user":{"login":"u"}},"sender":{"login":"u"},"issue":{"number":1,"title":"t","body":"b"},"repository":{"full_name":"Codertocat/Hello-World"}}',
      ]);
      break;
    case "fifo":
      execFileSync("mkfifo", [file]);
      break;
    case "normal":
    case "symlink": {
      const event = {
        action: "labeled",
        label: { name: "needs-repro" },
        sender: { login: "u" },
        issue: { number: 1, title: "t", body: "b" },
        repository: { full_name: "Codertocat/Hello-World" },
      };
      writeFileSync(file, JSON.stringify(event));
      if (c.run.shape === "symlink") {
        const link = path.join(dir, "link.json");
        symlinkSync(file, link);
        file = link;
      }
      break;
    }
    case "dispatch-long":
      name = "workflow_dispatch";
      writeFileSync(
        file,
        JSON.stringify({
          inputs: {
            "job-spec": JSON.stringify({ kind: "repro", id: "repro-1", markdown: "a".repeat(2 << 20) }),
          },
          repository: { full_name: "Codertocat/Hello-World" },
        }),
      );
      break;
    case "dev-zero":
      file = "/dev/zero";
      break;
    case "deep":
      await writeStreamed(file, [
        '{"action":"labeled","label":{"name":"needs-repro"},"sender":{"login":"u"},"issue":{"number":1,"title":"t","body":"b","reactions":',
        { repeat: "[", bytes: c.run.levels },
        { repeat: "]", bytes: c.run.levels },
        '},"repository":{"full_name":"Codertocat/Hello-World"}}',
      ]);
      break;
    case "dispatch-huge":
      name = "workflow_dispatch";
      await writeStreamed(file, [
        '{"inputs":{"job-spec":"{\\"kind\\":\\"fix\\",\\"id\\":\\"fix-1\\",\\"log\\":\\"',
        { repeat: "a", bytes: c.run.mb * MB },
        '\\"}"},"repository":{"full_name":"Codertocat/Hello-World"}}',
      ]);
      break;
    case "dispatch-id":
      name = "workflow_dispatch";
      writeFileSync(
        file,
        JSON.stringify({
          inputs: {
            "job-spec": JSON.stringify({
              kind: "repro",
              id: "../../x\n::set-output name=pr-url::https://evil",
              markdown: "# t\n\nb",
            }),
          },
          repository: { full_name: "Codertocat/Hello-World" },
        }),
      );
      break;
  }
  const r = await run(process.execPath, ["--import", "tsx", STEP, "action-event"], {
    env: {
      ...BASE_ENV,
      GITHUB_EVENT_PATH: file,
      GITHUB_EVENT_NAME: name,
      GITHUB_REPOSITORY: "Codertocat/Hello-World",
      RUNNER_TEMP: dir,
    },
    timeoutMs: c.run.maxMs + 15_000,
  });
  rmSync(dir, { recursive: true, force: true });
  const line = r.stdout.trim().split("\n").pop() ?? "";
  let o: { outcome: string; message: string; ms: number; peakMb: number } | null = null;
  try {
    o = JSON.parse(line);
  } catch {}
  if (!o)
    return {
      contained: false,
      detail: `no result (${r.killed ? `killed after ${Math.round(r.ms)} ms` : `exit ${r.code} ${r.signal ?? ""}`}): ${r.stderr.slice(-300)}`,
    };
  const problems: string[] = [];
  if (o.ms > c.run.maxMs) problems.push(`${o.ms} ms`);
  if (o.peakMb > c.run.maxPeakMb) problems.push(`peak RSS ${o.peakMb} MiB`);
  if (c.run.outcomes && !c.run.outcomes.includes(o.outcome)) problems.push(`outcome ${o.outcome}`);
  return {
    contained: problems.length === 0,
    detail: `${problems.join("; ") || "ok"} — ${o.outcome}: ${o.message.slice(0, 160)} (${o.ms} ms, ${o.peakMb} MiB)`,
  };
}

// ---------- webhook ----------

function peakOf(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : -1;
}

async function webhookCase(c: Case): Promise<Verdict> {
  const child = spawn(process.execPath, ["--import", "tsx", STEP, "app-server"], {
    env: { ...process.env, ...BASE_ENV },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const kill = setTimeout(() => child.kill("SIGKILL"), 180_000);
  try {
    const first = await lines.next();
    const { url, pid } = JSON.parse(String(first.value)) as { url: string; pid: number };
    const before = peakOf(pid);
    const hook = `${url}/api/github/webhooks`;
    let status = 0;
    const post = async (event: string, body: string | ReadableStream<Uint8Array>, signature: string) => {
      try {
        const res = await fetch(hook, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-github-event": event,
            "x-github-delivery": randomBytes(8).toString("hex"),
            "x-hub-signature-256": signature,
            "user-agent": "GitHub-Hookshot/test",
          },
          body,
          // undici needs it for a streamed body.
          duplex: "half",
        } as RequestInit);
        status = res.status;
        await res.text().catch(() => "");
      } catch {
        status = 0;
      }
    };
    const MB = 1 << 20;
    switch (c.run.shape) {
      case "unsigned-stream": {
        let sent = 0;
        const chunk = new Uint8Array(MB).fill(97);
        const stream = new ReadableStream<Uint8Array>({
          pull(ctrl) {
            if (sent >= c.run.mb * MB) ctrl.close();
            else {
              sent += MB;
              ctrl.enqueue(chunk);
            }
          },
        });
        await post("issues", stream, `sha256=${"0".repeat(64)}`);
        break;
      }
      case "signed-huge": {
        const p = example("issues", "labeled");
        p.label.name = "needs-repro";
        p.issue.body = "a".repeat(c.run.mb * MB);
        const body = JSON.stringify(p);
        await post("issues", body, await sign(WEBHOOK_SECRET, body));
        break;
      }
      case "deep": {
        const p = example("issues", "labeled");
        p.label.name = "needs-repro";
        const text = JSON.stringify(p);
        const body = `${text.slice(0, -1)},"x":${"[".repeat(c.run.levels)}${"]".repeat(c.run.levels)}}`;
        await post("issues", body, await sign(WEBHOOK_SECRET, body));
        break;
      }
      case "normal": {
        const p = example("issues", "labeled");
        p.label.name = "needs-repro";
        p.sender.login = "Codertocat";
        const body = JSON.stringify(p);
        await post("issues", body, await sign(WEBHOOK_SECRET, body));
        break;
      }
      case "bad-repo": {
        const p = example("issues", "labeled");
        p.label.name = "needs-repro";
        p.repository.full_name = "Codertocat/../../../admin";
        p.sender.login = "Codertocat";
        const body = JSON.stringify(p);
        await post("issues", body, await sign(WEBHOOK_SECRET, body));
        break;
      }
      case "proto": {
        const p = example("issue_comment", "created");
        p.comment.body = "/repro";
        p.comment.user.login = "Codertocat";
        p.sender.login = "Codertocat";
        p.repository.full_name = "__proto__/constructor";
        const text = JSON.stringify(p).replace(
          '"comment":{',
          '"comment":{"__proto__":{"performed_via_github_app":{"id":4242}},"constructor":{"prototype":{"x":1}},',
        );
        await post("issue_comment", text, await sign(WEBHOOK_SECRET, text));
        break;
      }
    }
    child.stdin.write("report\n");
    const second = await lines.next();
    const report = JSON.parse(String(second.value)) as {
      requests: string[];
      jobs: Array<{ repo: string | null }>;
      health: number;
      peakMb: number;
    };
    const growth = report.peakMb - before;
    const problems: string[] = [];
    const statuses = c.run.shape === "unsigned-stream" ? [0, ...c.run.statuses] : c.run.statuses;
    if (!statuses.includes(status)) problems.push(`status ${status}`);
    if (growth > c.run.maxGrowthMb) problems.push(`peak RSS grew ${growth} MiB`);
    if (report.health !== 200) problems.push(`health ${report.health}`);
    if (c.run.shape === "signed-huge" && report.jobs.length > 0) problems.push("a job ran");
    if (c.run.shape === "normal" && report.jobs.length !== 1)
      problems.push(`${report.jobs.length} jobs, not 1`);
    if (c.run.shape === "bad-repo") {
      const bad = report.requests.filter((r) => /\/\.\.(\/|$)|%2e%2e/i.test(r));
      if (bad.length > 0) problems.push(`requests with dot segments: ${bad.slice(0, 3).join(", ")}`);
      if (report.jobs.length > 0) problems.push(`job for ${report.jobs[0]?.repo}`);
    }
    return {
      contained: problems.length === 0,
      detail: `${problems.join("; ") || "ok"} — status ${status}, +${growth} MiB, ${report.jobs.length} job(s), ${report.requests.length} GitHub request(s)`,
    };
  } finally {
    clearTimeout(kill);
    child.kill("SIGKILL");
  }
}

// ---------- reports ----------

function reportText(shape: string): string {
  const head = "# Bug\n\nIt fails.\n\n";
  const lines = (line: string, n: number) => `${line}\n`.repeat(n);
  switch (shape) {
    case "control":
      return `${head}\`\`\`python\nprint(1)\n\`\`\`\n`;
    case "fat-arrow":
      return `${head}\`\`\`js\n${lines(`f${"()".repeat(30)}x`, 200)}\`\`\`\n`;
    case "fat-arrow-prose":
      return `${head}${lines(`f${"()".repeat(30)}x\n`, 200)}`;
    case "deep-annot-js":
      return `${head}\`\`\`js\nconst x = 1\nx // => ${"[".repeat(30_000)}\n\`\`\`\n`;
    case "deep-annot-py":
      return `${head}\`\`\`python\nx = 1\nprint(x)  # => ${'{"a":'.repeat(12_000)}\n\`\`\`\n`;
    case "many-blocks":
      return head + "```python\nprint(1)\n```\n\n".repeat(2_600);
    case "many-imports-py":
      return `${head}\`\`\`python\n${Array.from({ length: 5_000 }, (_, i) => `import m${i}`).join("\n")}\n\`\`\`\n`;
    case "many-requires":
      return `${head}\`\`\`js\n${Array.from({ length: 3_000 }, (_, i) => `require("p${i}")`).join("\n")}\n\`\`\`\n`;
    case "traceback":
      return `${head}\`\`\`\nTraceback (most recent call last):\n${lines('  File "a.py", line 1, in f', 1_000)}ValueError: ${"x".repeat(30_000)}\n\`\`\`\n`;
    case "version-claims":
      return `${head}${"on 3.1, ".repeat(3_000)}\n\nExpected: 1\nActual: 2\n\n\`\`\`python\nprint(2)\n\`\`\`\n`;
    case "controls": {
      const noise = "\u0000\ud800\u001b[31m\u202e\u200b\u0007\u001b]52;c;eA==\u0007";
      return `${head}${noise.repeat(1_500)}\n\`\`\`python\nprint(1)${noise.repeat(200)}\n\`\`\`\n${noise.repeat(1_000)}`;
    }
    case "exception-names":
      return `${head}\`\`\`python\nprint(1)\n\`\`\`\n\nActual:\n\n\`\`\`\n${"A.".repeat(30_000)}Errorx\n\`\`\`\n`;
    case "import-braces":
      return `${head}\`\`\`js\nimport {${"a,".repeat(30_000)}\n\`\`\`\n`;
  }
  throw new Error(`no report shape ${shape}`);
}

let controlReportCpu = 0;

async function reproOf(shape: string): Promise<Ran> {
  const file = path.join(WORK, `report-${shape}.md`);
  const text = reportText(shape);
  if (text.length > 65_536) throw new Error(`report ${shape} is ${text.length} characters`);
  writeFileSync(file, text);
  return retrace(["repro", file, "--offline", "--json", "--runs", "1", "--timeout", "5"], {
    env: BASE_ENV,
    timeoutMs: 240_000,
    timed: true,
  });
}

async function reportCase(c: Case): Promise<Verdict> {
  const r = await reproOf(c.run.shape);
  const crash = noCrash(r);
  const problems: string[] = crash ? [crash] : [];
  if (r.cpu !== null && r.cpu > controlReportCpu + 10)
    problems.push(`host CPU ${r.cpu.toFixed(1)} s (control ${controlReportCpu.toFixed(1)} s)`);
  const verdict = /"verdict":\s*"(\w+)"/.exec(r.stdout)?.[1] ?? `exit ${r.code}`;
  return {
    contained: problems.length === 0,
    detail: `${problems.join("; ") || "ok"} — ${verdict}, CPU ${r.cpu?.toFixed(1)} s, wall ${(r.ms / 1000).toFixed(1)} s`,
  };
}

// ---------- logs ----------

async function logFile(shape: string): Promise<string> {
  const file = path.join(WORK, `log-${shape}.txt`);
  const n = (line: string, count: number) => ({ repeat: `${line}\n`, bytes: (line.length + 1) * count });
  const parts: Parameters<typeof writeStreamed>[1] = [];
  switch (shape) {
    case "control":
      parts.push(n("ok 12 - some test passed in 3 ms with a plain message", 300_000));
      break;
    case "pytest-segments":
      parts.push(n(`FAILED t.py${"::a".repeat(40)} x`, 1_000));
      break;
    case "gradle-suite":
      parts.push(n(`${"S > ".repeat(4_000)}a FAILED`, 1_000));
      break;
    case "surefire-parens":
      parts.push(n(`  ${"a.b(".repeat(4_000)}`, 1_000));
      break;
    case "stack-parens":
      parts.push(n(`    at ${"(".repeat(16_000)}`, 1_000));
      break;
    case "carriage-returns":
      parts.push({ repeat: "progress 10%\r", bytes: 16 << 20 });
      break;
    case "ansi-storm":
      parts.push(n("\u001b[".repeat(8_000), 1_000));
      break;
    case "groups":
      parts.push(n("##[group]x", 500_000));
      break;
    case "go-subtests":
      parts.push(n(`--- FAIL: TestA${"/a".repeat(8_000)} (0.00s)`, 1_000));
      break;
    default:
      throw new Error(`no log shape ${shape}`);
  }
  await writeStreamed(file, parts);
  return file;
}

let controlLogCpu = 0;

async function logCase(c: Case): Promise<Verdict> {
  const file = await logFile(c.run.shape);
  const r = await retrace(["parse-log", file, "--json"], { env: BASE_ENV, timeoutMs: 300_000, timed: true });
  rmSync(file, { force: true });
  const crash = noCrash(r);
  const problems: string[] = crash ? [crash] : [];
  if (r.code !== 0 && r.code !== 1) problems.push(`exit ${r.code}: ${r.stderr.slice(0, 200)}`);
  const bound = controlLogCpu * 3 + 5;
  if (r.cpu === null || r.cpu > bound) problems.push(`CPU ${r.cpu?.toFixed(1)} s > ${bound.toFixed(1)} s`);
  return {
    contained: problems.length === 0,
    detail: `${problems.join("; ") || "ok"} — CPU ${r.cpu?.toFixed(1)} s (control ${controlLogCpu.toFixed(1)} s)`,
  };
}

// ---------- PR body ----------

function outsideCode(markdown: string): string {
  return markdown
    .replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1\s*$/gm, "")
    .split("\n")
    .map((l) => l.replace(/(`+)(?:(?!\1).)+?\1/g, ""))
    .join("\n");
}

async function prBodyCase(c: Case): Promise<Verdict> {
  const r = await run(
    process.execPath,
    [
      "--import",
      "tsx",
      STEP,
      "pr-body",
      JSON.stringify({ tests: c.run.tests, branch: c.run.branch, command: c.run.command }),
    ],
    { timeoutMs: 60_000 },
  );
  const body = (JSON.parse(r.stdout.trim()) as { body: string }).body;
  const plain = outsideCode(body);
  const problems: string[] = [];
  if (/^# INJECTED/m.test(body)) problems.push("a test id started a heading");
  if (plain.includes("<!--")) problems.push("`<!--` outside code");
  if (plain.includes("@evil-org")) problems.push("a mention outside code");
  if (!body.includes("A human must review")) problems.push("the review notice is missing");
  for (const text of (c.run.mustContain ?? []) as string[])
    if (!body.includes(text)) problems.push(`the body lacks ${text}`);
  return { contained: problems.length === 0, detail: problems.join("; ") || "ok" };
}

// ---------- verify ----------

const BASE_FILES: Record<string, string> = {
  "src/__init__.py": "",
  "src/a.py": "def f():\n    return 1\n",
  "tests/__init__.py": "",
  "tests/test_a.py": "from src.a import f\n\n\ndef test_f():\n    assert f() == 2\n",
};
const PATCH = "--- a/src/a.py\n+++ b/src/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n";

function writeRepo(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
}

async function verifyCase(c: Case): Promise<Verdict> {
  const dir = mkdtempSync(path.join(WORK, "repo-"));
  const outside = mkdtempSync(path.join(WORK, "host-"));
  writeRepo(dir, BASE_FILES);
  const secretFile = path.join(outside, "secret");
  let docker = true;
  let test: string | null = "python3 -m pytest -q tests";
  switch (c.run.shape) {
    case "deep": {
      const rel = Array.from({ length: c.run.depth }, () => "d").join("/");
      mkdirSync(path.join(dir, rel), { recursive: true });
      writeFileSync(path.join(dir, rel, "f.txt"), "x");
      break;
    }
    case "deep-long": {
      let at = dir;
      for (let i = 0; i < c.run.depth; i++) {
        // Relative steps: the absolute path passes PATH_MAX, so no single call may name it whole.
        execFileSync("mkdir", ["d".repeat(200)], { cwd: at });
        at = path.join(at, "d".repeat(200));
        if (at.length > 3_000) {
          // Keep going from a short alias of the current directory.
          const alias = mkdtempSync(path.join(WORK, "alias-"));
          rmSync(alias, { recursive: true });
          execFileSync("ln", ["-s", at, alias]);
          at = alias;
        }
      }
      break;
    }
    case "deep-wide": {
      const rel = Array.from({ length: c.run.depth }, () => "d").join("/");
      mkdirSync(path.join(dir, rel), { recursive: true });
      execFileSync("bash", ["-c", `seq 1 ${c.run.count} | xargs touch`], { cwd: path.join(dir, rel) });
      break;
    }
    case "overrides-deep": {
      let o: unknown = "git+https://127.0.0.1:9/x.git";
      for (let i = 0; i < c.run.depth; i++) o = { [`p${i}`]: o };
      writeFileSync(
        path.join(dir, "package.json"),
        JSON.stringify({ name: "x", version: "1.0.0", dependencies: { p0: "1.0.0" }, overrides: o }),
      );
      test = "node -e 0";
      break;
    }
    case "many-files": {
      mkdirSync(path.join(dir, "many"));
      execFileSync("bash", ["-c", `cd many && seq 1 ${c.run.count} | xargs touch`], { cwd: dir });
      break;
    }
    case "odd-names": {
      const names = [
        "new\nline",
        "esc\u001b[31mred",
        "-rf",
        "--help",
        "a".repeat(255),
        '$(touch "$RT5_MARKER")',
        "`touch x`",
      ];
      for (const n of names) writeFileSync(path.join(dir, n), "x");
      // A lone 0xff byte: not UTF-8.
      execFileSync("bash", ["-c", "touch $'\\xff-byte'"], { cwd: dir });
      break;
    }
    case "link": {
      const secret = String(c.run.secret).replaceAll("SECRET", TOKEN);
      writeFileSync(secretFile, secret);
      const at = path.join(dir, c.run.path);
      mkdirSync(path.dirname(at), { recursive: true });
      rmSync(at, { force: true });
      if (c.run.link === "hard") linkSync(secretFile, at);
      else symlinkSync(secretFile, at);
      if (c.run.path.includes("retrace.yml")) docker = false;
      break;
    }
    case "lock-v1-deep": {
      let deps = "{}";
      for (let i = 0; i < c.run.depth; i++)
        deps = `{"a":{"version":"1.0.0","resolved":"http://127.0.0.1:9/a/-/a-1.0.0.tgz","integrity":"sha512-${"A".repeat(86)}==","dependencies":${deps}}}`;
      writeFileSync(
        path.join(dir, "package.json"),
        JSON.stringify({ name: "x", version: "1.0.0", dependencies: { a: "1.0.0" } }),
      );
      writeFileSync(
        path.join(dir, "package-lock.json"),
        `{"name":"x","version":"1.0.0","lockfileVersion":1,"requires":true,"dependencies":${deps}}`,
      );
      test = "node -e 0";
      break;
    }
    case "lock-wide": {
      const packages: Record<string, unknown> = {
        "": { name: "x", version: "1.0.0", dependencies: { p0: "1.0.0" } },
      };
      for (let i = 0; i < c.run.count; i++)
        packages[`node_modules/p${i}`] = {
          version: "1.0.0",
          resolved: `http://127.0.0.1:9/p${i}/-/p${i}-1.0.0.tgz`,
          integrity: `sha512-${"A".repeat(86)}==`,
        };
      writeFileSync(
        path.join(dir, "package.json"),
        JSON.stringify({ name: "x", version: "1.0.0", dependencies: { p0: "1.0.0" } }),
      );
      writeFileSync(
        path.join(dir, "package-lock.json"),
        JSON.stringify({ name: "x", version: "1.0.0", lockfileVersion: 3, requires: true, packages }),
      );
      test = "node -e 0";
      break;
    }
    case "lock-control-name": {
      const evil = "--registry=http:/127.0.0.1:9/\nx";
      writeFileSync(
        path.join(dir, "package.json"),
        JSON.stringify({
          name: "x",
          version: "1.0.0",
          dependencies: { [evil]: "1.0.0", "a\u0000b": "1.0.0" },
        }),
      );
      writeFileSync(
        path.join(dir, "package-lock.json"),
        JSON.stringify({
          name: "x",
          version: "1.0.0",
          lockfileVersion: 3,
          requires: true,
          packages: {
            "": { name: "x", version: "1.0.0", dependencies: { [evil]: "1.0.0" } },
            [`node_modules/${evil}`]: {
              version: "1.0.0",
              resolved: "http://127.0.0.1:9/x/-/x-1.0.0.tgz",
              integrity: `sha512-${"A".repeat(86)}==`,
            },
          },
        }),
      );
      test = "node -e 0";
      break;
    }
    case "req-continuation":
      writeFileSync(path.join(dir, "requirements.txt"), "a==1 \\\n".repeat(c.run.lines) + "b==2\n");
      break;
    case "req-options":
      writeFileSync(
        path.join(dir, "requirements.txt"),
        [
          "--index-url=http://127.0.0.1:9/",
          "-e .",
          "x @ file:///etc",
          "--pre",
          "\uff52\uff45\uff51\uff55\uff45\uff53\uff54\uff53",
          "a\u0000b",
        ].join("\n"),
      );
      break;
    case "config": {
      const text =
        c.run.config === "long-key"
          ? `${"k".repeat(60_000)}: 1\n`
          : "__proto__:\n  repro:\n    runs: 10\nsandbox:\n  __proto__:\n    image: evil:1\n";
      writeRepo(dir, { ".github/retrace.yml": text });
      if (c.run.config === "long-key") docker = false;
      break;
    }
  }
  const patchFile = path.join(WORK, `patch-${c.id}.diff`);
  writeFileSync(patchFile, PATCH);
  const args = ["verify", "--repo", dir, "--patch", patchFile, "--runs", "1", "--timeout", "60", "--json"];
  if (test) args.push("--test", test);
  const r = await retrace(args, {
    env: {
      ...BASE_ENV,
      // Only a shell on the host expanding a file name would use it: the sandbox's environment is empty.
      RT5_MARKER: MARKER,
      ...(docker ? {} : { DOCKER_HOST: "unix:///nonexistent/docker.sock" }),
    },
    timeoutMs: c.run.maxMs + 30_000,
  });
  const problems: string[] = [];
  const crash = noCrash(r);
  if (crash) problems.push(crash);
  if (r.ms > c.run.maxMs) problems.push(`${Math.round(r.ms / 1000)} s`);
  if ((r.stdout + r.stderr).includes(TOKEN)) problems.push("the host secret appears in the output");
  if (/tar exited null/.test(r.stdout + r.stderr)) problems.push("`tar exited null`");
  if (c.run.stderrMax && r.stderr.length > c.run.stderrMax)
    problems.push(`stderr of ${r.stderr.length} bytes`);
  if (c.run.mustMatch && !new RegExp(c.run.mustMatch).test(r.stdout + r.stderr))
    problems.push(`the output does not say ${c.run.mustMatch}`);
  if (
    c.run.shape === "config" &&
    c.run.config === "proto" &&
    /evil:1/.test(r.stdout + r.stderr) &&
    !/not allowed|refus/i.test(r.stdout + r.stderr)
  )
    problems.push("the image evil:1 was taken from a __proto__ key");
  execFileSync("rm", ["-rf", dir, outside]);
  const verdict =
    /"verdict":\s*"(\w+)"/.exec(r.stdout)?.[1] ??
    `exit ${r.code}: ${r.stderr.trim().split("\n").slice(-2).join(" ").slice(0, 240)}`;
  return {
    contained: problems.length === 0,
    detail: `${problems.join("; ") || "ok"} — ${verdict} (${(r.ms / 1000).toFixed(1)} s)`,
  };
}

// ---------- the suite ----------

const RUNNERS: Record<string, (c: Case) => Promise<Verdict>> = {
  cli: cliCase,
  "action-event": actionCase,
  webhook: webhookCase,
  report: reportCase,
  log: logCase,
  "pr-body": prBodyCase,
  verify: verifyCase,
};

const needsDocker = new Set(["report", "verify"]);
const only = process.env.RT5_ONLY ? new RegExp(process.env.RT5_ONLY) : null;

describe("fifth red team: hostile inputs against the host side", () => {
  beforeAll(async () => {
    rmSync(MARKER, { force: true });
    if (!only || only.test("log")) {
      const file = await logFile("control");
      const r = await retrace(["parse-log", file, "--json"], {
        env: BASE_ENV,
        timeoutMs: 300_000,
        timed: true,
      });
      controlLogCpu = r.cpu ?? 0;
    }
    if (dockerAvailable && (!only || only.test("rp-"))) {
      // Twice: the first run also compiles the CLI and warms the image.
      await reproOf("control");
      controlReportCpu = (await reproOf("control")).cpu ?? 0;
    }
  }, 600_000);

  afterAll(() => {
    const summary = results.map(
      (r) => `${r.contained ? "contained" : "ESCAPE   "} ${r.id} [${r.class}] ${r.detail}`,
    );
    const n = results.filter((r) => r.contained).length;
    process.stdout.write(`\nredteam5: ${n}/${results.length} contained\n${summary.join("\n")}\n`);
    if (process.env.RT5_RESULTS) writeFileSync(process.env.RT5_RESULTS, JSON.stringify(results, null, 1));
    execFileSync("rm", ["-rf", WORK]);
  });

  it("has at least 40 cases, each with a class, an entry and what contained means", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    for (const c of CASES) {
      expect(c.class && c.entry && c.input && c.contained).toBeTruthy();
      expect(RUNNERS[c.run.kind]).toBeDefined();
    }
    expect(new Set(CASES.map((c) => c.id)).size).toBe(CASES.length);
  });

  for (const c of CASES) {
    if (only && !only.test(c.id)) continue;
    const skip = needsDocker.has(c.run.kind) && !dockerAvailable;
    it.skipIf(skip)(
      `${c.id} [${c.class}] via ${c.entry}`,
      async () => {
        const v = await RUNNERS[c.run.kind]!(c);
        results.push({ id: c.id, class: c.class, ...v });
        expect(existsSync(MARKER), "the marker file appeared").toBe(false);
        expect(v.contained, v.detail).toBe(true);
      },
      600_000,
    );
  }
});
