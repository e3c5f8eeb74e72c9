/**
 * The Model port. Pipelines take a `Model` as a parameter; adapters (Anthropic, scripted, replay) implement it.
 * Tool input schemas are zod schemas: adapters convert them to JSON Schema for the API and validate every
 * tool call against them before a pipeline sees it.
 */
import type { z } from "zod";

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  /** Stable tool name; recorded traces replay against it. */
  name: string;
  description: string;
  input: S;
}

export interface TextBlock {
  type: "text";
  text: string;
}
export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}
export interface ToolResultBlock {
  type: "tool_result";
  toolUseId: string;
  content: string;
  isError?: boolean;
}
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock;

export interface ModelMessage {
  role: "user" | "assistant";
  content: string | ContentBlock[];
}

export interface ModelRequest {
  /** Model name; the adapter's default when absent. */
  model?: string;
  /** Instructions. Stable across attempts so the provider can cache it. */
  system: string;
  /**
   * Large, stable context (repository files, the report) placed before the conversation and marked for
   * prompt caching, so retries and later attempts reuse it.
   */
  context?: string;
  messages: ModelMessage[];
  tools?: ToolDefinition[];
  /** Force a particular tool, any tool, or let the model choose. */
  toolChoice?: { type: "auto" } | { type: "any" } | { type: "tool"; name: string };
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /**
   * Set by the loop engine's metering wrapper: the state and attempt that made the call. Traces record it,
   * and the replay model uses it to say where a re-run diverged. Adapters do not send it to the provider.
   */
  meta?: { step: string; attempt: number };
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface ToolCall {
  id: string;
  name: string;
  /** Validated against the tool's zod schema. */
  input: unknown;
}

export interface ModelResponse {
  /** The model that answered (as reported by the provider). */
  model: string;
  text: string;
  toolCalls: ToolCall[];
  stopReason: string | null;
  usage: TokenUsage;
  /** Cost in US dollars computed from the configured pricing table. */
  costUsd: number;
}

export interface Model {
  complete(request: ModelRequest): Promise<ModelResponse>;
}
