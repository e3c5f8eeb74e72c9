/**
 * The model a process gets from its environment: the Anthropic adapter when ANTHROPIC_API_KEY is set,
 * otherwise null, and callers run offline (the deterministic paths of the pipelines).
 */
import { type AnthropicModelOptions, createAnthropicModel } from "./anthropic.ts";
import type { Model } from "../core/ports/model.ts";

export function createModelFromEnv(
  options: Omit<AnthropicModelOptions, "apiKey" | "baseURL"> = {},
  env: Record<string, string | undefined> = process.env,
): Model | null {
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  if (!apiKey) return null;
  const baseURL = env.ANTHROPIC_BASE_URL?.trim();
  return createAnthropicModel({ ...options, apiKey, ...(baseURL ? { baseURL } : {}) });
}
