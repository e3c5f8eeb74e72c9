/**
 * The registries installs and look-ups use, read once from the operator's own configuration — never from a
 * repository's: npm's `registry` (`npm config get registry`, which honours `registry=` in the user and global
 * .npmrc and `npm_config_registry`), pip's index (`pip config list`: PIP_INDEX_URL, PIP_EXTRA_INDEX_URL,
 * PIP_FIND_LINKS and pip.conf). The same object decides where the latest-version look-up asks, which hosts the
 * install container's proxy lets through, which local mirror directories are mounted read-only into it, and it is
 * part of every install cache key.
 */
import { execFile } from "node:child_process";
import { hostSpawnPath } from "../core/host-path.ts";
import { privateSourceHosts } from "../core/private-source-hosts.ts";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export interface PipIndexConfig {
  /** The main index (`index-url`); PyPI's simple index when nothing is configured. */
  indexUrl: string;
  extraIndexUrls: string[];
  /** `find-links` locations (directories or URLs). */
  findLinks: string[];
}

export interface RegistryConfig {
  /** npm registry base URL, with a trailing slash. */
  npm: string;
  /** The operator's scoped registries (`@acme:registry=` in their .npmrc): scope → base URL with a trailing slash. */
  npmScopes?: Record<string, string>;
  /**
   * The operator's registry credentials (`//host/path/:_authToken=`, `:_auth=`, `:username=`+`:_password=`), kept
   * on the host: the install proxy adds them to the requests it forwards, the look-up sends them; they never
   * enter a container, a cache key, a log or JSON output.
   */
  npmAuth?: RegistryCredentials;
  pip: PipIndexConfig;
  /**
   * Credentials the operator wrote into a pip index URL (`https://user:token@host/simple`, the form pip documents),
   * taken out of the URL (`pip` holds it without them): the look-up sends them as a header; pip gets the URL with
   * them back only in its environment inside the install container, never in an argument list (which every local
   * user of the host reads in the process table), a cache key, a log or JSON output.
   */
  pipAuth?: RegistryCredentials;
  /**
   * The operator's CA bundle (npm `cafile`, NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, PIP_CERT), copied into the install
   * container so a registry behind a TLS-inspecting proxy or with a private CA verifies there as on the host.
   */
  caFile: string | null;
  /**
   * Hosts (`host` or `host:port`) that sources a repository names (with its `install.allowGit`/`allowRemote`) may
   * reach at internal addresses: the operator's own git server or artifact host on a private network
   * (`RETRACE_PRIVATE_SOURCE_HOSTS`, comma-separated). Any other repository-named host must resolve to a public
   * address.
   */
  privateSourceHosts?: string[];
}

export const PUBLIC_NPM_REGISTRY = "https://registry.npmjs.org/";

/**
 * Authorization headers by npm's credential key (`//host[:port]/path/`). Serialises and prints as the keys only,
 * so a trace, an error or a JSON dump of a RegistryConfig never shows a token.
 */
