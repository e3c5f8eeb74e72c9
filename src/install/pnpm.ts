/**
 * A pnpm workspace installed by its own package manager, in the install container: the pnpm release
 * package.json's `packageManager` names is fetched from the configured npm registry as the `pnpm` package
 * (through the same proxy, its sha512 checked when the field carries one; no corepack, no other host), then
 * `pnpm install --frozen-lockfile --ignore-scripts` from the repository's pnpm-lock.yaml, whose sources were
 * checked on the host first (`pnpm-lockfile.ts`). What comes back: the root's `node_modules` (pnpm's virtual
 * store `.pnpm` inside it) and each workspace package's, whose links may point into the workspace packages and
 * into the root's `node_modules`, nowhere else. The pnpm release itself goes with them
 * (`node_modules/.retrace-pnpm`, run by `node_modules/.bin/pnpm`), so a test command's `pnpm build` runs it.
 */
import { createHash } from "node:crypto";
import { parse as parseYaml } from "yaml";
import { InfrastructureError } from "../core/errors.ts";
import { cacheKey } from "./cache.ts";
import { OUT_DIR, type StepResult } from "./container.ts";
import { checkPackageJson, checkWorkspacePackageJsons, type SourcePolicy } from "./lockfile-policy.ts";
import {
  cachedPaths,
  cacheRepoInstall,
  InstallFailedError,
  installTimedOut,
  lockfileSession,
  type NpmInstallContext,
  type NpmTreeResult,
  npmEnv,
  requireRoom,
  SourcePolicyError,
} from "./npm.ts";
import { checkPnpmLockfile, checkPnpmWorkspace, pnpmImporterDirs } from "./pnpm-lockfile.ts";
import { CONTAINER_PROXY_URL, VIRTUAL_NPM_REGISTRY } from "./proxy.ts";
import { npmRegistries, registryKey } from "./registry-config.ts";
import { imageId, installImage, type Session, withSession } from "./session.ts";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

/** Where the pnpm release is unpacked in the install container (`/tmp`: noexec, which node does not need). */
const TOOL_DIR = "/tmp/retrace-pnpm";
/** Where it goes in the installed tree, and the shim on the runs' PATH (`/workspace/node_modules/.bin`). */
export const PNPM_TOOL_PATH = "node_modules/.retrace-pnpm";

export interface PnpmWorkspaceInput {
  packageJson: string;
  lockfile: string;
  /** pnpm-workspace.yaml, when committed. */
  workspaceYaml: string | null;
  /** The workspace packages' package.json files (relative path → content), the lockfile's importers. */
  workspaceFiles: Record<string, string>;
  /** The exact pnpm release (package.json `packageManager`), and its tarball's sha512 in hex when given. */
  pnpm: { version: string; sha512: string | null };
  policy: SourcePolicy;
}

function parseYamlFile(name: string, text: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 100 }) as unknown;
  } catch (error) {
    throw new InfrastructureError(
      `cannot install the repository's dependencies: ${name} is not valid YAML (${(error as Error).message.split("\n")[0]})`,
      `fix ${name} (regenerate it with \`pnpm install --lockfile-only\`)`,
      error,
    );
  }
}

/** The workspace package directories of the lockfile (its importers), for the caller to read package.json of. */
export function pnpmWorkspaceDirs(lockfile: string): string[] {
  return pnpmImporterDirs(parseYamlFile("pnpm-lock.yaml", lockfile));
}

/**
 * `pnpm install --frozen-lockfile --ignore-scripts` of a pnpm workspace in the install container, cached under
 * `<cache>/repo-deps/<key>` by package.json, pnpm-lock.yaml, pnpm-workspace.yaml, the workspace packages'
 * package.json, the pnpm release, registry, image and policy. Throws SourcePolicyError before anything runs
 * when a source is not allowed, InstallFailedError naming the command when fetching pnpm or installing fails.
 */
