/**
 * Which runtime a repository asks for, read from the files its own CI reads — so that its tests run on the
 * Node or Python it was written for, not on whatever the sandbox image happens to ship.
 *
 * Node, first found wins: `.nvmrc`, `.node-version`, `.tool-versions` (`nodejs`/`node`), `package.json`
 * `volta.node`, the `node-version` a GitHub Actions workflow gives `actions/setup-node` (the newest literal one;
 * CI's explicit choice is more specific than a loose `engines` range), `package.json` `engines.node`. Python: `.python-version`, `.tool-versions` (`python`),
 * `pyproject.toml` `requires-python`, `setup.cfg` `python_requires`.
 * Pure: the caller passes a reader of repository files.
 */
import semver from "semver";
import { terminalText } from "../core/terminal-text.ts";

export type ReadRepoFile = (path: string) => string | null;

export interface RuntimeRequest {
  /** The version or range as written (`20`, `lts/iron`, `>=20.11`, `^3.10`). */
  spec: string;
  /** Where it was read: the file (and field). */
  source: string;
  /** A pin (nvmrc, volta, tool-versions) asks for exactly that line; a range (engines) for any version in it. */
  kind: "pin" | "range";
}

export interface Toolchain {
  node: RuntimeRequest | null;
  python: RuntimeRequest | null;
}

const NODE_LTS_CODENAMES: Record<string, number> = {
  argon: 4,
  boron: 6,
  carbon: 8,
  dubnium: 10,
  erbium: 12,
  fermium: 14,
  gallium: 16,
  hydrogen: 18,
  iron: 20,
  jod: 22,
  krypton: 24,
};

