/**
 * A partial clone's promisor remotes (`remote.<name>.promisor`, `extensions.partialClone`): git fetches the objects a
 * partial clone lacks from them by itself, on any command that reads one (`checkout`, `diff`, `cat-file`), from
 * whatever URL the checkout's config gives — a repository on this host (`file://`, a path, or the remote's name
 * itself when no URL is configured), or a server only the host reaches. The twenty-eighth red team's blobless clone
 * of a host repository had `checkout` and `diff` copy that repository's file into the work tree and the output.
 * No configuration in command-line scope turns this off in the git versions Retrace supports (GIT_NO_LAZY_FETCH is
 * git 2.45), so each promisor remote is judged as an origin is (./origin.ts): a path on this host is refused, an
 * https/ssh server must be public (or the operator's, RETRACE_PRIVATE_SOURCE_HOSTS) and git is pinned to the
 * address checked. A partial clone of a public server (actions/checkout's `filter: blob:none`) still works.
 */
import { type OriginAccess, isLocalOrigin, originAccess, type Resolve } from "./origin.ts";

/** git's boolean spellings (`git config --type=bool`); a key with no value is true. */
function gitTrue(value: string | null): boolean {
  return value === null || /^(true|yes|on|1)$/i.test(value.trim());
}

/**
 * The promisor remotes a listing (`git config --list -z` entries: key lowercased but the subsection, value or null)
 * names, each with the URLs git would fetch from: its `remote.<name>.url` values, or the name itself when it has none
 * (git then reads the name as a URL or a path).
 */
export function promisorRemotes(
  entries: readonly (readonly [string, string | null])[],
): Map<string, string[]> {
  const names = new Set<string>();
  for (const [key, value] of entries) {
    const m = /^remote\.(.+)\.promisor$/i.exec(key);
    if (m && gitTrue(value)) names.add(m[1]!);
    if (/^extensions\.partialclone$/i.test(key) && value !== null && value.trim() !== "")
      names.add(value.trim());
  }
  const out = new Map<string, string[]>();
  for (const name of names) {
    const urls = entries
      .filter(
        ([key, value]) =>
          value !== null &&
          key.toLowerCase() === `remote.${name.toLowerCase()}.url` &&
          key.slice(7, -4) === name,
      )
      .map(([, value]) => value!);
    out.set(name, urls.length > 0 ? urls : [name]);
  }
  return out;
}

/**
 * Whether git may fetch from the promisor remotes of `entries`: the first refusal, or the pins (configuration pairs)
 * every command then runs with.
 */
export async function promisorAccess(
  entries: readonly (readonly [string, string | null])[],
  privateHosts: readonly string[],
  resolve?: Resolve,
): Promise<OriginAccess> {
  const config: [string, string][] = [];
  for (const [name, urls] of promisorRemotes(entries)) {
    for (const url of urls) {
      if (isLocalOrigin(url))
        return {
          refused: `the checkout is a partial clone whose promisor remote ${JSON.stringify(name)} fetches from ${JSON.stringify(url)}, a repository on this host: git would copy its objects into the checkout by itself`,
        };
      // `<transport>::<address>` (a remote helper; `ext::` runs a command) is never a server Retrace judged.
      if (
        /^[a-z][a-z0-9+.-]*::/i.test(url) ||
        (!/^(https|ssh):\/\//i.test(url) && !/^(?:[^@/:]+@)?(\[[^\]]+\]|[^:/]+):(?!\/\/)/.test(url))
      )
        return {
          refused: `the checkout is a partial clone whose promisor remote ${JSON.stringify(name)} fetches from ${JSON.stringify(url)}; Retrace's git fetches missing objects only over https or ssh`,
        };
      const access = await originAccess(url, privateHosts, resolve);
      if ("refused" in access)
        return {
          refused: `${access.refused.replace("the checkout's origin", `the checkout's promisor remote ${JSON.stringify(name)}`)} (a partial clone fetches missing objects from it by itself)`,
        };
      config.push(...access.config);
    }
  }
  return { config };
}
