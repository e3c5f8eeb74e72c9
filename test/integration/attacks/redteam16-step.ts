/**
 * Host-side steps of the sixteenth red team's cases, run in a process of their own
 * (`tsx redteam16-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Where wave 15 went to the App's and the Action's inputs and outputs, this wave goes to what a MODEL returns (a
 * fake Messages API on loopback answering the real Anthropic adapter: usage counts that are not counts, a body
 * of hundreds of MiB, content of the wrong shape, deeply nested tool input), to a trace an attacker edited and
 * `retrace replay` re-runs, to the test reports a run writes and the host parses (jest JSON and JUnit XML: test
 * names built to make the id de-duplication quadratic, deep nesting, entities, huge numbers), and to the gaps
 * docs/security.md leaves (the braille blank and variation selectors in an added line). One JSON line per case:
 * `{ id, cpuMs, outcome, contained }` — `contained` is the case's own verdict, null when only the runner's checks
 * (marker, token, host CPU) decide.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { z } from "zod";
import { BudgetMeter } from "../../../src/core/budget.ts";
import { Budget, JobSpec } from "../../../src/core/job.ts";
import { systemClock } from "../../../src/core/loop-clock.ts";
import type { ModelRequest } from "../../../src/core/ports/model.ts";
import { readResults } from "../../../src/fix/test-runner/results.ts";
import { replayTrace } from "../../../src/jobs/replay.ts";
import { runJob } from "../../../src/jobs/run-job.ts";
import { createAnthropicModel } from "../../../src/llm/anthropic.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { type Outcome, ok, runStepCases } from "./wave-step.ts";
import { modelMessage } from "./model-message.ts";
import { gateLine as gate } from "./patch-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");
const short = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n)}…` : s);

// ---- The model: a fake Messages API on loopback answering the real adapter.

/** Serves `body` (a string, or a function writing the response) to every request; returns its base URL. */
async function fakeApi(
  answer: (res: http.ServerResponse) => void,
): Promise<{ url: string; hits: () => number; close: () => void }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    req.resume();
    req.on("end", () => answer(res));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const json = (body: unknown) => (res: http.ServerResponse) => {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(200, { "content-type": "application/json", "request-id": "req_rt16" });
  res.end(text);
};

const message = (over: Record<string, unknown> = {}) => modelMessage({ id: "msg_rt16", ...over });

const READ_FILE = {
  name: "read_file",
  description: "Read a file",
  input: z.object({ path: z.string() }),
};

const request = (): ModelRequest => ({
  model: "claude-sonnet-4-5",
  system: "You fix bugs.",
  messages: [{ role: "user", content: "Fix it." }],
  tools: [READ_FILE],
});

/** One answer through the adapter, charged to a job's meter as the loop charges it (100 tokens, $0.01: an honest 20-token answer ends it at the fifth). */
async function answer(answerWith: (res: http.ServerResponse) => void): Promise<{
  error?: string;
  kind?: string;
  tokens?: number;
  usd?: number;
  exhausted?: string | null;
  text?: number;
  rssMb: number;
}> {
  const api = await fakeApi(answerWith);
  try {
    const model = createAnthropicModel({
      apiKey: "sk-ant-rt16",
      baseURL: api.url,
      retry: { maxRetries: 1, baseDelayMs: 10, timeoutMs: 20_000, maxTotalMs: 30_000 },
    });
    const meter = new BudgetMeter(Budget.parse({ maxTokens: 100, maxUsd: 0.01 }), systemClock);
    try {
      for (let i = 0; i < 20; i++) {
        const res = await model.complete(request());
        meter.charge(res.usage, res.costUsd);
        JSON.stringify(res);
        if (meter.exhausted()) break;
        if (i === 0 && res.text.length > 1_000_000)
          return { text: res.text.length, tokens: meter.tokens, rssMb: rss() };
      }
      return { tokens: meter.tokens, usd: meter.costUsd, exhausted: meter.exhausted(), rssMb: rss() };
    } catch (e) {
      return {
        error: short((e as Error).message),
        kind: (e as { kind?: string }).kind ?? (e as Error).constructor.name,
        rssMb: rss(),
      };
    }
  } finally {
    api.close();
  }
}
const rss = () => Math.round(process.memoryUsage().rss / 2 ** 20);

/** Budget cases: contained when the answers end the job on its token or dollar bound, or are refused as a model error. */
async function usage(u: unknown): Promise<Outcome> {
  const r = await answer(json(message({ usage: u })));
  if (r.error) return ok(`refused (${r.kind}): ${r.error}`, r.kind === "model");
  return ok(
    `20 answers charged: tokens ${r.tokens}, $${r.usd}, budget exhausted: ${r.exhausted ?? "never"}`,
    r.exhausted !== null,
  );
}