export class RegistryCredentials {
  readonly #headers: Map<string, string>;
  constructor(headers: Iterable<[string, string]> = []) {
    this.#headers = new Map(headers);
  }
  get size(): number {
    return this.#headers.size;
  }
  /** The header for a request to `url`: the longest credential key that is a prefix of `//host[:port]/path`. */
  authorizationFor(url: string): string | null {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return null;
    }
    const target = `//${u.host}${u.pathname}`;
    let best: string | null = null;
    for (const key of this.#headers.keys())
      if (target.startsWith(key) && (best === null || key.length > best.length)) best = key;
    return best === null ? null : this.#headers.get(best)!;
  }
  /** Every key and header (for a merge into another set). */
  entries(): [string, string][] {
    return [...this.#headers.entries()];
  }
  toJSON(): string[] {
    return [...this.#headers.keys()].map((k) => `${k}:(credentials)`);
  }
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `RegistryCredentials(${this.toJSON().join(", ")})`;
  }
}

/**
 * Credentials in .npmrc text, as npm reads them: `//host/path/:_authToken=` (Bearer), `:_auth=` (Basic, already
 * base64), `:username=` with `:_password=` (base64 of the password), `${VAR}` expanded from `env`. Keys are
 * normalised to end in `/`.
 */
export function parseNpmrcCredentials(text: string, env: NodeJS.ProcessEnv = {}): [string, string][] {
  const expand = (v: string) => v.replace(/\$\{([^}]+)\}/g, (_m, name: string) => env[name] ?? "");
  const values = new Map<string, Record<string, string>>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line.startsWith("//")) continue;
    const eq = line.indexOf("=");
    if (eq === -1) continue;
    const key = line.slice(0, eq).trim();
    const colon = key.lastIndexOf(":");
    if (colon === -1) continue;
    const prefix = key.slice(0, colon).replace(/\/?$/, "/");
    const field = key.slice(colon + 1);
    const value = expand(
      line
        .slice(eq + 1)
        .trim()
        .replace(/^(["'])(.*)\1$/, "$2"),
    );
    if (!value) continue;
    values.set(prefix, { ...values.get(prefix), [field]: value });
  }
  const out: [string, string][] = [];
  for (const [prefix, f] of values) {
    if (f._authToken) out.push([prefix, `Bearer ${f._authToken}`]);
    else if (f._auth) out.push([prefix, `Basic ${f._auth}`]);
    else if (f.username && f._password)
      out.push([
        prefix,
        `Basic ${Buffer.from(`${f.username}:${Buffer.from(f._password, "base64").toString("utf8")}`).toString("base64")}`,
      ]);
  }
  return out;
}

/**
 * An http(s) URL without its userinfo (`https://user:pass@host/path` → `https://host/path`) and the credential it
 * carried, keyed as npm keys credentials (`//host[:port]/path/`, Basic of the decoded user and password); the URL
 * unchanged and no credential when it has none or is not an http(s) URL. Pure.
 */
export function splitUserinfo(url: string): { url: string; credential: [string, string] | null } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url, credential: null };
  }
  if ((u.protocol !== "https:" && u.protocol !== "http:") || (u.username === "" && u.password === ""))
    return { url, credential: null };
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const basic = Buffer.from(`${decode(u.username)}:${decode(u.password)}`).toString("base64");
  u.username = "";
  u.password = "";
  const key = `//${u.host}${u.pathname.replace(/\/?$/, "/")}`;
  return { url: u.toString(), credential: [key, `Basic ${basic}`] };
}

/**
 * The configuration with the userinfo of every registry and index URL moved into credentials (npm's into
 * `npmAuth`, pip's into `pipAuth`), so no URL it holds carries a password. Pure.
 */
export function withoutUserinfo(config: RegistryConfig): RegistryConfig {
  const npm: [string, string][] = config.npmAuth?.entries() ?? [];
  const pip: [string, string][] = config.pipAuth?.entries() ?? [];
  const take = (url: string, into: [string, string][]) => {
    const r = splitUserinfo(url);
    if (r.credential) into.push(r.credential);
    return r.url;
  };
  const scopes = config.npmScopes
    ? Object.fromEntries(Object.entries(config.npmScopes).map(([scope, url]) => [scope, take(url, npm)]))
    : undefined;
  const out: RegistryConfig = {
    ...config,
    npm: take(config.npm, npm),
    ...(scopes ? { npmScopes: scopes } : {}),
    pip: {
      indexUrl: take(config.pip.indexUrl, pip),
      extraIndexUrls: config.pip.extraIndexUrls.map((u) => take(u, pip)),
      findLinks: config.pip.findLinks.map((u) => take(u, pip)),
    },
  };
  if (npm.length > 0) out.npmAuth = new RegistryCredentials(npm);
  if (pip.length > 0) out.pipAuth = new RegistryCredentials(pip);
  return out;
}

/**
 * A pip index URL with the operator's credentials for it put back as userinfo (`pipAuth`, Basic only), for pip's
 * environment in the install container; the URL as is without one.
 */
export function pipUrlWithCredentials(config: RegistryConfig, url: string): string {
  // The credential's key ends in `/` (`//host/simple/`): the index URL as written may not.
  const header = config.pipAuth?.authorizationFor(url.replace(/\/?$/, "/")) ?? null;
  if (!header?.startsWith("Basic ")) return url;
  const plain = Buffer.from(header.slice(6), "base64").toString("utf8");
  const colon = plain.indexOf(":");
  try {
    const u = new URL(url);
    u.username = encodeURIComponent(colon === -1 ? plain : plain.slice(0, colon));
    u.password = colon === -1 ? "" : encodeURIComponent(plain.slice(colon + 1));
    return u.toString();
  } catch {
    return url;
  }
}