export async function installPnpmWorkspace(
  ctx: NpmInstallContext,
  input: PnpmWorkspaceInput,
  onMiss?: () => void,
): Promise<NpmTreeResult> {
  let pkg: unknown;
  try {
    pkg = JSON.parse(input.packageJson);
  } catch (error) {
    throw new InfrastructureError(
      "cannot install the repository's dependencies: package.json is not valid JSON",
      "fix package.json",
      error,
    );
  }
  const lock = parseYamlFile("pnpm-lock.yaml", input.lockfile);
  const ws = input.workspaceYaml === null ? null : parseYamlFile("pnpm-workspace.yaml", input.workspaceYaml);
  const registries = npmRegistries(ctx.registry);
  const problems = [
    ...checkPackageJson(pkg, registries, input.policy),
    ...checkWorkspacePackageJsons(input.workspaceFiles, registries, input.policy),
    ...checkPnpmLockfile(lock, registries, input.policy),
    ...checkPnpmWorkspace(ws),
  ];
  if (problems.length > 0) throw new SourcePolicyError(problems, "installing pnpm-lock.yaml");
  const dirs = pnpmImporterDirs(lock);
  const image = installImage(ctx.image);
  const key = cacheKey({
    kind: "pnpm-lockfile",
    registry: registryKey(ctx.registry, "npm"),
    image: await imageId(ctx.docker, image),
    policy: input.policy,
    pnpm: input.pnpm,
    packageJson: sha(input.packageJson),
    lockfile: sha(input.lockfile),
    workspaceYaml: input.workspaceYaml === null ? null : sha(input.workspaceYaml),
    workspaces: Object.entries(input.workspaceFiles).map(([k, v]) => [k, sha(v)]),
  });
  const hit = await ctx.cache.lookup("repo-deps", key);
  const paths = hit ? cachedPaths(hit.marker.meta) : null;
  if (hit && paths) return { dir: hit.dir, paths, cached: true, lockfile: input.lockfile };
  onMiss?.();
  const { options, view } = lockfileSession(ctx, image, lock, input.policy);
  return withSession(options, async (s) => {
    const env = npmEnv(s, input.policy, view);
    const bin = await fetchPackageManager(s, ctx, { name: "pnpm", ...input.pnpm, toolDir: TOOL_DIR }, env);
    await s.container.copyIn(OUT_DIR, {
      "package.json": input.packageJson,
      "pnpm-lock.yaml": input.lockfile,
      ...(input.workspaceYaml === null ? {} : { "pnpm-workspace.yaml": input.workspaceYaml }),
      ...input.workspaceFiles,
      // Registry settings only (pnpm 11 reads no others from .npmrc): the default and scoped virtual registries.
      ".npmrc": `registry=${VIRTUAL_NPM_REGISTRY}\n${view.npmrc}`,
    });
    const command = `pnpm@${input.pnpm.version} install --frozen-lockfile --ignore-scripts`;
    const r = await s.container.exec(
      [
        "node",
        bin,
        "install",
        "--frozen-lockfile",
        "--ignore-scripts",
        "--ignore-pnpmfile",
        `--registry=${VIRTUAL_NPM_REGISTRY}`,
        `--proxy=${CONTAINER_PROXY_URL}`,
        `--https-proxy=${CONTAINER_PROXY_URL}`,
        "--store-dir=/tmp/pnpm-store",
        "--cache-dir=/tmp/pnpm-cache",
        // Copies, not hard links into the store: the output leaves the container as plain files.
        "--package-import-method=copy",
        "--reporter=append-only",
        "--config.confirm-modules-purge=false",
        "--config.manage-package-manager-versions=false",
        // pnpm 11 re-checks every lockfile entry against the registry's metadata (release age, trust evidence:
        // two requests per package, minutes for a mid-size workspace) before a frozen install. The lockfile's
        // sources were checked against Retrace's policy above and pnpm checks each tarball's integrity; a frozen
        // install cannot pick another version, so these resolution policies change nothing that is installed.
        "--config.trust-lockfile=true",
      ],
      {
        env: {
          ...env,
          CI: "true",
          COREPACK_ENABLE_STRICT: "0",
          npm_config_manage_package_manager_versions: "false",
        },
      },
    );
    if (r.exitCode !== 0) throw pnpmFailure(r, s, ctx, command);
    await requireRoom(s, ctx.limits, command);
    // The pnpm release goes with the tree, and a shim on the runs' PATH runs it with the runs' node.
    const shim = `#!/bin/sh\nexec node "$(dirname "$0")/../.retrace-pnpm/${bin.slice(`${TOOL_DIR}/package/`.length)}" "$@"\n`;
    const place = await s.container.exec([
      "sh",
      "-c",
      `mkdir -p node_modules/.bin && rm -rf ${PNPM_TOOL_PATH} && cp -R ${TOOL_DIR}/package ${PNPM_TOOL_PATH} && printf '%s' "$1" > node_modules/.bin/pnpm && chmod 755 node_modules/.bin/pnpm`,
      "sh",
      shim,
    ]);
    if (place.exitCode !== 0)
      throw new InstallFailedError(place.stderr.trim() || "could not copy pnpm into node_modules", command);
    const { dir, paths } = await cacheRepoInstall(
      s,
      ctx,
      key,
      dirs,
      { lockfileName: "pnpm-lock.yaml", packageManager: `pnpm@${input.pnpm.version}` },
      ["node_modules"],
    );
    return { dir, paths, cached: false, lockfile: input.lockfile };
  });
}

