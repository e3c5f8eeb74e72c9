/**
 * Loads `.github/retrace.yml` (adapter: may read the file system). YAML is parsed with the `yaml` package and
 * validated with the zod schema; every problem names the field path and what is wrong with it.
 */
import { readFile } from "node:fs/promises";
import { parseDocument } from "yaml";
import type { z } from "zod";
import { ConfigError } from "../core/errors.ts";
import { RetraceConfig } from "./schema.ts";

/** The conventional location, relative to the repository root. */
export const CONFIG_PATH = ".github/retrace.yml";

/** `policy.sizeCaps.maxFiles` or `fix.checks[0]`; the root is `(root)`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `${out === "" ? "" : "."}${String(p)}`;
  return out === "" ? "(root)" : out;
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => {
      if (i.code === "unrecognized_keys") {
        const where = i.path.length === 0 ? "" : `${fieldPath(i.path)}: `;
        return `${where}unknown field(s) ${i.keys.map((k) => `\`${k}\``).join(", ")}`;
      }
      return `${fieldPath(i.path)}: ${i.message}`;
    })
    .join("; ");
}

/** Validates an already-parsed value (e.g. from a JSON artifact) as a configuration. */
export function parseConfig(value: unknown, source = CONFIG_PATH): RetraceConfig {
  const result = RetraceConfig.safeParse(value ?? {});
  if (!result.success) {
    throw new ConfigError(
      `${source} is invalid: ${describeIssues(result.error.issues)}`,
      "fix the field(s) named above; docs/config.md lists every field, its type and its default",
    );
  }
  return result.data;
}

/** Parses YAML text as a configuration. An empty document is the default configuration. */
export function loadConfigFromString(text: string, source = CONFIG_PATH): RetraceConfig {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const at = e.linePos?.[0] ? ` (line ${e.linePos[0].line}, column ${e.linePos[0].col})` : "";
    throw new ConfigError(
      // yaml's message repeats the position and a code frame after "at line L, column C:"; keep the sentence.
      `${source} is not valid YAML${at}: ${e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}`,
      "fix the YAML syntax (indentation with spaces, `key: value` pairs)",
    );
  }
  const value: unknown = doc.toJS();
  if (value !== null && value !== undefined && (typeof value !== "object" || Array.isArray(value))) {
    throw new ConfigError(
      `${source} must be a mapping of sections (policy, repro, fix, ...), not ${Array.isArray(value) ? "a list" : typeof value}`,
      "start the file with a section name such as `policy:`",
    );
  }
  return parseConfig(value, source);
}

/**
 * Loads a configuration file. A missing file is an error when the path was given explicitly, and the default
 * configuration when `optional` is set (a repository without `.github/retrace.yml`).
 */
export async function loadConfigFile(
  path: string,
  options: { optional?: boolean } = {},
): Promise<RetraceConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && options.optional) return RetraceConfig.parse({});
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "it is a directory"
          : code === "EACCES" || code === "EPERM"
            ? "permission denied"
            : (error as Error).message;
    throw new ConfigError(`cannot read ${path}: ${why}`, "check the path given with --config");
  }
  return loadConfigFromString(text, path);
}
