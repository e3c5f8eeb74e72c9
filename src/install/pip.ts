/**
 * Python installs in the install container, wheels only for the whole tree. The image's pip (run from the
 * wheel Debian ships in /usr/share/python-wheels) first resolves with `--dry-run --report` and
 * `--only-binary=:all:`; the host then checks every item of the report — a wheel, not a direct-URL requirement
 * (`Requires-Dist: x @ http://…`), from a configured index or local mirror, with a sha256 — and installs exactly
 * that list with `--no-deps --require-hashes`. A direct URL, a source distribution or a file from anywhere else
 * is refused by name before anything is installed. Cached by the whole resolved list.
 */
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { cacheKey, lookupByManifest, recordManifest } from "./cache.ts";
import { extractLimits, type InstallLimits, OUT_DIR } from "./container.ts";
import { InstallFailedError, installTimedOut, requireRoom, SourcePolicyError } from "./npm.ts";
import { CONTAINER_PROXY_URL } from "./proxy.ts";
import { installFailureReason } from "./reasons.ts";
import {
  hostPort,
  pipAllowedHosts,
  pipLocalDirs,
  type RegistryConfig,
  pipUrlWithCredentials,
  registryKey,
} from "./registry-config.ts";
import {
  CONTAINER_CA_FILE,
  type InstallContext,
  imageId,
  installImage,
  type Session,
  withInstallSession,
} from "./session.ts";
import type { SourceProblem } from "./lockfile-policy.ts";

export type PipInstallContext = InstallContext;

/** Where the installed packages are, relative to the entry directory (and to the workspace). */
export const PYTHON_TARGET = "python-packages";

const PIP =
  'W=$(ls /usr/share/python-wheels/pip-*.whl 2>/dev/null | head -1); [ -n "$W" ] || { echo "pip: no pip wheel in the image" >&2; exit 127; }; exec python3 "$W/pip" "$@"';

/**
 * Where pip looks: as arguments, or — when the operator's index URLs carry credentials (`pipAuth`) — in pip's
 * environment (`PIP_INDEX_URL`, `PIP_EXTRA_INDEX_URL`, `PIP_FIND_LINKS`), so the password is never in an argument
 * list, which every local user of the host reads in the process table of the container's processes. Pure.
 */
export function pipIndexSettings(config: RegistryConfig): { args: string[]; env: Record<string, string> } {
  if (!config.pipAuth || config.pipAuth.size === 0)
    return {
      args: [
        "--index-url",
        config.pip.indexUrl,
        ...config.pip.extraIndexUrls.flatMap((u) => ["--extra-index-url", u]),
        ...config.pip.findLinks.flatMap((u) => ["--find-links", u]),
      ],
      env: {},
    };
  const withAuth = (u: string) => pipUrlWithCredentials(config, u);
  return {
    args: [],
    env: {
      PIP_INDEX_URL: withAuth(config.pip.indexUrl),
      ...(config.pip.extraIndexUrls.length > 0
        ? { PIP_EXTRA_INDEX_URL: config.pip.extraIndexUrls.map(withAuth).join(" ") }
        : {}),
      ...(config.pip.findLinks.length > 0
        ? { PIP_FIND_LINKS: config.pip.findLinks.map(withAuth).join(" ") }
        : {}),
    },
  };
}

function indexArgs(config: RegistryConfig, s: Session): string[] {
  return [
    ...pipIndexSettings(config).args,
    "--proxy",
    CONTAINER_PROXY_URL,
    ...(s.hasCa ? ["--cert", CONTAINER_CA_FILE] : []),
    "--retries",
    "0",
    "--timeout",
    "15",
    "--disable-pip-version-check",
    "--no-input",
    "--no-color",
  ];
}

interface ReportItem {
  metadata?: { name?: string; version?: string };
  download_info?: {
    url?: string;
    archive_info?: { hash?: string; hashes?: Record<string, string> };
    dir_info?: unknown;
    vcs_info?: unknown;
  };
  is_direct?: boolean;
}

export interface ResolvedWheel {
  name: string;
  version: string;
  url: string;
  sha256: string;
}