/** Shape cases: contained when a malformed answer is a model error (retried/refused), never a crash of another kind. */
async function shape(body: unknown): Promise<Outcome> {
  const r = await answer(json(body));
  if (r.error) return ok(`refused (${r.kind}): ${r.error}`, r.kind === "model");
  return ok(`accepted: tokens ${r.tokens}, exhausted ${r.exhausted}`, false);
}

/**
 * A huge answer, streamed in 1 MiB chunks (the fake server holds one chunk, so the process's memory is the
 * adapter's): contained when refused before the process passes 400 MiB resident.
 */
async function huge(mb: number, prefix: string, fill: string, suffix: string): Promise<Outcome> {
  const chunk = Buffer.from(fill.repeat((1 << 20) / fill.length));
  const r = await answer((res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write(prefix);
    let left = mb;
    const more = () => {
      while (left > 0) {
        left--;
        if (!res.write(chunk)) return void res.once("drain", more);
      }
      res.end(suffix);
    };
    res.on("error", () => {});
    more();
  });
  const peak = Math.round(process.resourceUsage().maxRSS / 1024);
  if (r.error) return ok(`refused (${r.kind}) at ${peak} MiB peak rss: ${r.error}`, peak < 400);
  return ok(`accepted a ${mb} MiB answer (text ${r.text ?? "?"} chars), ${peak} MiB peak rss`, false);
}

// ---- A trace an attacker edited, through `retrace replay` (the function its command calls, and the CLI).

