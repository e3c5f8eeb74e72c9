/**
 * A scripted model for tests (and demos): answers from a prepared list, in order, and records every request.
 * Tool calls are validated like a real adapter's (one repair turn, then ToolInputError), so a script can
 * exercise the repair path by giving an invalid answer followed by a valid one.
 */
import type { ModelRequest, ModelResponse, Model, TokenUsage } from "../core/ports/model.ts";
import { completeWithToolRepair } from "./tool-validation.ts";
import { costOf, DEFAULT_PRICING, type PricingTable, priceFor } from "./pricing.ts";
import { RetraceError } from "../core/errors.ts";

/** One prepared answer. */
export interface ScriptedAnswer {
  text?: string;
  toolCalls?: { name: string; input: unknown; id?: string }[];
  usage?: Partial<TokenUsage>;
  /** Dollars; computed from the pricing table for the request's model when absent (0 for unknown models). */
  costUsd?: number;
  stopReason?: string;
  /** Model that "answered"; the request's model when absent. */
  model?: string;
}

/** An entry: a fixed answer, a function of the request, or an error to throw. */
export type ScriptEntry =
  | ScriptedAnswer
  | ((request: ModelRequest) => ScriptedAnswer | Promise<ScriptedAnswer>)
  | { throw: Error };

export class ScriptedModel implements Model {
  /** Every request the model received, including repair turns, in order. */
  readonly requests: ModelRequest[] = [];
  private next = 0;
  private ids = 0;

  constructor(
    private readonly script: ScriptEntry[],
    private readonly options: { pricing?: PricingTable; defaultModel?: string } = {},
  ) {}

  /** Answers not used yet. */
  get remaining(): number {
    return this.script.length - this.next;
  }

  complete(request: ModelRequest): Promise<ModelResponse> {
    return completeWithToolRepair(request, (req) => this.answer(req));
  }

  private async answer(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    if (request.signal?.aborted) throw request.signal.reason ?? new Error("aborted");
    const index = this.next++;
    const entry = this.script[index];
    if (entry === undefined) {
      const where = request.meta ? ` (step "${request.meta.step}", attempt ${request.meta.attempt})` : "";
      throw new RetraceError("internal", `scripted model: no answer left for request #${index + 1}${where}`, {
        hint: `the script has ${this.script.length} answers; add one for this request`,
      });
    }
    if ("throw" in entry) throw entry.throw;
    const a = typeof entry === "function" ? await entry(request) : entry;
    const model = a.model ?? request.model ?? this.options.defaultModel ?? "scripted";
    const usage: TokenUsage = {
      inputTokens: a.usage?.inputTokens ?? 0,
      outputTokens: a.usage?.outputTokens ?? 0,
      cacheReadTokens: a.usage?.cacheReadTokens ?? 0,
      cacheWriteTokens: a.usage?.cacheWriteTokens ?? 0,
    };
    const price = priceFor(model, this.options.pricing ?? DEFAULT_PRICING);
    const toolCalls = (a.toolCalls ?? []).map((c) => ({
      id: c.id ?? `toolu_scripted_${++this.ids}`,
      name: c.name,
      input: c.input,
    }));
    return {
      model,
      text: a.text ?? "",
      toolCalls,
      stopReason: a.stopReason ?? (toolCalls.length > 0 ? "tool_use" : "end_turn"),
      usage,
      costUsd: a.costUsd ?? (price ? costOf(usage, price) : 0),
    };
  }
}
