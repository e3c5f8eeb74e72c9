/**
 * The one way Retrace runs git on the host (adapter). A checkout's `.git/config` is input like any other file
 * of the repository: it can name programs git runs by itself (`core.fsmonitor`, hooks through
 * `core.hooksPath`, `filter.<driver>.clean/smudge/process`, `diff.<driver>.command/textconv`, `diff.external`,
 * `core.sshCommand`, `credential.helper`, `gpg.program`, `remote.<name>.uploadpack`, an `ext::` remote URL …).
 * Every command therefore runs with:
 * - an environment built from scratch (PATH, HOME, LANG, plus the caller's GIT_* variables): no system or
 *   global config (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL=/dev/null`), no terminal prompt, no pager;
 * - a fixed minimal configuration in command-line scope (GIT_CONFIG_COUNT/KEY/VALUE, which wins over the
 *   repository's own):
 *   `FIXED_CONFIG` below, and for each key of the repository's config that names a program, an override that
 *   makes it run nothing (`neutralizingConfig`);
 * - a time limit, an output cap and cancellation; on any of them the whole process group is killed.
 * `git config --list` (reading config never runs a program) tells which keys the repository sets.
 */
import { hostLimits } from "../core/host-limits.ts";
import { privateSourceHosts } from "../core/private-source-hosts.ts";
import { spawn } from "node:child_process";
import { CancelledError } from "../core/errors.ts";
import { GitConfigRefusedError, GitError } from "./errors.ts";
import { checkGitDir } from "./git-dir.ts";
import { gitEnv, requireGitVersion } from "./git-env.ts";

import { promisorAccess } from "./promisor.ts";

/** Configuration every host-side git command runs with; command-line scope beats every config file. */
export const FIXED_CONFIG: readonly string[] = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.attributesFile=/dev/null",
  "core.sshCommand=ssh -o BatchMode=yes",
  "core.askPass=",
  "core.pager=cat",
  "core.editor=false",
  "sequence.editor=false",
  "credential.helper=",
  "diff.external=",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "log.showSignature=false",
  "gpg.program=false",
  "gc.auto=0",
  // GIT_GRAFT_FILE=/dev/null (below) is a grafts file to git, which says so on stderr every command.
  "advice.graftFileDeprecated=false",
  "http.cookieFile=",
  "http.saveCookies=false",
  "maintenance.auto=false",
  "submodule.recurse=false",
  "fetch.recurseSubmodules=false",
  "protocol.allow=never",
  "protocol.https.allow=always",
  "protocol.ssh.allow=always",
  "protocol.file.allow=always",
  "safe.bareRepository=explicit",
  // Git refuses a repository owned by another user unless told; the programs such a repository could name
  // are neutralised here, which is what that check protects against.
  "safe.directory=*",
];

/** Transports git may use; `ext::` (runs a command) and `git://` (core.gitProxy) among the rest are off. */
const ALLOWED_PROTOCOLS = new Set(["https", "ssh", "file"]);

/** Keys of a repository's config that name a program, and the value that makes git run nothing. */
const NEUTRAL: readonly { key: RegExp; value: string | ((key: string) => string) }[] = [
  // A repository may not re-allow a transport (`protocol.ext.allow=always` beats `protocol.allow=never`).
  {
    key: /^protocol\..+\.allow$/i,
    value: (key) => (ALLOWED_PROTOCOLS.has(key.split(".")[1]!.toLowerCase()) ? "always" : "never"),
  },
  { key: /^protocol\.allow$/i, value: "never" },
  { key: /^filter\..+\.(clean|smudge|process)$/i, value: "" },
  { key: /^filter\..+\.required$/i, value: "false" },
  { key: /^diff\..+\.(command|textconv)$/i, value: "" },
  { key: /^merge\..+\.driver$/i, value: "" },
  { key: /^credential\..+\.helper$/i, value: "" },
  { key: /^gpg\..+\.program$/i, value: "false" },
  { key: /^(difftool|mergetool)\..+\.cmd$/i, value: "false" },
  // Config-defined hooks (newer git) do not go through core.hooksPath.
  { key: /^hook\..+\.command$/i, value: "true" },
  { key: /^pager\..+$/i, value: "false" },
  // A cookie file is read and (with saveCookies) written at any path the config names.
  { key: /^http\.(.+\.)?cookiefile$/i, value: "" },
  { key: /^http\.(.+\.)?savecookies$/i, value: "false" },
  { key: /^core\.gitproxy$/i, value: "" },
  // Where git connects is Retrace's choice, never the checkout's: a proxy the config names (for all URLs, one URL
  // or one remote) would have the host's git connect to any service the host reaches, loopback included. An empty
  // value is git's (and curl's) "no proxy".
  { key: /^http\.(.+\.)?proxy$/i, value: "" },
  { key: /^remote\..+\.proxy$/i, value: "" },
];