/** A real trace: the repro job of a report with no code, run once (no model, no engine), to be edited. */
async function realTrace(): Promise<Record<string, unknown>> {
  const spec = JobSpec.parse({
    kind: "repro",
    id: "rt16-replay",
    markdown: "# Nothing to run\n\nIt is broken. No code here.",
    runs: 1,
    model: null,
  });
  const run = await runJob(spec, { model: null } as never);
  return JSON.parse(JSON.stringify(run.trace)) as Record<string, unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: an attacker edits any field of a trace, whatever its type
async function traceOf(edit: (t: Record<string, any>) => void): Promise<Record<string, unknown>> {
  const t = await realTrace();
  edit(t);
  return t;
}

const nestedArrays = (depth: number): unknown => {
  let v: unknown = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};
const nestedText = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

async function replay(trace: unknown): Promise<Outcome> {
  try {
    const r = await replayTrace(trace, {});
    return ok(`replayed: same ${r.same}, ${r.divergences.length} divergences`, true);
  } catch (e) {
    const err = e as Error & { kind?: string };
    const named = err.kind !== undefined;
    return ok(
      `${named ? `refused (${err.kind})` : `crashed (${err.constructor.name})`}: ${short(err.message)}`,
      named,
    );
  }
}

/** The real `retrace replay` CLI on a trace file (piped output): its exit and what it printed. */
function replayCli(trace: string, args: string[] = []): { status: number | null; out: string; err: string } {
  const file = path.join(dir, "trace.json");
  writeFileSync(file, trace);
  const r = spawnSync("node", [path.join(REPO, "bin/retrace.mjs"), "replay", file, ...args], {
    encoding: "utf8",
    timeout: 120_000,
    maxBuffer: 1 << 28,
    env: { ...process.env, ANTHROPIC_API_KEY: "", RETRACE_CLI_FROM_SOURCE: "1" },
  });
  return { status: r.status, out: r.stdout ?? "", err: r.stderr ?? "" };
}

// ---- The run's test reports, as the host parses them (what `verify`/`fix` read back from the run container).

function results(format: string, text: string): Outcome {
  const t = Date.now();
  try {
    const tests = readResults(format, text);
    return ok(`${tests.length} tests read in ${Date.now() - t} ms`, null);
  } catch (e) {
    const err = e as Error & { kind?: string };
    const named = err.kind !== undefined;
    return ok(
      `${named ? `refused (${err.kind})` : `crashed (${err.constructor.name})`} after ${Date.now() - t} ms: ${short(err.message)}`,
      named,
    );
  }
}

/** `n` jest assertions titled `x` and `n` more titled `x#2`…`x#n+1`: every duplicate's new id is searched past the literals. */
function jestTwins(n: number): string {
  const a: unknown[] = [];
  for (let i = 0; i < n; i++) a.push({ ancestorTitles: [], title: "x", status: "passed" });
  for (let i = 2; i <= n + 1; i++) a.push({ ancestorTitles: [], title: `x#${i}`, status: "passed" });
  return JSON.stringify({ testResults: [{ name: "/workspace/t.test.js", assertionResults: a }] });
}

// ---- The gate on what docs/security.md left (a model's patch).

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // Usage counts that are not counts: the job's token and dollar bounds must still end it.
  "model-usage-nan-string-tokens": () => usage({ input_tokens: "many", output_tokens: "many" }),
  "model-usage-negative-tokens": () => usage({ input_tokens: -1e15, output_tokens: 10 }),
  "model-usage-null-tokens": () => usage({ input_tokens: null, output_tokens: null }),
  "model-usage-infinite-cache-credit": () =>
    usage({ input_tokens: 5_000, output_tokens: 5_000, cache_read_input_tokens: -1e300 }),
  "model-usage-overflow-to-infinity": () => usage({ input_tokens: 1e308, output_tokens: 1e308 }),
  "model-usage-missing": () => shape(message({ usage: undefined })),
  // Content of the wrong shape: a model error (retried or refused), never a TypeError out of the adapter.
  "model-content-object-not-array": () => shape(message({ content: { type: "text", text: "x" } })),
  "model-content-null": () => shape(message({ content: null })),
  "model-tool-use-without-input": () =>
    shape(message({ content: [{ type: "tool_use", id: "t1", name: "read_file" }], stop_reason: "tool_use" })),
  "model-answer-json-array": () => shape([message()]),
  // A tool input nested 200,000 levels: JSON.parse takes it; what reads it after must not overflow the stack.
  "model-tool-input-deep-nesting": async () => {
    const body = JSON.stringify(message({ content: [], stop_reason: "tool_use" })).replace(
      '"content":[]',
      `"content":[{"type":"tool_use","id":"t1","name":"read_file","input":{"path":"a","x":${nestedText(200_000)}}}]`,
    );
    const r = await answer(json(body));
    if (r.error) return ok(`refused (${r.kind}): ${r.error}`, r.kind === "model");
    return ok(`accepted, ${r.tokens} tokens`, true);
  },
  // Answers of hundreds of MiB: the adapter reads the whole body into the host's memory.
  "model-answer-300mib-text": () => {
    const [head, tail] = JSON.stringify(message({ content: [{ type: "text", text: "@" }] })).split("@");
    return huge(300, head!, "A", tail!);
  },
  "model-answer-300mib-whitespace": () => huge(300, JSON.stringify(message()).slice(0, -1), " ", "}"),
  "model-answer-unterminated-stream": async () => {
    // Headers, then a body that never ends: the per-request timeout must end it (20 s here), bounded retries.
    const t = Date.now();
    const api = await fakeApi((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id":"msg"');
    });
    try {
      const model = createAnthropicModel({
        apiKey: "sk-ant-rt16",
        baseURL: api.url,
        retry: { maxRetries: 1, baseDelayMs: 10, timeoutMs: 3_000, maxTotalMs: 10_000 },
      });
      const waited = await Promise.race([
        model.complete(request()).then(() => "answered"),
        new Promise<string>((r) => setTimeout(() => r("still waiting"), 30_000).unref()),
      ]);
      return ok(`${waited} after ${Math.round((Date.now() - t) / 1000)} s, ${api.hits()} requests`, false);
    } catch (e) {
      const s = Math.round((Date.now() - t) / 1000);
      return ok(`ended after ${s} s, ${api.hits()} requests: ${short((e as Error).message)}`, s <= 15);
    } finally {
      api.close();
    }
  },
  "model-retry-after-ms-negative": async () => {
    const api = await fakeApi((res) => {
      res.writeHead(529, { "content-type": "application/json", "retry-after-ms": "-100000000" });
      res.end('{"type":"error","error":{"type":"overloaded_error","message":"busy"}}');
    });
    try {
      const model = createAnthropicModel({ apiKey: "sk-ant-rt16", baseURL: api.url });
      await model.complete(request());
      return ok("answered?", false);
    } catch (e) {
      return ok(`${api.hits()} requests, then: ${short((e as Error).message)}`, api.hits() <= 5);
    } finally {
      api.close();
    }
  },

  // A trace an attacker edited, replayed.
  "replay-result-output-deep-nesting": async () =>
    replay(
      JSON.parse(
        JSON.stringify(await realTrace()).replace(
          /"output":\{"verdict".*\}\}$/,
          `"output":${nestedText(100_000)}}}`,
        ),
      ),
    ),
  "replay-result-output-nested-object": async () =>
    replay(
      await traceOf((t) => {
        t.result.output = nestedArrays(50_000);
      }),
    ),
  "replay-cli-divergence-terminal-escapes": async () => {
    // A recorded step name holding OSC 52 (clipboard), a screen clear and a bidi override, printed in the
    // divergence list: contained when no ESC, C1 or bidi character reaches the output.
    const evil = "\u001b]52;c;cm0gLXJmIH4K\u0007\u001b[2J\u001b[Hreplay: same result\u202e";
    const t = await traceOf((t) => {
      t.steps[0].state = evil;
      t.steps[0].next = evil;
      t.result.state = evil;
      t.result.output.title = evil;
    });
    const r = replayCli(JSON.stringify(t));
    const bad = /[\u001b\u0080-\u009f\u202a-\u202e\u2066-\u2069]/.test(r.out + r.err);
    return ok(
      `exit ${r.status}; controls in output: ${bad}; ${short(JSON.stringify(r.out + r.err), 200)}`,
      !bad,
    );
  },
  "replay-cli-100mib-trace-of-exchanges": async () => {
    const ex = {
      seq: 0,
      step: "s",
      attempt: 0,
      startedAt: "x",
      durationMs: 0,
      request: { model: "m", system: "", messages: [], tools: [] },
      response: {
        model: "m",
        text: "",
        toolCalls: [],
        stopReason: null,
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: 0,
      },
    };
    const one = JSON.stringify(ex);
    const n = Math.floor((100 * 2 ** 20) / one.length);
    const exchanges = `[${Array.from({ length: n }, (_, i) => one.replace('"seq":0', `"seq":${i}`)).join(",")}]`;
    const text = JSON.stringify(await realTrace()).replace('"exchanges":[]', `"exchanges":${exchanges}`);
    const t = Date.now();
    const r = replayCli(text);
    return ok(
      `${n} exchanges, ${Math.round(text.length / 2 ** 20)} MiB: exit ${r.status} after ${Date.now() - t} ms: ${short(r.err || r.out)}`,
      r.status === 1 || r.status === 2,
    );
  },
  // Added after the first try: the same class through the CLI, whose text is measured before JSON.parse.
  "replay-cli-deep-trace-text": async () => {
    const text = JSON.stringify(await realTrace()).replace(
      /"output":\{"verdict".*\}\}$/,
      `"output":${nestedText(100_000)}}}`,
    );
    const r = replayCli(text);
    return ok(`exit ${r.status}: ${short(r.err || r.out)}`, r.status === 2 && /nests deeper/.test(r.err));
  },
  "replay-budget-wall-overflow": async () =>
    replay(
      await traceOf((t) => {
        t.job.budget = { maxWallMs: 1e300, maxTokens: 1e300, maxUsd: 1e300, maxAttempts: 3 };
      }),
    ),

  // The run's test reports, parsed on the host.
  "results-jest-json-id-twins-quadratic": () => results("jest-json", jestTwins(40_000)),
  "results-jest-json-deep-titles": () =>
    results(
      "jest-json",
      `{"testResults":[{"name":"/workspace/t.js","assertionResults":[{"ancestorTitles":[${"[".repeat(200_000)}${"]".repeat(200_000)}],"title":"t","status":"failed"}]}]}`,
    ),
  "results-jest-json-deep-report": () =>
    results("jest-json", `{"testResults":${"[".repeat(2_000_000)}${"]".repeat(2_000_000)}}`),
  "results-jest-json-huge-title-object": () =>
    results(
      "jest-json",
      JSON.stringify({
        testResults: [
          {
            name: "/workspace/t.js",
            assertionResults: Array.from({ length: 200 }, () => ({
              ancestorTitles: [Array.from({ length: 50_000 }, () => [1, 2])],
              title: "t",
              status: "failed",
            })),
          },
        ],
      }),
    ),
  "results-junit-id-twins-quadratic": () => {
    let s = '<testsuite name="s">';
    for (let i = 0; i < 40_000; i++) s += '<testcase classname="c" name="x"/>';
    for (let i = 2; i <= 40_001; i++) s += `<testcase classname="c" name="x#${i}"/>`;
    return results("junit", `${s}</testsuite>`);
  },
  "results-junit-external-entity": () => {
    const r = results(
      "junit",
      '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/hostname"><!ENTITY % p SYSTEM "http://127.0.0.1:9/p.dtd"> %p;]><testsuite><testcase classname="c" name="n&x;"><failure message="&x;"/></testcase></testsuite>',
    );
    return r;
  },
  "results-junit-huge-numbers": () =>
    results(
      "junit",
      '<testsuite tests="1e400" failures="-1" errors="NaN" time="Infinity"><testcase classname="c" name="n" time="1e999999"><failure message="m"/></testcase></testsuite>',
    ),

  // What docs/security.md left: the braille blank and a variation selector after ASCII in an added line.
  "patch-line-braille-blank-identifier": () => gate("if (ok\u2800|| true) allow();"),
  "patch-line-variation-selector-after-ascii": () => gate("if (ok\ufe0f || isAdmin\ufe00) allow();"),
  "patch-line-braille-blank-string-key": () => gate('const role = roles["admin\u2800"] ?? "admin";'),
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
});
