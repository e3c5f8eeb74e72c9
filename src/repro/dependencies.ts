/**
 * The report's dependencies: which version of each to install (the one the report names), the install itself
 * (host-side, through the installer port), and how a set of versions is written in a line.
 */
import { escapeRegExp } from "../core/regexp.ts";
import { hostLimits } from "../core/host-limits.ts";
import type { Program } from "./complete.ts";
import type { ReproContext } from "./context.ts";
import { NPM_GLOBALS, normalizePypiName, npmIdentifier } from "./known-modules.ts";
import type { ParsedReport } from "./parse-report.ts";
import type { DependencyRequest, InstallResult, ReproPorts, RuntimeVersions } from "./ports.ts";
import type { PackageVersion } from "./result.ts";
import { verdictFor } from "./version-verdict.ts";
import { findProseVersions, sameProduct } from "./versions.ts";

/** A dependency with the version to install and where that version came from. */
export type Pin = DependencyRequest & { source: PackageVersion["source"] };

/** Pins: the version the report names for each dependency (a lone "version 1.2.3" goes to a lone dependency). */
export function pinDependencies(
  program: Program,
  report: ParsedReport,
  badSide?: string | null,
  /** The package the issue's repository publishes: a release named bare in the prose is its release. */
  repositoryPackage?: string,
): Pin[] {
  const key = (n: string) => (program.ecosystem === "pypi" ? normalizePypiName(n) : n.toLowerCase());
  const mentions = new Map(report.versions.map((v) => [key(v.name), v.version]));
  // Two sessions on two releases (`$ npm i yargs@12.0.5` … `$ npm i yargs@13.1.0`): the bad side's release is
  // the one the report claims the bug on.
  const side = badSide ? /^((?:@[\w.-]+\/)?[\w.-]+)(?:@|==)(\d[\w.+-]*)$/.exec(badSide) : null;
  if (side) mentions.set(key(side[1]!), side[2]!);
  // A bad side labelled by a bare release that the report writes with a dependency's name ("on
  // immutable@4.0.0-rc.12" over its output): that dependency's release (issue 12, hold24). A bare label the report
  // never ties to a package (a runtime's "3.11") pins nothing.
  const bare = !side && badSide && /^v?\d+(?:\.\d+)+(?:[-.+][\w.]+)?$/.test(badSide) ? badSide : null;
  if (bare)
    for (const dep of program.dependencies) {
      const tied = new RegExp(
        String.raw`(?<![\w@/-])${escapeRegExp(dep)}(?:@|\s+v?)${escapeRegExp(bare.replace(/^v/, ""))}(?![\w.-]*\w)`,
        "i",
      );
      if (tied.test(`${report.title}\n${report.proseWithCode}`))
        mentions.set(key(dep), bare.replace(/^v/, ""));
    }
  // A bare release over the bad transcript ("2.0.0 prints" against "1.0.6 gave me") in an npm report filed against
  // the repository's package and naming no other package's release: the release of that package (issue 12,
  // hold25), so the claim is judged on the release it was made on, not on the latest. Not a release the report
  // writes after a runtime's or another product's name ("Node 18.2.0 prints", "webpack 5.0.0:"), nor one of a
  // Python report (its bare labels are Python's own releases: "3.10:").
  const own = repositoryPackage
    ? program.dependencies.find((d) => key(d) === key(repositoryPackage))
    : undefined;
  if (
    bare &&
    own &&
    program.ecosystem === "npm" &&
    !mentions.has(key(own)) &&
    // "webpack 5.0.0:" names another product's release.
    !report.versions.some((v) => v.version === bare.replace(/^v/, "") && key(v.name) !== key(own)) &&
    bare.replace(/^v/, "") !== report.runtime?.version &&
    !new RegExp(
      String.raw`(?<![\w-])(?:node(?:\.js|js)?|deno|bun|python3?|cpython|pypy3?|chrome|firefox|safari|typescript|tsc|npm|yarn|pnpm)(?:\s+version)?\s*:?\s*v?${escapeRegExp(bare.replace(/^v/, ""))}(?![\w.]*\w)`,
      "i",
    ).test(`${report.title}\n${report.proseWithCode}`)
  )
    mentions.set(key(own), bare.replace(/^v/, ""));
  // A version the report's own session printed: `_.VERSION => "4.17.4"`, `require('x/package').version // 1.2.3`.
  for (const b of report.blocks) {
    for (const c of b.checks) {
      if (c.role !== "actual" || c.kind !== "output") continue;
      const v = /^['"]?v?(\d+\.\d+\.\d+(?:-[\w.]+)?)['"]?$/.exec(c.value.trim())?.[1];
      if (!v) continue;
      const ident = /^([\w$]+)\.(?:VERSION|version)$/.exec(c.code.replace(/;$/, ""))?.[1];
      const fromRequire = /require\(\s*['"]([^'"]+?)\/package(?:\.json)?['"]\s*\)\.version/.exec(c.code)?.[1];
      const pkg =
        fromRequire ??
        (ident
          ? (program.dependencies.find((d) => npmIdentifier(d) === ident || d === ident) ??
            NPM_GLOBALS[ident] ??
            null)
          : null);
      if (pkg && !mentions.has(key(pkg))) mentions.set(key(pkg), v);
    }
  }
  // `> math.version` then `'3.18.0'` typed at a Node prompt inside another block (a shell block of system
  // information): the version of the package the name is bound to in the program. The blanks around the `;` are
  // two runs that cannot share a character: `[ \t]*;?[ \t]*` split a long run of blanks every way (quadratic).
  for (const b of report.blocks) {
    for (const m of b.value.matchAll(
      /^[ \t]*>[ \t]*([A-Za-z_$][\w$]*)\.(?:VERSION|version)[ \t]*(?:;[ \t]*)?\r?\n[ \t]*(['"])v?(\d+\.\d+\.\d+(?:-[\w.]+)?)\2[ \t]*$/gm,
    )) {
      const boundBy = (d: string) =>
        report.blocks.some((o) =>
          new RegExp(
            String.raw`(?<![\w$.])${escapeRegExp(m[1]!)}\s*=\s*require\(\s*['"]${escapeRegExp(d)}['"]\s*\)`,
          ).test(o.value),
        );
      const pkg =
        program.dependencies.find((d) => npmIdentifier(d) === m[1] || d === m[1] || boundBy(d)) ??
        NPM_GLOBALS[m[1]!];
      if (pkg && !mentions.has(key(pkg))) mentions.set(key(pkg), m[3]!);
    }
  }
  return program.dependencies.map((name) => {
    let version =
      mentions.get(key(name)) ??
      // "Day.js Version 1.8.32" for `dayjs`: the product's name as written (one mention only, else none).
      (() => {
        const loose = report.versions.filter(
          (v) => v.name !== v.name.toLowerCase() && sameProduct(v.name, name),
        );
        return loose.length === 1 ? loose[0]!.version : null;
      })();
    if (!version && program.dependencies.length === 1 && report.bareVersions.length === 1)
      version = report.bareVersions[0]!;
    // The repository's package, when the report names no other package: a bare release in the prose ("I'm on
    // 1.10.0", "version 2.3") is the release of the package the issue was filed against. One release only;
    // the runtime's own number ("Node 18.20.4") is not one.
    if (!version && repositoryPackage && key(name) === key(repositoryPackage)) {
      const others = report.versions.filter((v) => key(v.name) !== key(name));
      const prose = `${report.title}\n${Object.values(report.prose).join("\n")}`;
      const candidates = [...new Set([...report.bareVersions, ...findProseVersions(prose)])].filter(
        (v) => v !== report.runtime?.version,
      );
      // Two releases ("with 1.2.4 this worked, but on 1.3.3 it throws"): the one the prose does not call good.
      const notGood = candidates.filter((v) => verdictFor(v, prose) !== "good");
      // "is this a bug in 4.0.0-rc.9?" beside "when I go back to 3.8.2": the one the prose calls bad.
      const bad = candidates.filter((v) => verdictFor(v, prose) === "bad");
      if (others.length === 0 && candidates.length === 1) version = candidates[0]!;
      else if (others.length === 0 && candidates.length === 2 && notGood.length === 1) version = notGood[0]!;
      else if (others.length === 0 && candidates.length === 2 && bad.length === 1) version = bad[0]!;
    }
    // A release line rather than a release (`yargs@5`, `4.x`, "1.2"): the newest release in it is installed.
    const line = version && program.ecosystem === "npm" ? releaseLine(version) : null;
    if (line) return { name, version: null, within: line, source: "reported" as const };
    return { name, version, source: version ? "reported" : "unpinned" };
  });
}

/** "5" / "5.x" / "1.2" / "1.2.x" → the release line ("5", "1.2"); null for an exact version or anything else. */
export function releaseLine(version: string): string | null {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.[x*])?$/i.exec(version.trim());
  if (!m) return null;
  return m[2] === undefined ? m[1]! : `${m[1]}.${m[2]}`;
}

/** `name==1.2.3` (PyPI) or `name@1.2.3` (npm); the bare name without a version. */
export function packageSpec(name: string, version: string | null, ecosystem: Program["ecosystem"]): string {
  if (!version) return name;
  return ecosystem === "pypi" ? `${name}==${version}` : `${name}@${version}`;
}

export function describeVersions(v: PackageVersion[], ecosystem: Program["ecosystem"]): string {
  return v.map((p) => packageSpec(p.name, p.version, ecosystem)).join(", ");
}

/** The version of each package as installed; the wanted version (or "latest") when the installer named none. */
export function installedVersions(
  program: Program,
  wanted: { name: string; version: string | null; source: PackageVersion["source"] }[],
  installed: InstallResult | null,
): PackageVersion[] {
  return wanted.map((p) => ({
    name: p.name,
    version: installed?.installed.find((i) => i.name === p.name)?.version ?? p.version ?? "latest",
    ecosystem: program.ecosystem,
    source: p.source,
  }));
}

const runtimes = new WeakMap<ReproPorts, Promise<RuntimeVersions | null>>();

/** The sandbox's runtime versions, asked of the ports once (null when they cannot say). */
export function sandboxRuntime(ports: ReproPorts): Promise<RuntimeVersions | null> {
  let p = runtimes.get(ports);
  if (!p) {
    p = ports.runtimeVersions ? ports.runtimeVersions().catch(() => null) : Promise.resolve(null);
    runtimes.set(ports, p);
  }
  return p;
}

/**
 * The version an unpinned package is installed at: the newest release that runs on the sandbox's runtime
 * (`RegistryLookup`), so a report without a version is never judged on a release this Node cannot load. Left
 * null (the installer's latest) when the runtime or the registry cannot say.
 */
async function resolveUnpinned(
  ctx: ReproContext,
  program: Program,
  packages: DependencyRequest[],
): Promise<DependencyRequest[]> {
  if (program.ecosystem !== "npm" || packages.every((p) => p.version)) return packages;
  // More packages than one report may install: the installer refuses the request by name, so nothing is looked
  // up for it (150 unknown `require()`s made 150 registry look-ups before the cap was applied).
  const cap = ctx.ports.installer.maxPackages ?? hostLimits().maxPackages;
  if (new Set(packages.map((p) => p.name.toLowerCase())).size > cap) return packages;
  const runtime = await sandboxRuntime(ctx.ports);
  if (!runtime?.node && packages.every((p) => p.version || !p.within)) return packages;
  return Promise.all(
    packages.map(async (p) => {
      if (p.version) return p;
      const version = await ctx.ports.registry
        .latestVersion(program.ecosystem, p.name, { ...runtime, within: p.within ?? null })
        .catch(() => null);
      // A named release line with no release in it stays as written: the installer then says why.
      return { name: p.name, version: version ?? (p.within ? p.within : null) };
    }),
  );
}

/** Installs `packages` for `program`; null when there is nothing to install. The line says what happened. */
export async function installPackages(
  ctx: ReproContext,
  program: Program,
  packages: DependencyRequest[],
  label: string,
): Promise<{ result: InstallResult; line: string } | null> {
  if (packages.length === 0) return null;
  packages = await resolveUnpinned(ctx, program, packages);
  ctx.ports.onProgress?.(
    `installing ${label}: ${packages.map((p) => packageSpec(p.name, p.version, program.ecosystem)).join(", ")}`,
  );
  const result = await ctx.ports.installer.install({
    ecosystem: program.ecosystem,
    packages,
    ...(ctx.ports.installTimeoutMs ? { timeoutMs: ctx.ports.installTimeoutMs } : {}),
    ...(ctx.ports.signal ? { signal: ctx.ports.signal } : {}),
  });
  const line = `${label}: ${result.installed.map((p) => `${p.name}@${p.version}`).join(", ") || "nothing"}${result.cached ? " (cached)" : ""}${
    result.failures.length
      ? `; failed: ${result.failures.map((f) => `${f.name}${f.version ? `==${f.version}` : ""}`).join(", ")}`
      : ""
  }`;
  return { result, line };
}
