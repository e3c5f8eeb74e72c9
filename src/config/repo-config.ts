/**
 * `.github/retrace.yml`, read through the API from the repository's default branch and validated against
 * the schema. A missing file means the defaults; an invalid one is an error naming the field and the problem.
 */
import { parse as parseYaml } from "yaml";
import { ConfigError } from "../core/errors.ts";
import { listKeys, maxConfigBytes } from "./load.ts";
import { RetraceConfig, defaultConfig } from "./schema.ts";
import type { GitHubPort, RepoId } from "../core/ports/github.ts";

export const CONFIG_PATH = ".github/retrace.yml";

/** Parse and validate the text of a config file; errors list every `field.path: problem`. */
export function parseRepoConfig(text: string, source = CONFIG_PATH): RetraceConfig {
  const bytes = Buffer.byteLength(text, "utf8");
  const max = maxConfigBytes();
  if (bytes > max) {
    throw new ConfigError(
      `${source} is ${bytes} bytes, over the ${max}-byte limit of a configuration file (RETRACE_HOST_LIMITS configKb)`,
      `keep ${source} to the fields docs/config.md lists`,
    );
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`${source}: not valid YAML: ${(error as Error).message}`, "fix the YAML syntax");
  }
  const parsed = RetraceConfig.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  // A hostile file can hold thousands of problems and keys: name the first few.
  const issues = parsed.error.issues;
  const problems = issues.slice(0, 10).map((i) => {
    const path = i.path.length ? i.path.join(".") : "(root)";
    if (i.code === "unrecognized_keys") return `${path}: unknown field(s) ${listKeys(i.keys)}`;
    return `${path}: ${i.message}`;
  });
  if (issues.length > 10) problems.push(`… and ${issues.length - 10} more problems`);
  throw new ConfigError(
    `${source} is invalid:\n${problems.map((p) => `- ${p}`).join("\n")}`,
    `fix ${source}; the JSON Schema in schema/retrace.schema.json lists every field`,
  );
}

/**
 * The config as the default branch holds it, never a branch under test: the branch being fixed must not
 * set its own policy. Both the App and the Action read it this way.
 */
export async function loadRepoConfig(
  github: GitHubPort,
  repo: RepoId,
  path = CONFIG_PATH,
): Promise<RetraceConfig> {
  const text = await github.getFileText(repo, path);
  return text === null ? defaultConfig() : parseRepoConfig(text, path);
}