/**
 * A package manager's release (`pnpm`, `yarn`), from the configured registry through the proxy (`npm pack
 * <name>@<version>`, whose integrity npm checks against the registry's), its sha512 compared with package.json's
 * `packageManager` hash when there is one, unpacked under `toolDir`. Returns the path of its `bin[name]` script.
 */
export async function fetchPackageManager(
  s: Session,
  ctx: NpmInstallContext,
  tool: {
    name: string;
    version: string;
    sha512: string | null;
    toolDir: string;
    why?: string;
    /** The `bin` entry to run (default: `name`; `@yarnpkg/cli-dist`'s is `yarn`). */
    binName?: string;
    /** A file of the package whose sha512 `packageManager`'s hash may be instead of the tarball's. */
    hashMayBeOfFile?: string;
  },
  env: Record<string, string>,
): Promise<string> {
  const { name, version, toolDir } = tool;
  const command = `npm pack ${name}@${version} (${tool.why ?? "package.json packageManager"})`;
  const hint = `check that ${name}@${version} is on the configured npm registry and reachable from this host, or set package.json \`packageManager\` to a ${name} release that is`;
  // npm pack's file name: `@scope/name` → `scope-name-<version>.tgz`.
  const tgz = `${toolDir}/${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
  const packed = await s.container.exec(
    [
      "sh",
      "-c",
      `mkdir -p ${toolDir} && cd ${toolDir} && npm pack "$1@$2" --ignore-scripts`,
      "sh",
      name,
      version,
    ],
    { env },
  );
  if (packed.exitCode !== 0) {
    if (packed.stoppedBy === "timeout" || s.container.stoppedBy === "timeout")
      throw installTimedOut(command, ctx.limits);
    throw new InstallFailedError(failureLine(packed, "npm"), command, hint);
  }
  if (tool.sha512 !== null) {
    const sum = await s.container.exec(["sha512sum", tgz]);
    const got = sum.stdout.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
    // corepack hashes what it downloads: for yarn 2+ that is the single bundle `bin/yarn.js` (the whole of
    // `@yarnpkg/cli-dist` besides its package.json), not the tarball.
    const bundle =
      got !== tool.sha512 && tool.hashMayBeOfFile
        ? await s.container.exec([
            "sh",
            "-c",
            `tar -xzOf "$1" "package/$2" | sha512sum`,
            "sh",
            tgz,
            tool.hashMayBeOfFile,
          ])
        : null;
    const ofBundle = bundle?.stdout.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
    if ((sum.exitCode !== 0 || got !== tool.sha512) && (bundle?.exitCode !== 0 || ofBundle !== tool.sha512))
      throw new InfrastructureError(
        `cannot install the repository's dependencies: ${name}@${version} from the configured registry does not match the sha512 package.json's packageManager names (got ${got.slice(0, 16) || "nothing"}…, want ${tool.sha512.slice(0, 16)}…)`,
        `check the configured npm registry's copy of ${name}, or correct the hash in package.json \`packageManager\``,
      );
  }
  const unpacked = await s.container.exec(["tar", "-xzf", tgz, "-C", toolDir, "--no-same-owner"]);
  const manifest = await s.container.exec(["cat", `${toolDir}/package/package.json`]);
  let binRel: unknown;
  try {
    const m = JSON.parse(manifest.stdout) as { name?: unknown; bin?: unknown };
    binRel =
      m.name === name
        ? typeof m.bin === "string"
          ? m.bin
          : (m.bin as Record<string, unknown> | undefined)?.[tool.binName ?? name]
        : undefined;
  } catch {
    binRel = undefined;
  }
  if (
    unpacked.exitCode !== 0 ||
    typeof binRel !== "string" ||
    !/^(\.\/)?[\w.-]+(\/[\w.-]+)*$/.test(binRel) ||
    binRel.split("/").includes("..")
  )
    throw new InstallFailedError(`the package is not a ${name} release with a bin script`, command, hint);
  return `${toolDir}/package/${binRel.replace(/^\.\//, "")}`;
}

