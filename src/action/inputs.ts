/** The Action's inputs, read and validated once; a bad value fails with the input's name and what is allowed. */
import { ConfigError } from "../core/errors.ts";
import type { Mode } from "../jobs/intake.ts";

export interface ActionInputs {
  anthropicApiKey: string;
  githubToken: string;
  mode: Mode;
  model: string | null;
  maxAttempts: number | null;
  budgetUsd: number | null;
  config: string;
  dryRun: boolean;
  /** The sandbox image to use (a `repo@sha256:…` reference is pinned); empty: the published one. */
  sandboxImage: string | null;
  /** A registry host to pull the sandbox image through instead of its own. */
  sandboxRegistryMirror: string | null;
  /** Where the sandbox image is saved between runs; empty: $RUNNER_TOOL_CACHE/retrace-sandbox. */
  sandboxCacheDir: string | null;
}

export function readInputs(get: (name: string) => string): ActionInputs {
  const mode = get("mode") || "auto";
  if (mode !== "auto" && mode !== "repro" && mode !== "fix") {
    throw new ConfigError(`input mode must be auto, repro or fix, not ${JSON.stringify(mode)}`);
  }
  const maxAttemptsText = get("max-attempts");
  const maxAttempts = maxAttemptsText ? Number(maxAttemptsText) : null;
  if (maxAttempts !== null && (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 20)) {
    throw new ConfigError(
      `input max-attempts must be an integer from 1 to 20, not ${JSON.stringify(maxAttemptsText)}`,
    );
  }
  const budgetText = get("budget-usd");
  const budgetUsd = budgetText ? Number(budgetText) : null;
  if (budgetUsd !== null && (!Number.isFinite(budgetUsd) || budgetUsd < 0)) {
    throw new ConfigError(
      `input budget-usd must be a non-negative number of dollars, not ${JSON.stringify(budgetText)}`,
    );
  }
  const dryRunText = (get("dry-run") || "false").toLowerCase();
  if (dryRunText !== "true" && dryRunText !== "false") {
    throw new ConfigError(`input dry-run must be true or false, not ${JSON.stringify(dryRunText)}`);
  }
  const sandboxImage = get("sandbox-image");
  if (sandboxImage && !/^[A-Za-z0-9][A-Za-z0-9._/:@-]*$/.test(sandboxImage)) {
    throw new ConfigError(
      `input sandbox-image must be an image reference like ghcr.io/owner/name@sha256:…, not ${JSON.stringify(sandboxImage)}`,
    );
  }
  const mirror = get("sandbox-registry-mirror");
  if (mirror && !/^(https?:\/\/)?[A-Za-z0-9.-]+(:\d+)?\/?$/.test(mirror)) {
    throw new ConfigError(
      `input sandbox-registry-mirror must be a registry host (host or host:port), not ${JSON.stringify(mirror)}`,
    );
  }
  const githubToken = get("github-token");
  if (!githubToken) {
    throw new ConfigError(
      "input github-token is empty",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression shown to the user, not a template.
      "pass `github-token: ${{ secrets.GITHUB_TOKEN }}` (the default)",
    );
  }
  return {
    anthropicApiKey: get("anthropic-api-key"),
    githubToken,
    mode,
    model: get("model") || null,
    maxAttempts,
    budgetUsd,
    config: get("config") || ".github/retrace.yml",
    dryRun: dryRunText === "true",
    sandboxImage: get("sandbox-image") || null,
    sandboxRegistryMirror: get("sandbox-registry-mirror") || null,
    sandboxCacheDir: get("sandbox-cache-dir") || null,
  };
}