function firstLine(text: string | null): string | null {
  if (text === null) return null;
  const line = text
    .split(/\r?\n/)
    .map((l) => l.replace(/#.*/, "").trim())
    .find((l) => l.length > 0);
  return line ?? null;
}

function toolVersions(text: string | null, names: string[]): string | null {
  for (const raw of text?.split(/\r?\n/) ?? []) {
    const [tool, version] = raw.replace(/#.*/, "").trim().split(/\s+/);
    if (tool && version && names.includes(tool)) return version;
  }
  return null;
}

function json(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The newest literal `node-version` the workflows give setup-node (`node-version: 24`, `node-version: [20, 22]`,
 * `node-version: '22.x'`), or null; expressions (`${{ matrix.node }}`) and `lts/*` aliases are left to the
 * other sources.
 */
export function workflowNodeVersion(workflows: readonly string[]): string | null {
  // Line by line, each line read once: a pattern spanning lines (`^\s*` under /m) was cubic in a run of
  // newlines (8 KiB of them held the host for minutes). Distinct versions only: a list of millions is a few.
  const found = new Set<string>();
  for (const text of workflows) {
    for (const line of text.split(/\r?\n/)) {
      const m = /^-?[ \t]*node-version[ \t]*:(.*)$/.exec(line.trimStart());
      if (!m) continue;
      const value = stripComment(m[1] ?? "").trim();
      const items = value.startsWith("[") ? value.replace(/^\[|\]$/g, "").split(",") : [value];
      for (const raw of items) {
        const v = raw
          .trim()
          .replace(/^['"]|['"]$/g, "")
          .replace(/\.x$/, "");
        if (v.length <= 32 && /^\d+(\.\d+){0,2}$/.test(v)) found.add(v);
      }
    }
  }
  if (found.size === 0) return null;
  const keyed = [...found].map((v) => ({ v, key: semver.coerce(v)?.version ?? "0.0.0" }));
  return keyed.sort((a, b) => semver.compare(b.key, a.key))[0]?.v ?? null;
}

/** A value without its trailing comment (from the first `#`), in one pass. */
function stripComment(value: string): string {
  const at = value.indexOf("#");
  return at < 0 ? value : value.slice(0, at);
}

/** The value of the first line `key = value` (INI/TOML) whose key is `key`, read line by line; null without one. */
function lineValue(text: string, key: string): string | null {
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trimStart();
    if (!trimmed.startsWith(key)) continue;
    const rest = trimmed.slice(key.length).trimStart();
    if (rest.startsWith("=")) return rest.slice(1).trim();
  }
  return null;
}

/**
 * An exact pin (`.node-version: v22.9.0`) that package.json's own `engines.node` rules out (`^22.11 || ^24`) is
 * stale: the project's CI cannot be running it (changesets pins 22.9.0 while its CI's setup-node takes the newest
 * 22, and its pnpm needs 22.13). The pin then asks for the newest release of its line that `engines` allows
 * (`22 ^22.11`: the parts of `engines` that meet the line); when `engines` allows nothing on that line, the pin
 * says nothing usable and `engines` itself is the request.
 */
function stalePin(request: RuntimeRequest | null, engines: string | null): RuntimeRequest | null {
  if (request === null || request.kind !== "pin" || !engines) return request;
  const exact = semver.valid(semver.clean(request.spec) ?? "");
  if (!exact || !semver.validRange(engines) || semver.satisfies(exact, engines)) return request;
  const line = String(semver.major(exact));
  const onLine = engines
    .split("||")
    .map((part) => part.trim())
    .filter((part) => part && semver.intersects(line, part));
  const ruledOut = `${request.source}: ${request.spec}, which package.json engines.node ${engines} rules out`;
  if (onLine.length === 0)
    return { spec: engines, source: `${ruledOut} (and its whole line with it)`, kind: "range" };
  return {
    spec: onLine.map((part) => `${line} ${part}`).join(" || "),
    source: `${ruledOut}, so the newest release of its line that engines.node allows`,
    kind: "pin",
  };
}

export function detectToolchain(read: ReadRepoFile, workflows: readonly string[] = []): Toolchain {
  const pkg = json(read("package.json"));
  const tools = read(".tool-versions");
  const engines = (pkg?.engines as Record<string, unknown> | undefined)?.node;
  const node = stalePin(
    ((): RuntimeRequest | null => {
      const nvmrc = firstLine(read(".nvmrc"));
      if (nvmrc) return { spec: nvmrc, source: ".nvmrc", kind: "pin" };
      const nodeVersion = firstLine(read(".node-version"));
      if (nodeVersion) return { spec: nodeVersion, source: ".node-version", kind: "pin" };
      const tv = toolVersions(tools, ["nodejs", "node"]);
      if (tv) return { spec: tv, source: ".tool-versions", kind: "pin" };
      const volta = (pkg?.volta as Record<string, unknown> | undefined)?.node;
      if (typeof volta === "string" && volta.trim())
        return { spec: volta.trim(), source: "package.json volta.node", kind: "pin" };
      const ci = workflowNodeVersion(workflows);
      if (ci) return { spec: ci, source: "the CI workflow's setup-node node-version", kind: "pin" };
      if (typeof engines === "string" && engines.trim())
        return { spec: engines.trim(), source: "package.json engines.node", kind: "range" };
      return null;
    })(),
    typeof engines === "string" ? engines.trim() : null,
  );
  const python = ((): RuntimeRequest | null => {
    const pv = firstLine(read(".python-version"));
    if (pv) return { spec: pv, source: ".python-version", kind: "pin" };
    const tv = toolVersions(tools, ["python"]);
    if (tv) return { spec: tv, source: ".tool-versions", kind: "pin" };
    const pyproject = read("pyproject.toml");
    const rp = pyproject && /^["']([^"']+)["']/.exec(lineValue(pyproject, "requires-python") ?? "")?.[1];
    if (rp) return { spec: rp, source: "pyproject.toml requires-python", kind: "range" };
    const cfg = read("setup.cfg");
    const pr = cfg && lineValue(cfg, "python_requires");
    if (pr) return { spec: pr, source: "setup.cfg python_requires", kind: "range" };
    return null;
  })();
  return { node, python };
}

/** Longest runtime request quoted whole in messages (semver reads no range longer than 256 characters). */
const SHOWN_SPEC = 100;

/**
 * A runtime request as messages and progress lines quote it: whole when short, else its start and its length
 * (a 200 KiB `.nvmrc` line was quoted whole into the job's error, its comment and its JSON), with the characters a
 * terminal acts on written as `\u{…}` (src/core/terminal-text.ts).
 */
export function shownSpec(spec: string): string {
  // The file's own characters a terminal would act on (an `.nvmrc` line of escapes) are written visibly.
  return terminalText(
    spec.length <= SHOWN_SPEC ? spec : `${spec.slice(0, SHOWN_SPEC)}… (${spec.length} characters)`,
  );
}

/** The semver range a Node request stands for (`lts/iron` → `20`, `v20.1` → `20.1`), or null when unreadable. */
export function nodeRange(spec: string, available: readonly string[] = []): string | null {
  const s = spec.trim().replace(/^v(?=\d)/, "");
  const lts = /^lts\/(.+)$/i.exec(s)?.[1]?.toLowerCase();
  if (lts) {
    if (lts === "*") {
      // The newest even major that has releases: an LTS line (odd majors never are).
      const majors = available.map((v) => semver.major(v)).filter((m) => m % 2 === 0);
      return majors.length ? String(Math.max(...majors)) : null;
    }
    const major = NODE_LTS_CODENAMES[lts];
    return major ? String(major) : null;
  }
  if (/^(node|latest|current|stable)$/i.test(s)) return "*";
  return semver.validRange(s) ? s : null;
}

/**
 * The Node version to run: for a pin, the newest release on its line (`20` → 20.x latest); for a range, the
 * version the sandbox already has when it fits, else the newest release of the lowest major in the range (the
 * oldest line a project supports is what its CI tests first). Null when nothing available fits.
 */
export function chooseNodeVersion(
  request: RuntimeRequest,
  available: readonly string[],
  baseVersion: string | null,
): string | null {
  const range = nodeRange(request.spec, available);
  if (range === null) return null;
  if (baseVersion && semver.satisfies(baseVersion, range)) {
    // A pin to another line must not be satisfied by the base just because the range is loose (`*`).
    if (request.kind === "range" || range !== "*") return baseVersion;
  }
  const fitting = available.filter((v) => semver.valid(v) && semver.satisfies(v, range));
  if (fitting.length === 0) return null;
  if (request.kind === "pin") return semver.maxSatisfying(fitting, range);
  const lowestMajor = Math.min(...fitting.map((v) => semver.major(v)));
  return semver.maxSatisfying(
    fitting.filter((v) => semver.major(v) === lowestMajor),
    range,
  );
}

/**
 * The Node version `chooseNodeVersion` picks whatever releases the registry lists, when that is known without
 * the list: the image's own Node, for a request it satisfies (a range, or a pin to a line). Null when the
 * list could change the answer (`lts/*`, `node`/`latest`, a request the image's Node does not meet): then the
 * registry is asked. Pure.
 */
export function nodeVersionWithoutRegistry(
  request: RuntimeRequest,
  baseVersion: string | null,
): string | null {
  // `lts/*` is the newest even major the registry lists: the only range that depends on the list.
  if (/^lts\/\*$/i.test(request.spec.trim())) return null;
  return chooseNodeVersion(request, [], baseVersion);
}

/** Whether a Python version (`3.11.2`) satisfies a request (`3.11`, `>=3.12`, `~=3.10`, `>=3.8,<4`). */
export function pythonSatisfies(version: string, spec: string): boolean {
  const v = version.trim();
  const parts = spec
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return true;
  return parts.every((part) => {
    const m = /^(~=|===|==|!=|>=|<=|>|<)?\s*([0-9][0-9.*]*)$/.exec(part);
    if (!m) return true; // an unreadable clause does not decide
    const op = m[1] ?? "==";
    const want = m[2]!;
    if (want.includes("*")) {
      const prefix = want.replace(/\.?\*$/, "");
      const match = v === prefix || v.startsWith(`${prefix}.`);
      return op === "!=" ? !match : match;
    }
    // A bare pin from .python-version (`3.11`) means that line: 3.11.x.
    if (!m[1]) return v === want || v.startsWith(`${want}.`);
    const cmp = comparePy(v, want);
    switch (op) {
      case "==":
      case "===":
        return cmp === 0;
      case "!=":
        return cmp !== 0;
      case ">=":
        return cmp >= 0;
      case "<=":
        return cmp <= 0;
      case ">":
        return cmp > 0;
      case "<":
        return cmp < 0;
      case "~=": {
        // ~=3.10 → >=3.10, ==3.*; ~=3.10.2 → >=3.10.2, ==3.10.*
        const prefix = want.split(".").slice(0, -1).join(".");
        return cmp >= 0 && (v === prefix || v.startsWith(`${prefix}.`));
      }
      default:
        return true;
    }
  });
}

function comparePy(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}
