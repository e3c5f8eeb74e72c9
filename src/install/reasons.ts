import { INDEX_UNREACHABLE, NPM_UNREACHABLE } from "../repro/ports.ts";

/**
 * Why pip found nothing to install, from its "(from versions: …)" list (wheels only, so the list holds the
 * versions with a wheel for this platform): none at all, or others but not the one asked for.
 */
function pipMissingReason(output: string): string {
  const requirement =
    /No matching distribution found for (\S+)/.exec(output)?.[1] ??
    /satisfies the requirement (\S+)/.exec(output)?.[1] ??
    null;
  const listed = /\(from versions: ([^)]*)\)/.exec(output)?.[1]?.trim();
  if (!listed || listed === "none")
    return `the package index here offers no installable release of ${requirement ?? "it"} (no such project, or none with a wheel for this platform; source distributions are not installed: they run code)`;
  const versions = listed.split(/,\s*/);
  return `${requirement === null ? "that version" : requirement} is not in the package index here (it offers ${versions.length > 6 ? `${versions.slice(0, 2).join(", ")}, …, ${versions.slice(-3).join(", ")}` : versions.join(", ")})`;
}

/** Whether npm's output says it failed running git (there is none in the install container without allowGit). */
export function isGitFailure(output: string): boolean {
  return /git error|git-is-disabled|ls-remote|spawn git/i.test(output);
}

/** A git dependency npm was resolving: its name, the spec (`user/repo#ref`, `git+ssh://…`) and who wants it. */
export interface GitWanted {
  name: string;
  spec: string;
  /** `parent@version` when the log says. */
  by: string | null;
}

const GIT_SPEC =
  /^(?:git\+|git:|github:|gitlab:|bitbucket:|gist:|ssh:\/\/)|^[\w.-]+\/[\w.-]+(?:#\S*)?$|\.git(?:#\S*)?$/i;

/** `name@spec`, a scoped name's leading `@` kept in the name. */
function splitNameSpec(text: string): { name: string; spec: string } | null {
  const at = text.indexOf("@", text.startsWith("@") ? 1 : 0);
  return at <= 0 ? null : { name: text.slice(0, at), spec: text.slice(at + 1) };
}

/**
 * The git dependencies named in npm's debug log (`silly fetch manifest name@spec`, `silly placeDep <dir>
 * name@ OK for: parent@version want: spec`), each once, in order of appearance, with the package that wants it
 * when the log says. Pure; the log comes from the install container, so fields are cut and made printable.
 */
export function gitDependenciesInNpmLog(log: string): GitWanted[] {
  const found = new Map<string, GitWanted>();
  const clean = (t: string) => (t.length > 120 ? `${t.slice(0, 117)}...` : t).replace(/[^\x20-\x7e]/g, "?");
  for (const line of log.split("\n").slice(0, 20_000)) {
    const place = / silly placeDep \S+ (\S+?)@\S* OK for: (\S+) want: (\S+)/.exec(line);
    const fetched = place ? null : / silly fetch manifest (\S+)/.exec(line);
    const ns = place ? { name: place[1]!, spec: place[3]! } : fetched ? splitNameSpec(fetched[1]!) : null;
    if (!ns || !GIT_SPEC.test(ns.spec)) continue;
    const by = place ? clean(place[2]!) : null;
    const key = `${ns.name}@${ns.spec}`;
    const known = found.get(key);
    if (known) known.by ??= by;
    else if (found.size < 50) found.set(key, { name: clean(ns.name), spec: clean(ns.spec), by });
  }
  return [...found.values()];
}

/** The one line of npm/pip output that says why an install failed. */
export function installFailureReason(output: string, ecosystem: "npm" | "pypi"): string {
  if (ecosystem === "npm") {
    if (isGitFailure(output)) {
      const url = /\b((?:git\+)?(?:ssh|https?|git):\/\/\S+?\.git\b|github:[\w.-]+\/[\w.-]+)/.exec(
        output,
      )?.[1];
      return `a dependency in the tree is fetched from git${url ? ` (${url})` : ""} — a dependency of a dependency when package.json itself names none; Retrace installs registry packages only unless install.allowGit is set`;
    }
    if (/E401|401 Unauthorized|Unable to authenticate/i.test(output))
      return "the registry refused the request for want of credentials (401): give the operator's npm configuration a token for it (`//<registry host>/:_authToken=` in the user .npmrc; Retrace adds it on the host, never in the container)";
    if (/ETARGET|No matching version/i.test(output)) return "no such version in the npm registry";
    if (/E404|404 Not Found/i.test(output)) return "no such package in the npm registry";
    if (/E403|403 Forbidden/i.test(output))
      return "the install tried to reach a host that is not an allowed registry";
    if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|network/i.test(output)) {
      // npm's code and the request it gave up on (a virtual registry URL: its path names the package).
      const code = /npm (?:ERR!|error) code ([A-Z0-9_]{2,40})\b/.exec(output)?.[1];
      const path = /\b(?:GET|request to) https?:\/\/[^/\s]+(\/[^\s]{1,160})/.exec(output)?.[1];
      const detail = [code, path ? `on ${path}` : null].filter(Boolean).join(" ");
      return `${NPM_UNREACHABLE}${detail ? ` (${detail})` : ""}`;
    }
    if (/ERESOLVE/.test(output)) return "conflicting peer dependencies";
    if (/EINTEGRITY/.test(output)) return "a package's content does not match its integrity hash";
    if (/npm ci.*in sync|can only install packages when your package.json and package-lock/i.test(output))
      return "package.json and the lockfile are not in sync";
  } else {
    if (/No matching distribution found|Could not find a version that satisfies/i.test(output)) {
      return /Could not fetch URL|connection|NewConnectionError|Network is unreachable|Temporary failure|Max retries|ProxyError/i.test(
        output,
      )
        ? INDEX_UNREACHABLE
        : pipMissingReason(output);
    }
    if (
      /Could not fetch URL|NewConnectionError|Network is unreachable|Temporary failure|Max retries|ProxyError|timed out/i.test(
        output,
      )
    ) {
      return INDEX_UNREACHABLE;
    }
    if (/THESE PACKAGES DO NOT MATCH THE HASHES/i.test(output)) return "a wheel does not match its hash";
  }
  const line = output
    .split("\n")
    .map((l) => l.trim())
    .find((l) => /error/i.test(l));
  return (line ?? output.trim().split("\n").pop() ?? "unknown error").slice(0, 200);
}