/** The report's items as wheels, or the problems that refuse them. Pure. */
export function checkPipReport(
  report: unknown,
  config: RegistryConfig,
): { wheels: ResolvedWheel[]; problems: SourceProblem[] } {
  const wheels: ResolvedWheel[] = [];
  const problems: SourceProblem[] = [];
  const items = (report as { install?: ReportItem[] } | null)?.install;
  if (!Array.isArray(items))
    return { wheels, problems: [{ entry: "pip report", reason: "has no install list", field: null }] };
  const hosts = new Set(pipAllowedHosts(config));
  const dirs = pipLocalDirs(config);
  for (const item of items) {
    const name = item.metadata?.name ?? "?";
    const version = item.metadata?.version ?? "?";
    const entry = `${name}==${version}`;
    const url = item.download_info?.url ?? "";
    if (item.is_direct === true || item.download_info?.vcs_info || item.download_info?.dir_info) {
      problems.push({ entry, reason: `direct URL requirement ${JSON.stringify(url)}`, field: null });
      continue;
    }
    let pathname = "";
    try {
      pathname = new URL(url).pathname;
    } catch {
      problems.push({ entry, reason: `unreadable download URL ${JSON.stringify(url)}`, field: null });
      continue;
    }
    if (!pathname.endsWith(".whl")) {
      problems.push({
        entry,
        reason: `not a wheel ${JSON.stringify(url)} (source distributions run code)`,
        field: null,
      });
      continue;
    }
    const fromIndex = url.startsWith("file://")
      ? dirs.some((d) => path.resolve(decodeURIComponent(pathname)).startsWith(`${d}/`))
      : hosts.has(hostPort(url) ?? "");
    if (!fromIndex) {
      problems.push({
        entry,
        reason: `from outside the configured indexes ${JSON.stringify(url)}`,
        field: null,
      });
      continue;
    }
    const info = item.download_info?.archive_info;
    const sha256 = info?.hashes?.sha256 ?? /^sha256=([0-9a-f]{64})$/.exec(info?.hash ?? "")?.[1];
    if (!sha256) {
      problems.push({ entry, reason: "the index gives no sha256 for it", field: null });
      continue;
    }
    wheels.push({ name, version, url, sha256 });
  }
  return { wheels, problems };
}

export interface PipResult {
  /** Entry directory; it holds PYTHON_TARGET. */
  dir: string;
  cached: boolean;
  installed: { name: string; version: string }[];
}

export async function installPipPackages(
  ctx: PipInstallContext,
  packages: { name: string; version: string }[],
): Promise<PipResult> {
  const specs = packages.map((p) => `${p.name}==${p.version}`);
  const r = await pipInstallTree(ctx, specs, { kind: "pypi-report", target: () => PYTHON_TARGET });
  const norm = (n: string) => n.toLowerCase().replace(/[-_.]+/g, "-");
  const installed = packages.map((p) => ({
    name: p.name,
    version: r.installed.find((w) => norm(w.name) === norm(p.name))?.version ?? p.version,
  }));
  return { dir: r.dir, cached: r.cached, installed };
}

/** The directory a repository's Python dependencies are installed to: `PYTHONUSERBASE` of every test run. */
export const PYTHON_USER_BASE = ".retrace-python";

export interface PythonRequirementsResult {
  /** Entry directory; it holds PYTHON_USER_BASE (`lib/pythonX.Y/site-packages`, the user site of the image's Python). */
  dir: string;
  cached: boolean;
  /** Every wheel installed (the whole resolved tree), sorted by name. */
  installed: { name: string; version: string }[];
}

/**
 * Installs requirement specifiers (PEP 508, as a repository declares them: `PyYAML>=6`, `pytest; extra == …`
 * left to pip's markers) into the user site of the image's Python, wheels only, the whole tree resolved first
 * and checked like `installPipPackages`. Extra lines (`*.pth` files, e.g. a src-layout path) are written next to
 * the packages. Direct references are refused before pip runs (`requirementProblem`).
 */
export async function installPythonRequirements(
  ctx: PipInstallContext,
  requirements: string[],
  options: { pth?: Record<string, string> } = {},
): Promise<PythonRequirementsResult> {
  const problems: SourceProblem[] = [];
  for (const entry of requirements) {
    const reason = requirementProblem(entry);
    if (reason !== null) problems.push({ entry, reason, field: null });
  }
  if (problems.length > 0)
    throw new SourcePolicyError(problems, "installing the repository's Python requirements");
  const r = await pipInstallTree(ctx, requirements, {
    kind: "pypi-requirements",
    target: (pythonVersion) => `${PYTHON_USER_BASE}/lib/python${pythonVersion}/site-packages`,
    ...(options.pth ? { pth: options.pth } : {}),
    byManifest: true,
  });
  return { dir: r.dir, cached: r.cached, installed: r.installed };
}

