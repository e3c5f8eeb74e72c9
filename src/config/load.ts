/**
 * Loads `.github/retrace.yml` (adapter: may read the file system). YAML is parsed with the `yaml` package and
 * validated with the zod schema; every problem names the field path and what is wrong with it.
 *
 * The repository's own file is repository content, hence hostile: it is read only when it is a regular file
 * reached through no symbolic link (a committed `.github/retrace.yml -> /etc/shadow` would otherwise be read
 * as the host's file and echoed in the validation error), opened with O_NOFOLLOW, and capped in size.
 */
import { hostLimits } from "../core/host-limits.ts";
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { parseDocument } from "yaml";
import type { z } from "zod";
import { ConfigError } from "../core/errors.ts";
import { RegularFileError, readRegularFile } from "../git/regular-file.ts";
import { RetraceConfig } from "./schema.ts";

/** The conventional location, relative to the repository root. */
export const CONFIG_PATH = ".github/retrace.yml";

/**
 * Largest configuration file read (bytes); a real one is a few hundred. The operator's (RETRACE_HOST_LIMITS
 * configKb), 64 KiB by default.
 */
export function maxConfigBytes(): number {
  return hostLimits().configKb * 1024;
}

function tooLarge(source: string, size: number): ConfigError {
  return new ConfigError(
    `${source} is ${size} bytes, over the ${maxConfigBytes()}-byte limit of a configuration file (RETRACE_HOST_LIMITS configKb)`,
    "keep .github/retrace.yml to the fields docs/config.md lists",
  );
}

/**
 * Reads a regular file of at most maxConfigBytes(). `follow: false` refuses a symbolic link at the last
 * component (O_NOFOLLOW); a FIFO or device is refused before it is opened (opening one could block).
 */
async function readConfigText(file: string, source: string, follow: boolean): Promise<string> {
  try {
    return (await readRegularFile(file, { follow, maxBytes: maxConfigBytes() })).toString("utf8");
  } catch (error) {
    if (!(error instanceof RegularFileError)) throw error;
    switch (error.why) {
      case "directory":
        throw new ConfigError(`cannot read ${source}: it is a directory`, "pass the path of a YAML file");
      case "not-regular":
        throw new ConfigError(
          `${source} is not a regular file`,
          "make .github/retrace.yml a regular file of the repository",
        );
      // A hard link is a second name of a file that may live outside the repository (a checkout unpacked from
      // an archive can hold one): its content must not be read and echoed. Only the repository's own file is.
      case "hard-link":
        throw new ConfigError(
          `${source} is a hard link (${error.stats.nlink} names for one file), so its content may be a file outside the repository; it was not read`,
          "make .github/retrace.yml an ordinary file of the repository (git never checks out hard links)",
        );
      case "too-large":
        throw tooLarge(source, error.stats.size ?? maxConfigBytes() + 1);
      default:
        // A link (ELOOP) or a missing file (ENOENT): the caller names it.
        throw error;
    }
  }
}

/** `policy.sizeCaps.maxFiles` or `fix.checks[0]`; the root is `(root)`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `${out === "" ? "" : "."}${String(p)}`;
  return out === "" ? "(root)" : out;
}

/** At most 10 key names, each cut to 60 characters: a hostile file can hold thousands of long keys. */
export function listKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, 10).map((k) => `\`${k.length > 60 ? `${k.slice(0, 60)}…` : k}\``);
  return shown.join(", ") + (keys.length > 10 ? ` and ${keys.length - 10} more` : "");
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => {
      if (i.code === "unrecognized_keys") {
        const where = i.path.length === 0 ? "" : `${fieldPath(i.path)}: `;
        return `${where}unknown field(s) ${listKeys(i.keys)}`;
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
  const tooDeep = () =>
    new ConfigError(
      `${source} nests its collections too deeply to read (YAML lists or mappings inside each other past what the parser can hold)`,
      "a configuration nests a few levels (section, field, list); remove the nested [ or { brackets",
    );
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep();
    throw error;
  }
  // yaml catches its own stack overflow on deeply nested flow collections and reports it as a syntax error.
  if (doc.errors.some((e) => /Maximum call stack size exceeded/.test(e.message))) throw tooDeep();
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const at = e.linePos?.[0] ? ` (line ${e.linePos[0].line}, column ${e.linePos[0].col})` : "";
    throw new ConfigError(
      // yaml's message repeats the position and a code frame after "at line L, column C:"; keep the sentence.
      `${source} is not valid YAML${at}: ${e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}`,
      "fix the YAML syntax (indentation with spaces, `key: value` pairs)",
    );
  }
  let value: unknown;
  try {
    // yaml refuses an alias bomb ("billion laughs") here, with a ReferenceError.
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep();
    throw new ConfigError(
      `${source} could not be read as YAML: ${(error as Error).message}`,
      "write the configuration without YAML aliases (&anchor / *alias)",
    );
  }
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
  file: string,
  options: { optional?: boolean } = {},
): Promise<RetraceConfig> {
  let text: string;
  try {
    text = await readConfigText(file, file, true);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
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
    throw new ConfigError(`cannot read ${file}: ${why}`, "check the path given with --config");
  }
  return loadConfigFromString(text, file);
}

/**
 * Loads a checkout's own `.github/retrace.yml` (the defaults when there is none). The file is repository
 * content: every component below the root is lstat-ed and a symbolic link anywhere is refused (never
 * followed), a non-regular file is refused, and the size is capped.
 */
export async function loadRepoConfigFile(repoRoot: string): Promise<RetraceConfig> {
  const root = await realpath(repoRoot).catch(() => path.resolve(repoRoot));
  const parts = CONFIG_PATH.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const rel = parts.slice(0, i).join("/");
    const info = await lstat(path.join(root, rel)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
      throw new ConfigError(
        `cannot read ${CONFIG_PATH}: ${error.message}`,
        "check the checkout's permissions",
      );
    });
    if (info === null) return RetraceConfig.parse({});
    if (info.isSymbolicLink()) {
      throw new ConfigError(
        `${rel === CONFIG_PATH ? CONFIG_PATH : `${rel} (in ${CONFIG_PATH})`} is a symbolic link; Retrace reads its configuration only from a regular file of the repository and never follows a link out of it`,
        `commit ${CONFIG_PATH} as a regular file`,
      );
    }
  }
  let text: string;
  try {
    text = await readConfigText(path.join(root, CONFIG_PATH), CONFIG_PATH, false);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: the file became a link between the lstat walk and the open (O_NOFOLLOW refused it).
    const why = code === "ELOOP" ? "it is a symbolic link" : (error as Error).message;
    throw new ConfigError(`cannot read ${CONFIG_PATH}: ${why}`, `commit ${CONFIG_PATH} as a regular file`);
  }
  return loadConfigFromString(text, CONFIG_PATH);
}