/** The line of a failed step's output that says why: pnpm's `ERR_PNPM_*` line, yarn's or npm's error, or the last line. */
export function failureLine(r: StepResult, tool: "npm" | "pnpm" | "yarn"): string {
  if (r.stoppedBy === "cancelled") return "cancelled";
  if (r.stoppedBy === "output_limit") return "its output passed the install's limit";
  const text = `${r.stderr}\n${r.stdout}`;
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const pick =
    tool === "pnpm"
      ? (lines.find((l) => /ERR_PNPM_|ERROR/.test(l)) ?? lines.find((l) => /error/i.test(l)))
      : tool === "yarn"
        ? (lines.find((l) => /^error /.test(l)) ??
          lines.find(
            (l) =>
              /YN\d{4}/.test(l) &&
              !/YN0000/.test(l) &&
              /error|fail|forbidden|not found|couldn't|invalid|mismatch|quarantined|denied|unsupported/i.test(
                l,
              ),
          ) ??
          lines.find((l) => /YN\d{4}/.test(l) && !/YN0000/.test(l)) ??
          lines.find((l) => /error/i.test(l)))
        : (lines.find((l) => /npm (ERR!|error) (code|404|notarget)/i.test(l)) ??
          lines.find((l) => /npm (ERR!|error)/.test(l)));
  return (pick ?? lines.at(-1) ?? `exit code ${r.exitCode}`).slice(0, 600);
}

/**
 * A package manager's failed install step as an InstallFailedError: the install's time limit when it was stopped,
 * else its failing line (with the hosts the proxy refused, when it tried any) and the hint `hintFor` gives for it.
 */
export function managerFailure(
  r: StepResult,
  s: Session,
  ctx: NpmInstallContext,
  command: string,
  tool: "pnpm" | "yarn",
  hintFor: (reason: string) => string,
): InstallFailedError {
  if (r.stoppedBy === "timeout" || s.container.stoppedBy === "timeout")
    return installTimedOut(command, ctx.limits);
  const refused = s.proxy.refused();
  const reason = failureLine(r, tool);
  return new InstallFailedError(
    refused.length > 0
      ? `${reason} (it tried to reach ${refused.join(", ")}, not an allowed registry)`
      : reason,
    command,
    hintFor(reason),
  );
}

function pnpmFailure(r: StepResult, s: Session, ctx: NpmInstallContext, command: string): InstallFailedError {
  return managerFailure(r, s, ctx, command, "pnpm", (reason) =>
    /requires at least Node\.js/i.test(reason)
      ? "the repository's Node (the runtime of .nvmrc, .node-version, .tool-versions, package.json volta/engines, or the CI workflow's setup-node) is older than its pnpm release needs: pin a Node that release supports, or set package.json `packageManager` to a pnpm release that runs on that Node"
      : /OUTDATED_LOCKFILE|frozen/i.test(reason)
        ? "pnpm-lock.yaml is not in sync with the workspace's package.json files: regenerate it (`pnpm install --lockfile-only`) and commit it"
        : "check that every package pnpm-lock.yaml names is on the configured npm registry and reachable from this host; a source other than the registry needs the matching `install.allow*` in .github/retrace.yml",
  );
}
