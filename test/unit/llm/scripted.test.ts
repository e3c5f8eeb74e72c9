import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolInputError } from "../../../src/llm/errors.ts";
import { costOf, DEFAULT_PRICING, priceFor, priceOrWorst, resolvePricing } from "../../../src/llm/pricing.ts";
import { ScriptedModel } from "../../../src/llm/scripted.ts";

const tools = [
  { name: "verdict", description: "give the verdict", input: z.object({ verdict: z.enum(["yes", "no"]) }) },
];

describe("ScriptedModel", () => {
  it("answers in order, records requests, prices usage from the table", async () => {
    const m = new ScriptedModel([
      { text: "one", usage: { inputTokens: 1_000_000 } },
      (req) => ({ text: `echo ${req.system}` }),
    ]);
    const a = await m.complete({ model: "claude-sonnet-4-5", system: "s1", messages: [] });
    const b = await m.complete({ system: "s2", messages: [] });
    expect([a.text, b.text]).toEqual(["one", "echo s2"]);
    expect(a.costUsd).toBe(3);
    expect(b.model).toBe("scripted");
    expect(m.requests.map((r) => r.system)).toEqual(["s1", "s2"]);
    expect(m.remaining).toBe(0);
    await expect(
      m.complete({ system: "s3", messages: [], meta: { step: "refine", attempt: 2 } }),
    ).rejects.toThrow('scripted model: no answer left for request #3 (step "refine", attempt 2)');
  });

  it("validates tool calls: one repair turn with the error, then ToolInputError", async () => {
    const m = new ScriptedModel([
      { toolCalls: [{ name: "verdict", input: { verdict: "maybe" }, id: "t1" }] },
      { toolCalls: [{ name: "verdict", input: { verdict: "yes" } }] },
      { toolCalls: [{ name: "verdict", input: {} }], usage: { inputTokens: 5 } },
      { toolCalls: [{ name: "verdict", input: { verdict: 1 } }], usage: { inputTokens: 7 } },
    ]);
    const ok = await m.complete({ system: "s", messages: [{ role: "user", content: "?" }], tools });
    expect(ok.toolCalls[0]?.input).toEqual({ verdict: "yes" });
    const repair = m.requests[1]?.messages.at(-1);
    expect(repair?.role).toBe("user");
    expect(JSON.stringify(repair?.content)).toMatch(/Invalid input for tool \\"verdict\\"/);
    const err = await m
      .complete({ system: "s", messages: [{ role: "user", content: "?" }], tools })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolInputError);
    expect((err as ToolInputError).spent?.usage.inputTokens).toBe(12);
  });

  it("rethrows scripted errors", async () => {
    const m = new ScriptedModel([{ throw: new Error("provider down") }]);
    await expect(m.complete({ system: "s", messages: [] })).rejects.toThrow("provider down");
  });
});

describe("pricing", () => {
  it("matches dated model names by prefix, longest first", () => {
    expect(priceFor("claude-sonnet-4-5-20250929", DEFAULT_PRICING)?.inputPerMTok).toBe(3);
    expect(priceFor("claude-opus-4-1-20250805", DEFAULT_PRICING)?.inputPerMTok).toBe(15);
    expect(priceFor("claude-opus-4-5-20251101", DEFAULT_PRICING)?.inputPerMTok).toBe(5);
    expect(priceFor("gpt-x", DEFAULT_PRICING)).toBeNull();
  });
  it("charges an unknown model at the most expensive entry", () => {
    const { price, known } = priceOrWorst("mystery-model", DEFAULT_PRICING);
    expect(known).toBe(false);
    expect(price.outputPerMTok).toBe(75);
  });
  it("computes cost from all four token kinds", () => {
    const p = DEFAULT_PRICING["claude-haiku-4-5"]!;
    expect(
      costOf({ inputTokens: 1000, outputTokens: 1000, cacheReadTokens: 10_000, cacheWriteTokens: 2000 }, p),
    ).toBe((1000 * 1 + 1000 * 5 + 10_000 * 0.1 + 2000 * 1.25) / 1e6);
  });
  it("validates overrides and names the bad field", () => {
    expect(
      resolvePricing({
        "my-model": { inputPerMTok: 1, outputPerMTok: 2, cacheWritePerMTok: 1, cacheReadPerMTok: 0.1 },
      })["my-model"]?.outputPerMTok,
    ).toBe(2);
    expect(() => resolvePricing({ "my-model": { inputPerMTok: -1 } })).toThrow(
      /invalid model pricing table[\s\S]*my-model/,
    );
  });
});
