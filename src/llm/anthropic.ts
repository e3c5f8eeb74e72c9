/**
 * The Anthropic adapter of the Model port, on the official `@anthropic-ai/sdk` (non-streaming Messages API).
 *
 * Retries are Retrace's own, not the SDK's (the client is built with `maxRetries: 0`): the SDK honours any
 * `retry-after` however long (up to 2^31 ms) and has no bound on total time, while a job has a wall-time
 * budget. Here a retry happens on 408/409/429/5xx/529, connection errors, timeouts and malformed JSON;
 * `retry-after-ms`/`retry-after` are honoured; the number of retries AND the total time spent retrying are
 * bounded, and a `retry-after` longer than what is left fails at once with a clear error.
 *
 * An answer is read within bounds and checked before anything uses it: its body at most `maxAnswerMb` and read
 * within the request's timeout (`boundedFetch`: the SDK reads a whole body, and its timeout ends at the headers),
 * its content an array of blocks of the documented shapes and its usage counts non-negative safe integers — a
 * count that is a string, negative or null would switch the job's token and dollar bounds off (wave 16). A
 * malformed answer is retried like malformed JSON; an oversized one fails at once.
 */
import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "@anthropic-ai/sdk";
import { z } from "zod";
import { CancelledError, ConfigError } from "../core/errors.ts";
import { AnswerTimeoutError, boundedFetch, boundedFetchError } from "./bounded-fetch.ts";
import { ModelError } from "./errors.ts";
import { costOf, DEFAULT_FAST_MODEL, type PricingTable, priceOrWorst, resolvePricing } from "./pricing.ts";
import { completeWithToolRepair } from "./tool-validation.ts";
import type {
  ContentBlock,
  Model,
  ModelRequest,
  ModelResponse,
  ToolDefinition,
} from "../core/ports/model.ts";

export interface RetryPolicy {
  /** Retries after the first request (so at most maxRetries + 1 requests). */
  maxRetries: number;
  /** First backoff delay without a retry-after header, doubled each retry. */
  baseDelayMs: number;
  /** Largest single backoff delay (also the largest retry-after honoured without giving up early). */
  maxDelayMs: number;
  /** Total time from the first request after which no further retry starts. */
  maxTotalMs: number;
  /** Per-request timeout, the answer's body included (a hung connection counts as a retryable timeout). */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxTotalMs: 180_000,
  timeoutMs: 120_000,
};

/** One retry, as reported to `onRetry`. */
export interface RetryEvent {
  /** 1 for the first retry. */
  retry: number;
  /** HTTP status, or null for a connection error / timeout / malformed body. */
  status: number | null;
  reason: string;
  /** How long the adapter waits before the retry. */
  delayMs: number;
  /** True when the delay came from a retry-after header. */
  fromHeader: boolean;
}

export interface AnthropicModelOptions {
  /** API key; `ANTHROPIC_API_KEY` when absent. */
  apiKey?: string;
  /** Base URL; `ANTHROPIC_BASE_URL` (or the public API) when absent. */
  baseURL?: string;
  /** Model used when a request names none. */
  defaultModel?: string;
  /** Overrides merged over the default pricing table. */
  pricing?: unknown;
  retry?: Partial<RetryPolicy>;
  /** Output token cap when a request sets none. */
  defaultMaxTokens?: number;
  /** Largest answer body read, in MiB (default 32: an answer of 128k output tokens is about 1 MiB of JSON). */
  maxAnswerMb?: number;
  /** Observes every retry (progress output, tests, benchmarks). */
  onRetry?: (event: RetryEvent) => void;
  /** Waits between retries; replaceable in tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1): backoff delays are multiplied by (1 - 0.25 × random()). */
  random?: () => number;
}

const RETRYABLE_STATUS = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Delay asked for by `retry-after-ms` or `retry-after` (seconds or an HTTP date), or null. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const ra = headers.get("retry-after");
  if (ra === null || ra.trim() === "") return null;
  if (/^\d+(\.\d+)?$/.test(ra.trim())) return Number(ra) * 1000;
  const date = Date.parse(ra);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The JSON Schema the API gets for a tool: an object schema, without the `$schema` key. */
export function toolInputSchema(tool: ToolDefinition): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.input, { unrepresentable: "any" }) as Record<string, unknown>;
  delete schema.$schema;
  if (schema.type !== "object")
    throw new ConfigError(
      `tool "${tool.name}" has an input schema of type ${JSON.stringify(schema.type)}; the Messages API needs an object`,
      "wrap the tool input in z.object({...})",
    );
  return schema;
}

type ApiBlock = Anthropic.Messages.ContentBlockParam;

