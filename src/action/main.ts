/**
 * The Action's entry (bundled to dist/index.mjs): wire the real adapters, run, and turn any error into a
 * failed step with a redacted message. Logic lives in run.ts.
 */
import * as core from "@actions/core";
import { getOctokit } from "@actions/github";
import { describeError } from "../core/errors.ts";
import { Redactor } from "../core/redact.ts";
import { createGitHubPort, type OctokitLike } from "../github/octokit-port.ts";
import { createDefaultRunner } from "../jobs/default-runner.ts";
import { evaluatePatch } from "../policy/index.ts";
import { runAction } from "./run.ts";

try {
  await runAction({
    env: process.env,
    core,
    github: (token) =>
      createGitHubPort(
        getOctokit(
          token,
          process.env.GITHUB_API_URL ? { baseUrl: process.env.GITHUB_API_URL } : {},
        ) as unknown as OctokitLike,
      ),
    runner: (inputs) =>
      createDefaultRunner({
        env: { ...process.env, ANTHROPIC_API_KEY: inputs.anthropicApiKey || process.env.ANTHROPIC_API_KEY },
        repoDir: process.env.GITHUB_WORKSPACE ?? process.cwd(),
        secrets: [inputs.githubToken],
      }),
    gate: (patch, policy) => evaluatePatch(patch, policy),
  });
} catch (error) {
  const redactor = new Redactor([core.getInput("anthropic-api-key"), core.getInput("github-token")]);
  core.setFailed(redactor.redact(`Retrace: ${describeError(error)}`));
}