/**
 * Keys with no neutral value: a program with no harmless stand-in (`core.alternateRefsCommand`, a remote
 * helper through `remote.<name>.vcs`), keys where git uses the *first* value so a command-line one cannot win
 * (`remote.<name>.uploadpack/receivepack`: "more than one uploadpack given, using the first"), and URL
 * rewriting (`url.<base>.insteadOf`: multi-valued, and it can turn the origin into a host path or an `ext::`
 * command), and address pinning (`http.curloptResolve`: multi-valued, it sends a name to any address).
 * Git is not run on such a repository at all.
 */
const REFUSED: readonly RegExp[] = [
  /^core\.alternaterefscommand$/i,
  /^remote\..+\.vcs$/i,
  /^remote\..+\.(uploadpack|receivepack)$/i,
  /^url\..+\.(insteadof|pushinsteadof)$/i,
  // Multi-valued name-to-address pins (`host:port:127.0.0.1`): no command-line value removes the checkout's.
  /^http\.(.+\.)?curloptresolve$/i,
];

/**
 * Overrides for the program-naming keys among `keys` (names as `git config --list --name-only` prints):
 * configuration pairs, and environment variables for what git reads before any configuration (the work tree).
 */
export function neutralizingConfig(
  keys: readonly string[],
  cwd: string,
): { config: [string, string][]; env: Record<string, string> } {
  const out = new Map<string, string>();
  const env: Record<string, string> = {};
  for (const key of keys) {
    if (REFUSED.some((re) => re.test(key))) {
      throw new GitConfigRefusedError(
        `the repository's git config sets ${key}, which can make git run a program or fetch from elsewhere; Retrace does not run git on it`,
        `remove ${key} from the checkout's .git/config (git config --unset ${key})`,
      );
    }
    const rule = NEUTRAL.find((r) => r.key.test(key));
    if (rule) out.set(key, typeof rule.value === "string" ? rule.value : rule.value(key));
    // A work tree set in the config could point git anywhere on the host: the checkout is the work tree.
    // Git reads core.worktree from the repository's file during discovery, before command-line configuration;
    // only GIT_WORK_TREE beats it.
    if (/^core\.worktree$/i.test(key)) env.GIT_WORK_TREE = cwd;
  }
  return { config: [...out], env };
}

export interface GitRunOptions {
  /** Extra variables (GIT_INDEX_FILE, GIT_AUTHOR_NAME …); nothing else of the host's environment is passed. */
  env?: Record<string, string>;
  /** Kill after this many ms (default 60 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Cap on stdout; past it the command is killed and the call fails (default: RETRACE_HOST_LIMITS gitOutputMb, 64 MiB). */
  maxOutputBytes?: number;
  /**
   * Retrace's own configuration for this one command, after the fixed and neutralising pairs (so it wins): the
   * address a fetch is pinned to (./origin.ts). Never the repository's.
   */
  config?: readonly (readonly [string, string])[];
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The configuration pairs as GIT_CONFIG_COUNT/KEY_n/VALUE_n (git 2.31+; command-line scope, like `-c`). Unlike
 * `-c key=value`, a key whose subsection holds `=` (`filter "a=b"`) cannot be split at the wrong place.
 */
export function configEnv(config: readonly (readonly [string, string])[]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(config.length) };
  config.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}

function splitPair(pair: string): [string, string] {
  const i = pair.indexOf("=");
  return [pair.slice(0, i), pair.slice(i + 1)];
}