function toApiContent(content: string | ContentBlock[]): string | ApiBlock[] {
  if (typeof content === "string") return content;
  return content.map((b): ApiBlock => {
    if (b.type === "text") return { type: "text", text: b.text };
    if (b.type === "tool_use") return { type: "tool_use", id: b.id, name: b.name, input: b.input };
    return {
      type: "tool_result",
      tool_use_id: b.toolUseId,
      content: b.content,
      ...(b.isError === undefined ? {} : { is_error: b.isError }),
    };
  });
}

/** The Messages API body for a request. The stable prefix (tools, system, context) ends in a cache breakpoint. */
export function toApiBody(
  request: ModelRequest,
  model: string,
  defaultMaxTokens: number,
): Anthropic.Messages.MessageCreateParamsNonStreaming {
  const system: Anthropic.Messages.TextBlockParam[] = [{ type: "text", text: request.system }];
  if (request.context !== undefined && request.context !== "")
    system.push({ type: "text", text: request.context });
  // The cache prefix is tools → system → messages: a breakpoint on the last system block covers all of it,
  // so later attempts and retries that share the prefix read it from the cache.
  const last = system[system.length - 1] as Anthropic.Messages.TextBlockParam;
  last.cache_control = { type: "ephemeral" };
  const body: Anthropic.Messages.MessageCreateParamsNonStreaming = {
    model,
    max_tokens: request.maxTokens ?? defaultMaxTokens,
    system,
    messages: request.messages.map((m) => ({ role: m.role, content: toApiContent(m.content) })),
  };
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: toolInputSchema(t) as Anthropic.Messages.Tool.InputSchema,
    }));
  }
  if (request.toolChoice) body.tool_choice = request.toolChoice;
  // `temperature` is not sent: this SDK's Messages API types no longer carry it (newer models fix sampling).
  return body;
}

function hintFor(status: number | null): string {
  if (status === 401) return "check ANTHROPIC_API_KEY: the API rejected it";
  if (status === 403) return "the API key has no access to this model or feature";
  if (status === 404) return "check the model name and ANTHROPIC_BASE_URL";
  if (status === 400) return "the request was rejected as invalid; the message says which field";
  if (status === 429) return "rate limited: run fewer jobs at once, or raise the retry budget";
  if (status === 529) return "the API is overloaded: try again later";
  return "try again later; if it persists, check ANTHROPIC_BASE_URL and the provider's status page";
}

class AnthropicModel implements Model {
  private readonly client: Anthropic;
  private readonly retry: RetryPolicy;
  private readonly pricing: PricingTable;