/**
 * Why a requirement specifier is not installed as written, or null: only index names with version
 * specifiers, extras and markers; a direct reference (`x @ https://…`, `git+…`, a path, an archive) would
 * fetch and build from anywhere.
 */
export function requirementProblem(spec: string): string | null {
  const s = spec.trim();
  if (s === "") return "empty requirement";
  if (s.length > 500) return "requirement longer than 500 characters";
  const head = s.split(";")[0] ?? "";
  // The environment marker after `;` is checked too: variables, comparisons, `and`/`or`/`in`, parentheses and
  // quoted values only. Unchecked, it carried `@ http://…` (a direct reference) or `--index-url …` past this check.
  if (s.length > head.length) {
    const bare = s.slice(head.length + 1).replace(/'[^']*'|"[^"]*"/g, "''");
    if (!/^[\s\w.()<>=!~']*$/.test(bare) || bare.replace(/''/g, "").includes("'"))
      return "environment marker with something other than variables, comparisons and quoted values";
  }
  if (/@/.test(head)) return "direct reference (`name @ url`): only index packages are installed";
  if (/:\/\//.test(head) || /^[.~/]/.test(head) || /\.(?:whl|zip|tar\.gz|tgz)\b/i.test(head))
    return "URL, path or archive: only index packages are installed";
  if (
    !/^[A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[A-Za-z0-9._,\s-]*\])?\s*(?:\(?\s*(?:===|==|!=|~=|<=|>=|<|>)\s*[A-Za-z0-9.*+!_-]+\s*(?:,\s*(?:===|==|!=|~=|<=|>=|<|>)\s*[A-Za-z0-9.*+!_-]+\s*)*\)?)?\s*$/.test(
      head,
    )
  )
    return "not a plain requirement (name, extras, versions)";
  return null;
}

interface TreeResult {
  dir: string;
  cached: boolean;
  installed: { name: string; version: string }[];
}

/** Resolve (dry run, report checked on the host), then install exactly the checked wheels with hashes. */
async function pipInstallTree(
  ctx: PipInstallContext,
  specs: string[],
  options: {
    kind: string;
    target: (pythonVersion: string) => string;
    pth?: Record<string, string>;
    /** Reuse the tree these specs resolved to (lookupByManifest), for declared, unpinned requirements. */
    byManifest?: boolean;
  },
): Promise<TreeResult> {
  const manifestKey = options.byManifest
    ? cacheKey({
        kind: options.kind,
        registry: registryKey(ctx.registry, "pypi"),
        image: await imageId(ctx.docker, installImage(ctx.image)),
        specs,
        pth: options.pth ?? {},
      })
    : null;
  if (manifestKey !== null) {
    const hit = await lookupByManifest<{ installed: TreeResult["installed"] }>(
      ctx.cache,
      "pypi",
      manifestKey,
    );
    if (hit) return { dir: hit.dir, cached: true, installed: hit.marker.meta.installed };
  }
  const r = await pipResolveAndInstall(ctx, specs, options);
  if (manifestKey !== null) await recordManifest(ctx.cache, "pypi", manifestKey, r.key);
  return r;
}

async function pipResolveAndInstall(
  ctx: PipInstallContext,
  specs: string[],
  options: { kind: string; target: (pythonVersion: string) => string; pth?: Record<string, string> },
): Promise<TreeResult & { key: string }> {
  return withInstallSession(
    ctx,
    { allowHosts: pipAllowedHosts(ctx.registry), readOnlyDirs: pipLocalDirs(ctx.registry) },
    async (s, { id }) => {
      const env = {
        HOME: "/tmp",
        PIP_CACHE_DIR: "/tmp/pip-cache",
        PIP_CONFIG_FILE: "/dev/null",
        PYTHONDONTWRITEBYTECODE: "1",
      };
      const version = await s.container.exec(
        ["python3", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        { env },
      );
      const pythonVersion = version.stdout.trim();
      if (version.exitCode !== 0 || !/^\d+\.\d+$/.test(pythonVersion))
        throw new InstallFailedError("the image has no working python3", "python3 -c 'import sys'");
      // Nothing to resolve (a src layout without requirements): only the `.pth` lines are written.
      let wheels: ResolvedWheel[] = [];
      let problems: SourceProblem[] = [];
      if (specs.length > 0) {
        const dry = await s.container.exec(
          [
            "sh",
            "-c",
            PIP,
            "pip",
            "install",
            "--dry-run",
            "--ignore-installed",
            "--only-binary=:all:",
            "--report",
            "/tmp/report.json",
            "--quiet",
            ...indexArgs(ctx.registry, s),
            "--",
            ...specs,
          ],
          { env: { ...env, ...pipIndexSettings(ctx.registry).env } },
        );
        if (dry.exitCode !== 0)
          throw pipFailure(dry.stderr + dry.stdout, s, dry.stoppedBy, ctx.limits, "pip install --dry-run");
        const reportText = await s.container.exec(["cat", "/tmp/report.json"]);
        let report: unknown;
        try {
          report = JSON.parse(reportText.stdout);
        } catch {
          throw new InstallFailedError("pip wrote no readable report", "pip install --dry-run --report");
        }
        ({ wheels, problems } = checkPipReport(report, ctx.registry));
      }
      if (problems.length > 0) throw new SourcePolicyError(problems, `installing ${specs.join(", ")}`);
      wheels.sort((a, b) => a.name.localeCompare(b.name));
      const target = options.target(pythonVersion);
      const top = target.split("/")[0] ?? target;
      const key = cacheKey({
        kind: options.kind,
        registry: registryKey(ctx.registry, "pypi"),
        image: id,
        target,
        pth: options.pth ?? {},
        tree: wheels.map((w) => `${w.name}==${w.version} ${w.sha256}`),
      });
      const installed = wheels.map((w) => ({ name: w.name, version: w.version }));
      const hit = await ctx.cache.lookup("pypi", key);
      if (hit) return { dir: hit.dir, cached: true, installed, key };
      const requirements = wheels.map((w) => `${w.name}==${w.version} --hash=sha256:${w.sha256}\n`).join("");
      await s.container.copyIn("/tmp", { "retrace-requirements.txt": requirements });
      if (wheels.length > 0) {
        const r = await s.container.exec(
          [
            "sh",
            "-c",
            PIP,
            "pip",
            "install",
            "--no-deps",
            "--require-hashes",
            "--only-binary=:all:",
            "--no-compile",
            "--target",
            `${OUT_DIR}/${target}`,
            "--quiet",
            ...indexArgs(ctx.registry, s),
            "-r",
            "/tmp/retrace-requirements.txt",
          ],
          { env: { ...env, ...pipIndexSettings(ctx.registry).env } },
        );
        if (r.exitCode !== 0)
          throw pipFailure(r.stderr + r.stdout, s, r.stoppedBy, ctx.limits, "pip install --no-deps");
      }
      // `.pth` files (and a marker when markers left nothing to install), with the directories tar creates.
      const extra: Record<string, string> = {};
      for (const [name, text] of Object.entries(options.pth ?? {})) extra[`${target}/${name}`] = text;
      if (wheels.length === 0) extra[`${target}/.retrace-empty`] = "";
      if (Object.keys(extra).length > 0) await s.container.copyIn(OUT_DIR, extra);
      await requireRoom(s, ctx.limits, "pip install --no-deps");
      const tmp = await ctx.cache.tempDir("pypi", key);
      try {
        await mkdir(tmp);
        await s.container.copyOut(top, `${tmp}/${top}`, extractLimits(ctx.limits));
        const { dir } = await ctx.cache.commit("pypi", key, tmp, { installed });
        return { dir, cached: false, installed, key };
      } catch (error) {
        await rm(tmp, { recursive: true, force: true });
        throw error;
      }
    },
  );
}

function pipFailure(
  output: string,
  s: Session,
  stoppedBy: string | null,
  limits: InstallLimits,
  command: string,
): InstallFailedError {
  const refused = s.proxy.refused();
  if (stoppedBy === "timeout" || s.container.stoppedBy === "timeout") return installTimedOut(command, limits);
  const reason = stoppedBy ? String(stoppedBy) : installFailureReason(output, "pypi");
  return new InstallFailedError(
    refused.length > 0 ? `${reason} (it tried to reach ${refused.join(", ")}, not an allowed index)` : reason,
    command,
  );
}