/** Every npm registry the operator configured: the default one, then each scope's. */
export function npmRegistries(config: RegistryConfig): string[] {
  return [...new Set([config.npm, ...Object.values(config.npmScopes ?? {})])];
}

/** The registry npm asks for `name`: its scope's when the operator configured one, else the default. */
export function npmRegistryFor(config: RegistryConfig, name: string): string {
  const scope = name.startsWith("@") ? name.slice(0, name.indexOf("/")) : null;
  return (scope && config.npmScopes?.[scope]) || config.npm;
}
export const PUBLIC_PYPI_INDEX = "https://pypi.org/simple";

function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

function splitList(value: string): string[] {
  return value
    .split(/\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Parses `pip config list` output (`global.index-url='…'`, `:env:.find-links='…'`); env entries win. */
export function parsePipConfigList(output: string, env: NodeJS.ProcessEnv = {}): PipIndexConfig {
  const values = new Map<string, { value: string; fromEnv: boolean }>();
  for (const line of output.split("\n")) {
    const m = /^([^.=\s]*)\.([\w-]+)='(.*)'$/.exec(line.trim());
    if (!m) continue;
    const [, section, key, value] = m as unknown as [string, string, string, string];
    const fromEnv = section === ":env:";
    const prev = values.get(key!);
    if (prev?.fromEnv && !fromEnv) continue;
    // A named command section (install) is more specific than global, env wins over both.
    if (prev && !fromEnv && section === "global") continue;
    values.set(key!, { value: value!, fromEnv });
  }
  const pick = (key: string, envName: string) => env[envName] ?? values.get(key)?.value;
  return {
    indexUrl: pick("index-url", "PIP_INDEX_URL") ?? PUBLIC_PYPI_INDEX,
    extraIndexUrls: splitList(pick("extra-index-url", "PIP_EXTRA_INDEX_URL") ?? ""),
    findLinks: splitList(pick("find-links", "PIP_FIND_LINKS") ?? ""),
  };
}

/** Where npm and pip are asked for the operator's configuration: a directory no one but the operator writes. */
const NEUTRAL_CWD = path.parse(process.cwd()).root;

function capture(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    // cwd is the root directory: npm reads the `.npmrc` of its project directory — the nearest directory at or
    // above cwd holding a package.json (or a workspace root listing it) — and a shared temporary directory is
    // anyone's to write (a `/tmp/.npmrc` with `registry=` then decided where look-ups and installs went, and
    // which hosts the install proxy let through). Only the operator can write `/.npmrc` or `/package.json`.
    execFile(
      cmd,
      args,
      {
        cwd: NEUTRAL_CWD,
        env: { ...env, PATH: hostSpawnPath([], env) },
        timeout: 15_000,
        maxBuffer: 1024 * 1024,
      },
      (error, stdout) => resolve(error ? null : String(stdout)),
    );
  });
}

let cached: Promise<RegistryConfig> | undefined;

/** The operator's registry configuration (read once per process). */
export function hostRegistryConfig(env: NodeJS.ProcessEnv = process.env): Promise<RegistryConfig> {
  cached ??= readRegistryConfig(env);
  return cached;
}