  constructor(private readonly options: AnthropicModelOptions) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.pricing = resolvePricing(options.pricing ?? {});
    this.client = new Anthropic({
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      maxRetries: 0,
      timeout: this.retry.timeoutMs,
      fetch: boundedFetch((options.maxAnswerMb ?? 32) * 2 ** 20, this.retry.timeoutMs),
    });
  }

  complete(request: ModelRequest): Promise<ModelResponse> {
    return completeWithToolRepair(request, (req) => this.once(req));
  }

  /** One logical call: requests with retries, then the answer in the port's shape. */
  private async once(request: ModelRequest): Promise<ModelResponse> {
    const model = request.model ?? this.options.defaultModel ?? DEFAULT_FAST_MODEL;
    const body = toApiBody(request, model, this.options.defaultMaxTokens ?? 4_096);
    const message = await this.withRetries(body, request.signal);
    let text = "";
    const toolCalls: ModelResponse["toolCalls"] = [];
    for (const block of message.content) {
      if (block.type === "text") text += block.text;
      else if (block.type === "tool_use")
        toolCalls.push({ id: block.id, name: block.name, input: block.input });
    }
    const usage = {
      inputTokens: message.usage.input_tokens,
      outputTokens: message.usage.output_tokens,
      cacheReadTokens: message.usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: message.usage.cache_creation_input_tokens ?? 0,
    };
    const answered = message.model || model;
    return {
      model: answered,
      text,
      toolCalls,
      stopReason: message.stop_reason ?? null,
      usage,
      costUsd: costOf(usage, priceOrWorst(answered, this.pricing).price),
    };
  }

  private async withRetries(
    body: Anthropic.Messages.MessageCreateParamsNonStreaming,
    signal: AbortSignal | undefined,
  ): Promise<Anthropic.Messages.Message> {
    const started = Date.now();
    const sleep = this.options.sleep ?? abortableSleep;
    const random = this.options.random ?? Math.random;
    for (let retry = 0; ; retry++) {
      let failure: { status: number | null; reason: string; headers?: Headers; cause: unknown };
      try {
        const message = await this.client.messages.create(body, signal ? { signal } : {});
        const wrong = malformedAnswer(message);
        if (wrong === null) return message;
        failure = { status: null, reason: `malformed answer: ${wrong}`, cause: null };
      } catch (e) {
        if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new CancelledError();
        if (e instanceof APIUserAbortError) throw new CancelledError();
        const bounded = boundedFetchError(e);
        if (bounded && !(bounded instanceof AnswerTimeoutError))
          throw new ModelError(
            `the Anthropic API's answer was refused: ${bounded.message}`,
            "check ANTHROPIC_BASE_URL: the Messages API answers in well under a MiB",
          );
        if (bounded) {
          failure = { status: null, reason: bounded.message, cause: e };
        } else if (e instanceof APIConnectionTimeoutError) {
          failure = { status: null, reason: `no answer within ${this.retry.timeoutMs} ms`, cause: e };
        } else if (e instanceof APIConnectionError) {
          failure = { status: null, reason: `connection failed: ${e.message}`, cause: e };
        } else if (e instanceof APIError) {
          const status = typeof e.status === "number" ? e.status : null;
          const reason = `HTTP ${status ?? "?"}: ${e.message}`;
          if (status === null || !RETRYABLE_STATUS.has(status))
            throw new ModelError(
              `the Anthropic API refused the request (${reason})`,
              hintFor(status),
              status,
              e,
            );
          failure = { status, reason, headers: e.headers, cause: e };
        } else if (e instanceof SyntaxError) {
          failure = { status: null, reason: `malformed JSON in the answer: ${e.message}`, cause: e };
        } else {
          throw e;
        }
      }
      const elapsed = Date.now() - started;
      const header = retryAfterMs(failure.headers);
      const backoff =
        Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** retry) * (1 - 0.25 * random());
      const delayMs = Math.round(header ?? backoff);
      const giveUp = (why: string) =>
        new ModelError(
          `the Anthropic API call failed: ${failure.reason} (${why})`,
          hintFor(failure.status),
          failure.status,
          failure.cause,
        );
      if (retry >= this.retry.maxRetries) throw giveUp(`gave up after ${retry + 1} requests`);
      if (header !== null && header > this.retry.maxDelayMs)
        throw giveUp(
          `the API asked to wait ${Math.round(header)} ms, more than the ${this.retry.maxDelayMs} ms a retry may wait`,
        );
      if (elapsed + delayMs > this.retry.maxTotalMs)
        throw giveUp(`retrying would pass the ${this.retry.maxTotalMs} ms retry budget`);
      this.options.onRetry?.({
        retry: retry + 1,
        status: failure.status,
        reason: failure.reason,
        delayMs,
        fromHeader: header !== null,
      });
      try {
        await sleep(delayMs, signal);
      } catch {
        throw signal?.reason instanceof Error ? signal.reason : new CancelledError();
      }
    }
  }
}

const isCount = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

/** What is wrong with an answer's shape (content blocks, usage counts), or null when it is a Messages API answer. */
export function malformedAnswer(m: unknown): string | null {
  if (m === null || typeof m !== "object" || Array.isArray(m)) return "not a message object";
  const { content, usage } = m as { content?: unknown; usage?: unknown };
  if (!Array.isArray(content)) return "its content is not a list of blocks";
  for (const b of content as unknown[]) {
    if (b === null || typeof b !== "object") return "a content block is not an object";
    const block = b as { type?: unknown; text?: unknown; id?: unknown; name?: unknown };
    if (block.type === "text" && typeof block.text !== "string") return "a text block has no text";
    if (block.type === "tool_use" && (typeof block.id !== "string" || typeof block.name !== "string"))
      return "a tool call has no id or name";
  }
  if (usage === null || typeof usage !== "object") return "it has no usage";
  const u = usage as Record<string, unknown>;
  for (const k of ["input_tokens", "output_tokens"])
    if (!isCount(u[k])) return `usage.${k} is not a count (${JSON.stringify(u[k])?.slice(0, 40)})`;
  for (const k of ["cache_read_input_tokens", "cache_creation_input_tokens"])
    if (u[k] !== undefined && u[k] !== null && !isCount(u[k]))
      return `usage.${k} is not a count (${JSON.stringify(u[k])?.slice(0, 40)})`;
  return null;
}

/** The Anthropic adapter. Throws ConfigError when no API key is given or set. */
export function createAnthropicModel(options: AnthropicModelOptions = {}): Model {
  const key = options.apiKey ?? process.env.ANTHROPIC_API_KEY;
  if (!key)
    throw new ConfigError("no Anthropic API key", "set ANTHROPIC_API_KEY, or run offline without a model");
  return new AnthropicModel({ ...options, apiKey: key });
}
