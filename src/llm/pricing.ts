/**
 * Model prices, as configuration: a zod-validated table (US dollars per million tokens) with defaults,
 * overridable from `.github/retrace.yml` (model.pricing) or code. Cost is computed from the API's usage.
 */
import { z } from "zod";
import { ConfigError } from "../core/errors.ts";
import type { TokenUsage } from "../core/ports/model.ts";

export const ModelPrice = z.object({
  /** Dollars per million uncached input tokens. */
  inputPerMTok: z.number().min(0),
  /** Dollars per million output tokens. */
  outputPerMTok: z.number().min(0),
  /** Dollars per million tokens written to the prompt cache (5-minute cache). */
  cacheWritePerMTok: z.number().min(0),
  /** Dollars per million tokens read from the prompt cache. */
  cacheReadPerMTok: z.number().min(0),
});
export type ModelPrice = z.infer<typeof ModelPrice>;

/** Model name (or a name prefix, e.g. "claude-sonnet-4-5" for "claude-sonnet-4-5-20250929") → price. */
export const PricingTable = z.record(z.string().min(1), ModelPrice);
export type PricingTable = z.infer<typeof PricingTable>;

const price = (input: number, output: number): ModelPrice => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheWritePerMTok: input * 1.25,
  cacheReadPerMTok: input * 0.1,
});

/** Published list prices (USD/MTok); cache writes 1.25× input, cache reads 0.1× input. */
export const DEFAULT_PRICING: PricingTable = {
  "claude-opus-4-5": price(5, 25),
  "claude-opus-4-1": price(15, 75),
  "claude-opus-4": price(15, 75),
  "claude-sonnet-4-5": price(3, 15),
  "claude-sonnet-4": price(3, 15),
  "claude-3-7-sonnet": price(3, 15),
  "claude-haiku-4-5": price(1, 5),
  "claude-3-5-haiku": price(0.8, 4),
};

/** Default models: a fast one for first attempts, a stronger one after failures. */
export const DEFAULT_FAST_MODEL = "claude-haiku-4-5";
// NOTE: the SDK warns that claude-sonnet-4-5 reaches end-of-life on 2026-11-30. Switching the default (e.g. to
// claude-opus-4-5) needs schema/retrace.schema.json and docs/config.md regenerated (scripts/gen-schema.ts).
export const DEFAULT_STRONG_MODEL = "claude-opus-4-5";

/** Validates a user-supplied table and merges it over the defaults. */
export function resolvePricing(overrides: unknown = {}): PricingTable {
  const parsed = PricingTable.safeParse(overrides);
  if (!parsed.success)
    throw new ConfigError(
      `invalid model pricing table: ${z.prettifyError(parsed.error)}`,
      "each entry needs inputPerMTok, outputPerMTok, cacheWritePerMTok and cacheReadPerMTok in US dollars per million tokens",
    );
  return { ...DEFAULT_PRICING, ...parsed.data };
}

/** The exact entry, else the longest entry that is a prefix of the name; null when none matches. */
export function priceFor(model: string, table: PricingTable): ModelPrice | null {
  const exact = table[model];
  if (exact) return exact;
  let best: string | null = null;
  for (const name of Object.keys(table)) {
    if (model.startsWith(`${name}-`) || model.startsWith(`${name}@`)) {
      if (best === null || name.length > best.length) best = name;
    }
  }
  return best === null ? null : (table[best] ?? null);
}

/**
 * The price to charge for `model`. An unknown model is charged at the most expensive entry of the table,
 * so the dollar budget errs on the side of stopping early, never of overspending.
 */
export function priceOrWorst(model: string, table: PricingTable): { price: ModelPrice; known: boolean } {
  const p = priceFor(model, table);
  if (p) return { price: p, known: true };
  const all = Object.values(table);
  if (all.length === 0) return { price: price(0, 0), known: false };
  const worst = all.reduce((a, b) =>
    b.inputPerMTok + b.outputPerMTok > a.inputPerMTok + a.outputPerMTok ? b : a,
  );
  return { price: worst, known: false };
}

/** Dollars of one usage record, rounded to micro-dollars. */
export function costOf(usage: TokenUsage, p: ModelPrice): number {
  const usd =
    (usage.inputTokens * p.inputPerMTok +
      usage.outputTokens * p.outputPerMTok +
      usage.cacheWriteTokens * p.cacheWritePerMTok +
      usage.cacheReadTokens * p.cacheReadPerMTok) /
    1_000_000;
  return Math.round(usd * 1e6) / 1e6;
}