/** Runs `git <args>` in `cwd` with exactly `config` (`key=value` pairs) as command-line configuration. */
export async function execGit(
  cwd: string,
  config: readonly (readonly [string, string])[],
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<string> {
  await requireGitVersion();
  return spawnGit(cwd, [...config, ...(options.config ?? [])], args, options);
}

function spawnGit(
  cwd: string,
  config: readonly (readonly [string, string])[],
  args: readonly string[],
  options: GitRunOptions,
): Promise<string> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxOut = options.maxOutputBytes ?? hostLimits().gitOutputMb * 1024 * 1024;
  const what = `git ${args.slice(0, 2).join(" ")}`;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new CancelledError(`${what} was cancelled before it started`));
      return;
    }
    // Its own process group, so a kill reaches the programs git starts (ssh, remote helpers) too.
    // Through `sh` only to set git's data limit (`ulimit -d`: heap and anonymous memory, not the packs git maps
    // from disk): a blob of zeros a thousand times its stored size (a 1 GiB blob is a 1 MiB object) is read whole
    // by a diff, and the output cap does not bound git's own memory. Past it git fails ("out of memory").
    const child = spawn(
      "sh",
      ["-c", 'ulimit -d "$0" && exec git "$@"', String(hostLimits().gitMemoryMb * 1024), ...args],
      {
        cwd,
        env: { ...gitEnv(options.env, cwd), ...configEnv(config) },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      },
    );
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    let stopped: "timeout" | "output" | "cancelled" | null = null;
    const kill = (why: "timeout" | "output" | "cancelled") => {
      if (stopped !== null) return;
      stopped = why;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const timer = setTimeout(() => kill("timeout"), timeoutMs);
    const onAbort = () => kill("cancelled");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (c: Buffer) => {
      outBytes += c.length;
      if (outBytes > maxOut) kill("output");
      else out.push(c);
    });
    child.stderr.on("data", (c: Buffer) => {
      if (err.length < 16 * 1024) err += c.toString("utf8");
    });
    const finish = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    };
    child.on("error", (error: NodeJS.ErrnoException) => {
      finish();
      reject(
        new GitError(
          `cannot run git: ${error.message}`,
          error.code === "ENOENT" ? "install git on the host that runs Retrace" : undefined,
          error,
        ),
      );
    });
    child.on("close", (code, signal) => {
      finish();
      if (stopped === "cancelled") return reject(new CancelledError(`${what} was cancelled`));
      if (stopped === "timeout")
        return reject(
          new GitError(
            `${what} did not finish in ${timeoutMs >= 1_000 ? `${Math.round(timeoutMs / 1_000)} s` : `${timeoutMs} ms`} and was killed`,
            "check the repository (size, remote reachability)",
          ),
        );
      if (stopped === "output")
        return reject(
          new GitError(`${what} wrote more than ${maxOut} bytes and was killed`, "the change is too large"),
        );
      if (code !== 0) {
        const detail = err.trim() || `exit ${code ?? signal}`;
        return reject(new GitError(`${what} failed: ${detail}`));
      }
      resolve(Buffer.concat(out).toString("utf8"));
    });
  });
}

/** A git client bound to one checkout: every call runs with the fixed and the neutralising configuration. */
export interface SafeGit {
  readonly dir: string;
  /** `git <args>`; rejects with GitError on a non-zero exit (stderr in the message), a timeout or the cap. */
  raw(args: readonly string[], options?: GitRunOptions): Promise<string>;
  /** The configuration in force (FIXED_CONFIG + the repository's neutralised keys). */
  config(): Promise<[string, string][]>;
}

/**
 * Opens `dir` for git. The repository's config is listed before every command to neutralise its program keys:
 * what is in force can change between two commands of one client — a checkout of a branch makes an
 * `includeIf "onbranch:…"` file count, a checkout of another commit rewrites a file an `include.path` names in
 * the work tree — and a list taken once let such a file's filter driver and `core.fsmonitor` run on the next
 * `status` (eighth red team).
 */
export function safeGit(dir: string, defaults: GitRunOptions = {}): SafeGit {
  const fixed = FIXED_CONFIG.map(splitPair);
  const settings = (): Promise<{ config: [string, string][]; env: Record<string, string> }> =>
    // The git directory first (src/git/git-dir.ts): no metadata file that is a link to a host file, no other
    // repository's objects or refs. Then the config. Fails closed: a config git cannot list (a syntax error, an
    // include.path naming a FIFO that blocks) is an error, never "no keys to neutralise". Outside a repository
    // the list is empty and git exits 0.
    checkGitDir(dir)
      .then(() =>
        execGit(dir, fixed, ["config", "--list", "--includes", "-z"], {
          ...defaults,
          timeoutMs: 10_000,
        }),
      )
      .catch((error: unknown) => {
        if (error instanceof CancelledError || error instanceof GitConfigRefusedError) throw error;
        throw new GitConfigRefusedError(
          `cannot read the checkout's git config, so Retrace does not run git on it: ${(error as Error).message}`,
          "check the checkout's .git/config and the files it includes (include.path)",
        );
      })
      .then(async (text) => {
        // `key\nvalue`, or `key` alone for a key without a value.
        const entries = text
          .split("\0")
          .filter(Boolean)
          .map((e): [string, string | null] => {
            const i = e.indexOf("\n");
            return i === -1 ? [e, null] : [e.slice(0, i), e.slice(i + 1)];
          });
        const n = neutralizingConfig(
          entries.map(([key]) => key),
          dir,
        );
        // A partial clone fetches missing objects by itself: from where, judged like an origin (./promisor.ts).
        const promisor = await promisorAccess(entries, privateSourceHosts(process.env));
        if ("refused" in promisor)
          throw new GitConfigRefusedError(
            `${promisor.refused}; Retrace does not run git on it`,
            "fetch the missing objects first (git fetch --refetch from a server you trust) or clone without --filter",
          );
        return { config: [...fixed, ...n.config, ...promisor.config], env: n.env };
      });
  return {
    dir,
    config: async () => (await settings()).config,
    async raw(args, options = {}) {
      const s = await settings();
      return execGit(dir, s.config, args, {
        ...defaults,
        ...options,
        env: { ...defaults.env, ...options.env, ...s.env },
      });
    },
  };
}