export async function readRegistryConfig(env: NodeJS.ProcessEnv = process.env): Promise<RegistryConfig> {
  // One npm process: `npm config list --json` holds every value (registry, cafile, userconfig, globalconfig and
  // the scoped registries), where a `get` beside it cost a second npm start (0.5-2 s on a loaded machine).
  const [pipOut, npmList] = await Promise.all([
    capture("pip3", ["config", "list"], env),
    capture("npm", ["config", "list", "--json"], env),
  ]);
  let npmJson: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(npmList ?? "{}") as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
      npmJson = parsed as Record<string, unknown>;
  } catch {
    // nothing readable: the defaults below
  }
  const npmValue = (key: string) => {
    const v = npmJson[key];
    return typeof v === "string" ? v.trim().replace(/^null$|^undefined$/, "") : "";
  };
  const registry = env.npm_config_registry || env.NPM_CONFIG_REGISTRY || npmValue("registry") || "";
  const caFile =
    [env.NODE_EXTRA_CA_CERTS, npmValue("cafile"), env.SSL_CERT_FILE, env.PIP_CERT].find(
      (f): f is string => typeof f === "string" && f !== "" && existsSync(f),
    ) ?? null;
  // Scoped registries: npm lists them (`"@acme:registry": "https://…"`); credentials it refuses to print, so they
  // are read from the same user and global .npmrc files npm reads.
  const npmScopes: Record<string, string> = {};
  for (const [key, value] of Object.entries(npmJson)) {
    const m = /^(@[a-z0-9][\w.-]*):registry$/i.exec(key);
    if (m && typeof value === "string" && /^https?:\/\//.test(value))
      npmScopes[m[1]!.toLowerCase()] = withSlash(value);
  }
  const credentials: [string, string][] = [];
  for (const file of [npmValue("globalconfig"), npmValue("userconfig")]) {
    if (!file) continue;
    try {
      credentials.push(...parseNpmrcCredentials(readFileSync(file, "utf8"), env));
    } catch {
      // no such file
    }
  }
  const privateHosts = privateSourceHosts(env);
  // Userinfo in a registry or index URL (`https://user:token@host/…`) is a credential: kept out of every URL.
  return withoutUserinfo({
    ...(privateHosts.length > 0 ? { privateSourceHosts: privateHosts } : {}),
    npm: withSlash(/^https?:\/\//.test(registry) ? registry : PUBLIC_NPM_REGISTRY),
    ...(Object.keys(npmScopes).length > 0 ? { npmScopes } : {}),
    ...(credentials.length > 0 ? { npmAuth: new RegistryCredentials(credentials) } : {}),
    pip: parsePipConfigList(pipOut ?? "", env),
    caFile,
  });
}

/** `host:port` of an http(s) URL, or null for any other scheme. */
export function hostPort(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return null;
  const port = u.port || (u.protocol === "https:" ? "443" : "80");
  return `${u.hostname.replace(/^\[|\]$/g, "")}:${port}`;
}

/** The hosts an npm install may reach: the configured registries only. */
export function npmAllowedHosts(config: RegistryConfig): string[] {
  return [...new Set(npmRegistries(config).flatMap((url) => hostPort(url) ?? []))];
}

/** The hosts a pip install may reach: its http(s) indexes and find-links (PyPI's file host with PyPI). */
export function pipAllowedHosts(config: RegistryConfig): string[] {
  const out = new Set<string>();
  for (const url of [config.pip.indexUrl, ...config.pip.extraIndexUrls, ...config.pip.findLinks]) {
    const h = hostPort(url);
    if (!h) continue;
    out.add(h);
    if (h === "pypi.org:443") out.add("files.pythonhosted.org:443");
  }
  return [...out];
}

/**
 * Local pip mirror directories (file:// indexes, find-links directories) to mount read-only into the install
 * container at the same path. A PEP 503 index directory named `simple` links its files relative to its parent
 * (`../../files/…`), so the parent is mounted.
 */
export function pipLocalDirs(config: RegistryConfig): string[] {
  const out = new Set<string>();
  for (const loc of [config.pip.indexUrl, ...config.pip.extraIndexUrls, ...config.pip.findLinks]) {
    let dir: string | null = null;
    if (loc.startsWith("file://")) {
      try {
        dir = new URL(loc).pathname;
      } catch {
        dir = null;
      }
    } else if (path.isAbsolute(loc)) dir = loc;
    if (!dir) continue;
    dir = path.resolve(dir);
    if (path.basename(dir) === "simple") dir = path.dirname(dir);
    if (dir === "/" || !existsSync(dir)) continue;
    try {
      if (!statSync(dir).isDirectory()) continue;
    } catch {
      continue;
    }
    out.add(dir);
  }
  return [...out];
}

/** The part of every cache key that names where packages came from. */
export function registryKey(config: RegistryConfig, ecosystem: "npm" | "pypi"): string {
  return ecosystem === "npm"
    ? `npm:${config.npm}${Object.entries(config.npmScopes ?? {})
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([scope, url]) => ` ${scope}=${url}`)
        .join("")}`
    : `pypi:${config.pip.indexUrl}|${config.pip.extraIndexUrls.join(" ")}|${config.pip.findLinks.join(" ")}`;
}
