/**
 * Webhook acknowledgement under load: the real App server (Probot middleware, signature check, de-dup and
 * job records in the SQLite store) on loopback, fed signed webhooks at a fixed rate (open loop: each request
 * is timed from its scheduled send time). 1 in 10 deliveries starts a job (label `needs-repro`), which runs
 * from the queue against the fake GitHub; the rest are events Retrace ignores after verifying them.
 * Usage: npm run bench -- webhooks [--rate 200] [--seconds 30]
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { example, postWebhook, startApp } from "../test/e2e/support/app-harness.ts";
import { startFakeGitHub } from "../test/e2e/support/fake-github.ts";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "200" },
    seconds: { type: "string", default: "30" },
    server: { type: "boolean", default: false },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);

/** Child process: the fake GitHub and the real App server; prints the App's URL, reports on stdin close. */
async function serve(): Promise<void> {
  const github = await startFakeGitHub();
  for (let r = 0; r < 2000; r++) {
    github.state.issues.set(`Codertocat/Hello-World-${r}#1`, { title: "KeyError", body: "Traceback" });
    // A label starts a job only for a labeller with write permission (read through the API, like a command).
    github.state.permissions.set(`Codertocat/Hello-World-${r}:Codertocat`, "write");
  }
  const app = await startApp(
    github,
    async (spec) => ({
      jobId: spec.id,
      kind: spec.kind,
      outcome: "succeeded",
      verdict: "REPRODUCED",
      summary: "bench",
      patch: null,
      failures: [],
      costUsd: 0,
      tokens: 0,
      attempts: 1,
      durationMs: 1,
    }),
    { env: { RETRACE_CONCURRENCY: "4" } },
  );
  process.stdout.write(`${JSON.stringify({ url: app.url })}\n`);
  process.stdin.resume();
  process.stdin.on("end", async () => {
    await app.service.idle();
    const jobsCompleted = app.store.all().filter((j) => j.state === "completed").length;
    await app.close();
    await github.close();
    process.stdout.write(`${JSON.stringify({ jobsCompleted })}\n`);
    process.exit(0);
  });
}

// A fresh repository per 15 jobs keeps the per-day job limit out of the measurement.
let jobs = 0;
function payloadFor(i: number): { event: string; payload: unknown } {
  if (i % 10 === 0) {
    const p = example("issues", "labeled");
    p.label.name = "needs-repro";
    p.repository.full_name = `Codertocat/Hello-World-${Math.floor(jobs++ / 15)}`;
    return { event: "issues", payload: p };
  }
  const p = example("issue_comment", "created");
  p.comment.body = `Thanks! (${i})`;
  return { event: "issue_comment", payload: p };
}

/** Parent process: the load generator, timing each request from its scheduled send time. */
async function load(): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/f-prof2"] : []),
      "--import",
      "tsx",
      fileURLToPath(import.meta.url),
      "--server",
    ],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  const { url } = JSON.parse(String(first.value)) as { url: string };
  const target = { url };
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let errors = 0;
  const statuses: Record<string, number> = {};
  const start = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((ok) => setTimeout(ok, wait));
    const { event, payload } = payloadFor(i);
    inflight.push(
      postWebhook(target, event, payload, { delivery: randomUUID() })
        .then(async (res) => {
          await res.arrayBuffer();
          latencies.push(performance.now() - due);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (res.status !== 200) errors++;
        })
        .catch(() => {
          errors++;
        }),
    );
    if ((i + 1) % (rate * 5) === 0) {
      console.log(
        JSON.stringify({
          phase: "progress",
          sent: i + 1,
          elapsedS: +((performance.now() - start) / 1000).toFixed(1),
        }),
      );
    }
  }
  await Promise.all(inflight);
  const elapsed = (performance.now() - start) / 1000;
  child.stdin!.end();
  const report = await iterator.next();
  const { jobsCompleted: jobsDone } = JSON.parse(String(report.value)) as { jobsCompleted: number };
  // The bench measures intake that starts jobs: if the label deliveries stop becoming completed jobs, the
  // figure no longer measures what it says, and the bench fails instead of reporting it.
  const jobsExpected = Math.ceil(total / 10);
  const didTheWork = jobsDone === jobsExpected;
  if (!didTheWork) {
    process.stderr.write(
      `webhooks bench: ${jobsDone} of ${jobsExpected} label deliveries became completed jobs: the intake refused work it should run\n`,
    );
    process.exitCode = 1;
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    +(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0).toFixed(2);
  console.log(
    JSON.stringify({
      bench: "webhooks",
      rate,
      seconds,
      requests: total,
      achievedRps: +(total / elapsed).toFixed(1),
      p50Ms: pct(50),
      p90Ms: pct(90),
      p99Ms: pct(99),
      maxMs: pct(100),
      errors,
      statuses,
      jobsCompleted: jobsDone,
      jobsExpected,
      goal: "p99 <= 50 ms, no errors, every label delivery a completed job",
      met: pct(99) <= 50 && errors === 0 && didTheWork,
    }),
  );
}

if (values.server) {
  await serve();
} else {
  await load();
}
