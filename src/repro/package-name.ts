/**
 * Which package names and versions may reach the host installer. Names come from untrusted reports and from
 * the model, and npm/pip run on the host: a name like `--extra-index-url=http://evil` must never be read as
 * an option, and a version like `file:../..` or `git+https://…` must never be read as a source. Each
 * ecosystem's own naming rule is applied, which also means a name starts with a letter or a digit (or `@`,
 * for an npm scope).
 */
import type { Ecosystem } from "./ports.ts";

/**
 * npm (validate-npm-package-name): an optional `@scope/`, then a name; neither starts with `.`, `_` or `-`;
 * URL-safe characters only; at most 214 characters. Upper case is accepted: old packages have it.
 */
export const NPM_NAME = /^(?:@[A-Za-z0-9][A-Za-z0-9._~-]*\/)?[A-Za-z0-9][A-Za-z0-9._~-]*$/;

/** PyPI (PEP 508): letters, digits, `.`, `_`, `-`; starts and ends with a letter or digit. */
export const PYPI_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** Either ecosystem's name (PyPI's rule is a subset of npm's): starts with a letter, a digit or `@`. */
export const ANY_PACKAGE_NAME = NPM_NAME;

/**
 * An exact version or a dist-tag: `1.2.3`, `v1.2.3`, `2.0.0-rc.1+build`, `1!2.0.post1` (PEP 440 epoch), `latest`.
 * No ranges, URLs, paths or protocols (`file:`, `git+`, `npm:` aliases): only what a registry resolves.
 */
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+!_-]*$/;

/** Why `name` cannot be installed from `ecosystem`, or null when it is a valid registry name. */
export function packageNameProblem(ecosystem: Ecosystem, name: string): string | null {
  if (ecosystem === "npm") {
    if (name.length > 214) return "an npm package name has at most 214 characters";
    return NPM_NAME.test(name)
      ? null
      : "not a valid npm package name (letters, digits, `.`, `_`, `-`, `~`, an optional `@scope/`; it starts with a letter or digit)";
  }
  if (name.length > 200) return "a PyPI project name this long is not plausible";
  return PYPI_NAME.test(name)
    ? null
    : "not a valid PyPI project name (letters, digits, `.`, `_`, `-`; it starts and ends with a letter or digit)";
}

/** Why `version` cannot be asked of the registry, or null when it is an exact version or a tag. */
export function versionProblem(version: string): string | null {
  if (version.length > 100) return "a version this long is not plausible";
  return VERSION.test(version)
    ? null
    : "not an exact version (letters, digits, `.`, `+`, `!`, `_`, `-`; no ranges, URLs, paths or protocols)";
}
