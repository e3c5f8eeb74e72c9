/**
 * The Action's entry (bundled to dist/index.mjs): wire the real adapters, run, and turn any error into a
 * failed step with a redacted message. Logic lives in run.ts.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as core from "@actions/core";
import { describeError } from "../core/errors.ts";
import { Redactor } from "../core/redact.ts";
import { createGitHubPort, type OctokitLike } from "../github/octokit-port.ts";
import { createDefaultRunner } from "../jobs/default-runner.ts";
import { evaluatePatch } from "../policy/index.ts";
import { connectDocker, pingEngine } from "../sandbox/engine.ts";
import { provisionSandboxImage, readPublishedImage } from "../sandbox/image.ts";
import { runAction } from "./run.ts";

// The bundle runs from <action>/dist/: the Dockerfile and the pinned image digest ship beside it.
const actionRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * `@actions/github` builds its `context` when it is imported, with a bare `JSON.parse` of the file GITHUB_EVENT_PATH
 * names: a file that is not JSON (a link to /proc/self/environ, a token file) ends the process with an uncaught
 * error that prints the file's first line, unmasked (red team 27). Retrace reads the event itself (readEventFile:
 * regular files only, bounded, errors that name the path and never the content), so the client is imported with
 * the variable unset.
 */
async function importGetOctokit(): Promise<typeof import("@actions/github").getOctokit> {
  const saved = process.env.GITHUB_EVENT_PATH;
  delete process.env.GITHUB_EVENT_PATH;
  try {
    return (await import("@actions/github")).getOctokit;
  } finally {
    if (saved !== undefined) process.env.GITHUB_EVENT_PATH = saved;
  }
}

try {
  const getOctokit = await importGetOctokit();
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
    provision: async (inputs, log) => {
      const docker = connectDocker();
      await pingEngine(docker);
      const cacheDir =
        inputs.sandboxCacheDir ??
        (process.env.RUNNER_TOOL_CACHE ? join(process.env.RUNNER_TOOL_CACHE, "retrace-sandbox") : undefined);
      const r = await provisionSandboxImage(docker, {
        image: inputs.sandboxImage ?? process.env.RETRACE_SANDBOX_IMAGE,
        published: readPublishedImage(join(actionRoot, "sandbox", "published.json")),
        mirror: inputs.sandboxRegistryMirror ?? undefined,
        buildContext: join(actionRoot, "sandbox"),
        cacheDir,
        log,
      });
      log(`sandbox image ${r.image} (${r.how}, ${(r.ms / 1000).toFixed(1)} s)`);
      return r.image;
    },
    runner: (inputs, image) =>
      createDefaultRunner({
        env: {
          ...process.env,
          ANTHROPIC_API_KEY: inputs.anthropicApiKey || process.env.ANTHROPIC_API_KEY,
          ...(image ? { RETRACE_SANDBOX_IMAGE: image } : {}),
        },
        repoDir: process.env.GITHUB_WORKSPACE ?? process.cwd(),
        secrets: [inputs.githubToken],
      }),
    gate: (patch, policy, context) => evaluatePatch(patch, policy, context),
  });
} catch (error) {
  const redactor = new Redactor([core.getInput("anthropic-api-key"), core.getInput("github-token")]);
  core.setFailed(redactor.redact(`Retrace: ${describeError(error)}`));
}
