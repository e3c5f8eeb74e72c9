/**
 * The Anthropic adapter with the REAL @anthropic-ai/sdk talking HTTP to a local Messages API server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { CancelledError } from "../../../src/core/errors.ts";
import { createAnthropicModel, type RetryEvent } from "../../../src/llm/anthropic.ts";
import { ModelError, ToolInputError } from "../../../src/llm/errors.ts";
import { createModelFromEnv } from "../../../src/llm/from-env.ts";
import type { Model } from "../../../src/core/ports/model.ts";
import { apiError, type FakeAnthropic, message, startFakeAnthropic } from "../../support/fake-anthropic.ts";

let server: FakeAnthropic;
beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  expect(server.pending()).toBe(0);
});

const fastRetry = { maxRetries: 3, baseDelayMs: 20, maxDelayMs: 2_000, maxTotalMs: 10_000, timeoutMs: 2_000 };

function model(extra: { retry?: Partial<typeof fastRetry>; events?: RetryEvent[] } = {}): Model {
  return createAnthropicModel({
    apiKey: "sk-ant-test-key-000000000000",
    baseURL: server.url,
    retry: { ...fastRetry, ...extra.retry },
    random: () => 0,
    onRetry: (e) => extra.events?.push(e),
  });
}

const Edit = z.object({
  path: z.string(),
  replacement: z.string(),
  occurrences: z.number().int().default(1),
});
const tools = [{ name: "edit_file", description: "Replace text in a file", input: Edit }];

describe("Anthropic adapter against a local Messages API server", () => {
  it("sends a plain request with the stable prefix marked for caching, and reads the answer, usage and cost", async () => {
    server.reply(message({ text: "Hello.", usage: { input_tokens: 1200, output_tokens: 40 } }));
    const res = await model().complete({
      model: "claude-haiku-4-5",
      system: "You are terse.",
      context: "REPO CONTEXT",
      messages: [{ role: "user", content: "Say hello" }],
      maxTokens: 100,
    });
    expect(res.text).toBe("Hello.");
    expect(res.stopReason).toBe("end_turn");
    expect(res.model).toBe("claude-haiku-4-5-20251001");
    expect(res.usage).toEqual({
      inputTokens: 1200,
      outputTokens: 40,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    // claude-haiku-4-5: $1/MTok in, $5/MTok out.
    expect(res.costUsd).toBeCloseTo((1200 * 1 + 40 * 5) / 1e6, 9);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.path).toBe("/v1/messages");
    // SDK 1.x sends the API key as a bearer token.
    expect(req.headers.authorization).toBe("Bearer sk-ant-test-key-000000000000");
    expect(req.headers["anthropic-version"]).toBeTruthy();
    expect(req.body).toMatchObject({
      model: "claude-haiku-4-5",
      max_tokens: 100,
      system: [
        { type: "text", text: "You are terse." },
        { type: "text", text: "REPO CONTEXT", cache_control: { type: "ephemeral" } },
      ],
      messages: [{ role: "user", content: "Say hello" }],
    });
    expect(req.body.system[0].cache_control).toBeUndefined();
    expect(req.body.meta).toBeUndefined();
  });

  it("converts zod tool schemas to JSON Schema and validates tool_use input (defaults applied)", async () => {
    server.reply(
      message({
        toolUses: [{ name: "edit_file", input: { path: "a.ts", replacement: "x" }, id: "toolu_1" }],
      }),
    );
    const res = await model().complete({
      system: "s",
      messages: [{ role: "user", content: "fix it" }],
      tools,
      toolChoice: { type: "tool", name: "edit_file" },
    });
    expect(res.stopReason).toBe("tool_use");
    expect(res.toolCalls).toEqual([
      { id: "toolu_1", name: "edit_file", input: { path: "a.ts", replacement: "x", occurrences: 1 } },
    ]);
    const body = server.requests[0]!.body;
    expect(body.tool_choice).toEqual({ type: "tool", name: "edit_file" });
    expect(body.tools[0].name).toBe("edit_file");
    expect(body.tools[0].input_schema.type).toBe("object");
    expect(body.tools[0].input_schema.$schema).toBeUndefined();
    expect(Object.keys(body.tools[0].input_schema.properties)).toEqual([
      "path",
      "replacement",
      "occurrences",
    ]);
    // Without context the system prompt itself carries the cache breakpoint.
    expect(body.system).toEqual([{ type: "text", text: "s", cache_control: { type: "ephemeral" } }]);
  });

  it("gives invalid tool input one repair turn carrying the validation error", async () => {
    server.reply(
      message({
        toolUses: [{ name: "edit_file", input: { path: 42 }, id: "toolu_bad" }],
        usage: { input_tokens: 100, output_tokens: 10 },
      }),
      message({
        toolUses: [{ name: "edit_file", input: { path: "a.ts", replacement: "y" }, id: "toolu_ok" }],
        usage: { input_tokens: 150, output_tokens: 12 },
      }),
    );
    const res = await model().complete({ system: "s", messages: [{ role: "user", content: "fix" }], tools });
    expect(res.toolCalls[0]).toMatchObject({ id: "toolu_ok", input: { path: "a.ts", replacement: "y" } });
    expect(res.usage.inputTokens).toBe(250);
    expect(res.usage.outputTokens).toBe(22);
    expect(server.requests).toHaveLength(2);
    const repair = server.requests[1]!.body.messages;
    expect(repair).toHaveLength(3);
    expect(repair[1]).toEqual({
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_bad", name: "edit_file", input: { path: 42 } }],
    });
    expect(repair[2].role).toBe("user");
    expect(repair[2].content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: "toolu_bad",
      is_error: true,
    });
    expect(repair[2].content[0].content).toMatch(/path/);
    expect(repair[2].content[0].content).toMatch(/expected string/i);
  });

  it("throws ToolInputError when the repaired input is still invalid, carrying what both calls cost", async () => {
    server.reply(
      message({ toolUses: [{ name: "edit_file", input: {} }] }),
      message({ toolUses: [{ name: "no_such_tool", input: {} }] }),
    );
    const err = await model()
      .complete({ system: "s", messages: [{ role: "user", content: "fix" }], tools })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolInputError);
    expect((err as ToolInputError).kind).toBe("model");
    expect((err as ToolInputError).message).toMatch(/no tool named "no_such_tool"/);
    expect((err as ToolInputError).spent?.usage.inputTokens).toBe(20);
    expect(server.requests).toHaveLength(2);
  });

  it("runs a multi-turn tool loop: tool_use, then tool_result, then a final answer", async () => {
    const m = model();
    server.reply(
      message({ toolUses: [{ name: "edit_file", input: { path: "a", replacement: "b" }, id: "toolu_A" }] }),
    );
    const first = await m.complete({ system: "s", messages: [{ role: "user", content: "go" }], tools });
    const call = first.toolCalls[0]!;
    server.reply(message({ text: "Done: edited a." }));
    const second = await m.complete({
      system: "s",
      tools,
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: call.id, name: call.name, input: call.input }],
        },
        {
          role: "user",
          content: [{ type: "tool_result", toolUseId: call.id, content: "ok, 1 replacement" }],
        },
      ],
    });
    expect(second.text).toBe("Done: edited a.");
    const msgs = server.requests[1]!.body.messages;
    expect(msgs[1].content[0]).toEqual({
      type: "tool_use",
      id: "toolu_A",
      name: "edit_file",
      input: { path: "a", replacement: "b", occurrences: 1 },
    });
    expect(msgs[2].content[0]).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_A",
      content: "ok, 1 replacement",
    });
  });

  it("retries a 429 after the retry-after-ms delay the server asked for", async () => {
    const events: RetryEvent[] = [];
    server.reply(apiError(429, { "retry-after-ms": "150" }), message({ text: "after rate limit" }));
    const res = await model({ events }).complete({ system: "s", messages: [{ role: "user", content: "x" }] });
    expect(res.text).toBe("after rate limit");
    expect(server.requests).toHaveLength(2);
    expect(events).toEqual([
      expect.objectContaining({ retry: 1, status: 429, delayMs: 150, fromHeader: true }),
    ]);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(145);
  });

  it("honours retry-after in seconds", async () => {
    const events: RetryEvent[] = [];
    server.reply(apiError(429, { "retry-after": "1" }), message({ text: "ok" }));
    await model({ events }).complete({ system: "s", messages: [{ role: "user", content: "x" }] });
    expect(events[0]).toMatchObject({ delayMs: 1000, fromHeader: true });
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it("fails at once when retry-after is longer than a retry may wait", async () => {
    server.reply(apiError(429, { "retry-after": "3600" }));
    const err = await model()
      .complete({ system: "s", messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).status).toBe(429);
    expect((err as ModelError).message).toMatch(/asked to wait 3600000 ms/);
    expect((err as ModelError).hint).toMatch(/rate limited/);
    expect(server.requests).toHaveLength(1);
  });

  it("backs off exponentially on 529 overloaded and on 500", async () => {
    const events: RetryEvent[] = [];
    server.reply(apiError(529), apiError(500), message({ text: "finally" }));
    const res = await model({ events }).complete({ system: "s", messages: [{ role: "user", content: "x" }] });
    expect(res.text).toBe("finally");
    expect(events.map((e) => [e.status, e.delayMs, e.fromHeader])).toEqual([
      [529, 20, false],
      [500, 40, false],
    ]);
    expect(server.requests).toHaveLength(3);
  });

  it("gives up after maxRetries + 1 requests with a typed error", async () => {
    server.reply(apiError(500), apiError(500), apiError(500), apiError(500));
    const err = await model()
      .complete({ system: "s", messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).message).toMatch(/gave up after 4 requests/);
    expect(server.requests).toHaveLength(4);
  });

  it("stops retrying when the total retry time would pass its bound", async () => {
    server.reply(apiError(503, { "retry-after-ms": "300" }), apiError(503, { "retry-after-ms": "300" }));
    const err = await model({ retry: { maxTotalMs: 500 } })
      .complete({ system: "s", messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect((err as ModelError).message).toMatch(/500 ms retry budget/);
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a 401 and says what to check", async () => {
    server.reply(apiError(401));
    const err = await model()
      .complete({ system: "s", messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect((err as ModelError).status).toBe(401);
    expect((err as ModelError).hint).toMatch(/ANTHROPIC_API_KEY/);
    expect(server.requests).toHaveLength(1);
  });

  it("retries an answer with malformed JSON", async () => {
    const events: RetryEvent[] = [];
    server.reply({ raw: '{"id": "msg_1", "type": "mess' }, message({ text: "whole" }));
    const res = await model({ events }).complete({ system: "s", messages: [{ role: "user", content: "x" }] });
    expect(res.text).toBe("whole");
    expect(events[0]?.reason).toMatch(/malformed JSON/);
  });

  it("times out a hung connection and retries it", async () => {
    const events: RetryEvent[] = [];
    server.reply({ hang: true }, message({ text: "second try" }));
    const t0 = Date.now();
    const res = await model({ events, retry: { timeoutMs: 300 } }).complete({
      system: "s",
      messages: [{ role: "user", content: "x" }],
    });
    expect(res.text).toBe("second try");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(events[0]?.reason).toMatch(/no answer within 300 ms/);
    expect(server.requests).toHaveLength(2);
  });

  it("reads cache write/read tokens from usage and prices them", async () => {
    server.reply(
      message({
        model: "claude-opus-4-5-20251101",
        text: "cached",
        usage: {
          input_tokens: 50,
          output_tokens: 100,
          cache_creation_input_tokens: 4000,
          cache_read_input_tokens: 0,
        },
      }),
      message({
        model: "claude-opus-4-5-20251101",
        text: "cached again",
        usage: {
          input_tokens: 60,
          output_tokens: 100,
          cache_creation_input_tokens: null,
          cache_read_input_tokens: 4000,
        },
      }),
    );
    const m = model();
    const a = await m.complete({
      model: "claude-opus-4-5",
      system: "s",
      context: "big",
      messages: [{ role: "user", content: "1" }],
    });
    const b = await m.complete({
      model: "claude-opus-4-5",
      system: "s",
      context: "big",
      messages: [{ role: "user", content: "2" }],
    });
    expect(a.usage).toEqual({
      inputTokens: 50,
      outputTokens: 100,
      cacheReadTokens: 0,
      cacheWriteTokens: 4000,
    });
    expect(b.usage).toEqual({
      inputTokens: 60,
      outputTokens: 100,
      cacheReadTokens: 4000,
      cacheWriteTokens: 0,
    });
    // Opus 4.5: $5 in, $25 out, $6.25 cache write, $0.50 cache read per MTok.
    expect(a.costUsd).toBeCloseTo((50 * 5 + 100 * 25 + 4000 * 6.25) / 1e6, 9);
    expect(b.costUsd).toBeCloseTo((60 * 5 + 100 * 25 + 4000 * 0.5) / 1e6, 9);
  });

  it("stops waiting when the caller aborts during a retry delay", async () => {
    server.reply(apiError(429, { "retry-after-ms": "1500" }));
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(new CancelledError("stop now")), 100);
    const t0 = Date.now();
    const err = await model()
      .complete({ system: "s", messages: [{ role: "user", content: "x" }], signal: ctl.signal })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelledError);
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });

  it("createModelFromEnv: null without ANTHROPIC_API_KEY; honours ANTHROPIC_BASE_URL with one", async () => {
    expect(createModelFromEnv({}, {})).toBeNull();
    expect(createModelFromEnv({}, { ANTHROPIC_API_KEY: "  " })).toBeNull();
    const m = createModelFromEnv(
      {},
      { ANTHROPIC_API_KEY: "sk-ant-from-env-1234567890", ANTHROPIC_BASE_URL: server.url },
    );
    server.reply(message({ text: "via env" }));
    const res = await m!.complete({ system: "s", messages: [{ role: "user", content: "x" }] });
    expect(res.text).toBe("via env");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-ant-from-env-1234567890");
    expect(server.requests[0]!.body.model).toBe("claude-haiku-4-5");
  });
});
