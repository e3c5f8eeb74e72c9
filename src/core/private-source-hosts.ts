/**
 * The operator's internal source hosts: `RETRACE_PRIVATE_SOURCE_HOSTS` names, comma-separated, the hosts (`host`
 * or `host:port`) a git fetch or a package download may reach on a loopback or private address. Read from
 * Retrace's own environment, never from a repository's configuration.
 *
 * Pure: the environment is a parameter.
 */

export const PRIVATE_SOURCE_HOSTS_ENV = "RETRACE_PRIVATE_SOURCE_HOSTS";

/** The hosts `env` lists in `RETRACE_PRIVATE_SOURCE_HOSTS`, trimmed and lower-cased; empty entries dropped. */
export function privateSourceHosts(env: Readonly<Record<string, string | undefined>>): string[] {
  return (env[PRIVATE_SOURCE_HOSTS_ENV] ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== "");
}
