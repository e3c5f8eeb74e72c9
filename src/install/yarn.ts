/**
 * A yarn classic (v1) workspace installed by yarn itself, in the install container: the yarn release
 * package.json's `packageManager` names (default: YARN_CLASSIC_DEFAULT) is fetched from the configured npm
 * registry as the `yarn` package (through the same proxy, its sha512 checked when the field carries one; no
 * corepack, no other host), then `yarn install --frozen-lockfile --ignore-scripts --non-interactive` from the
 * repository's yarn.lock, whose sources were checked on the host first (`yarn-lockfile.ts`) and whose registry
 * tarball URLs are handed to yarn on the session's virtual registry. What comes back: the root's `node_modules`
 * (yarn's links to the workspace packages in it) and each workspace package's own, whose links may point into
 * the workspace packages, nowhere else. The yarn release goes with them (`node_modules/.retrace-yarn`, run by
 * `node_modules/.bin/yarn`), so a test command's `yarn build` runs it.
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
  lockfileSession,
  type NpmInstallContext,
  type NpmTreeResult,
  npmEnv,
  requireRoom,
  SourcePolicyError,
} from "./npm.ts";
import { fetchPackageManager, managerFailure } from "./pnpm.ts";
import { CONTAINER_PROXY_URL, VIRTUAL_NPM_HOST, VIRTUAL_NPM_REGISTRY } from "./proxy.ts";
import { npmRegistries, registryKey } from "./registry-config.ts";
import { imageId, installImage, type Session, withSession } from "./session.ts";
import {
  checkYarnBerryLockfile,
  checkYarnClassicLockfile,
  parseYarnClassic,
  yarnBerryResolutions,
  yarnLockfileMissing,
  yarnLockfileOnVirtualRegistry,
} from "./yarn-lockfile.ts";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

/** The yarn classic release used when package.json names none: the last of the 1.x line. */
export const YARN_CLASSIC_DEFAULT = "1.22.22";

/** Where the yarn release is unpacked in the install container (`/tmp`: noexec, which node does not need). */
const TOOL_DIR = "/tmp/retrace-yarn";
/** Where it goes in the installed tree, and the shim on the runs' PATH (`/workspace/node_modules/.bin`). */
export const YARN_TOOL_PATH = "node_modules/.retrace-yarn";

export interface YarnWorkspaceInput {
  packageJson: string;
  lockfile: string;
  /** The workspace packages' package.json files (relative path → content), the root's `workspaces` matches. */
  workspaceFiles: Record<string, string>;
  /**
   * The exact yarn release: classic (1.x, the `yarn` package) or berry (2+, `@yarnpkg/cli-dist`), its tarball's
   * sha512 in hex when package.json's `packageManager` gives one.
   */
  yarn: { flavor: "classic" | "berry"; version: string; sha512: string | null; fromPackageManager: boolean };
  policy: SourcePolicy;
}

/**
 * `yarn install --frozen-lockfile --ignore-scripts` of a yarn classic workspace in the install container,
 * cached under `<cache>/repo-deps/<key>` by package.json, yarn.lock, the workspace packages' package.json, the
 * yarn release, registry, image and policy. Throws SourcePolicyError before anything runs when a source is not
 * allowed, InstallFailedError naming the command when fetching yarn or installing fails.
 */
export async function installYarnWorkspace(
  ctx: NpmInstallContext,
  input: YarnWorkspaceInput,
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
  const berry = input.yarn.flavor === "berry";
  const entries = berry ? [] : parseYarnClassic(input.lockfile);
  const berryLock = berry ? parseBerryLock(input.lockfile) : null;
  const registries = npmRegistries(ctx.registry);
  const problems = [
    ...checkPackageJson(pkg, registries, input.policy),
    ...checkWorkspacePackageJsons(input.workspaceFiles, registries, input.policy),
    ...(berry
      ? checkYarnBerryLockfile(berryLock, registries, input.policy)
      : checkYarnClassicLockfile(entries, registries, input.policy)),
  ];
  if (problems.length > 0) throw new SourcePolicyError(problems, "installing yarn.lock");
  const manifests: Record<string, unknown> = { "package.json": pkg };
  for (const [file, text] of Object.entries(input.workspaceFiles)) manifests[file] = JSON.parse(text);
  // berry's `--immutable` refuses these itself.
  const missing = berry ? [] : yarnLockfileMissing(manifests, entries);
  if (missing.length > 0)
    throw new InfrastructureError(
      `cannot install the repository's dependencies: yarn.lock is not in sync with the workspace's package.json files, it has no entry for ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""} (\`yarn install --frozen-lockfile\` is what Retrace runs)`,
      "regenerate yarn.lock (`yarn install`) and commit it",
    );
  const dirs = Object.keys(input.workspaceFiles)
    .filter((f) => f.endsWith("/package.json"))
    .map((f) => f.slice(0, -"/package.json".length));
  const image = installImage(ctx.image);
  const key = cacheKey({
    kind: berry ? "yarn-berry-lockfile" : "yarn-classic-lockfile",
    registry: registryKey(ctx.registry, "npm"),
    image: await imageId(ctx.docker, image),
    policy: input.policy,
    yarn: { version: input.yarn.version, sha512: input.yarn.sha512 },
    packageJson: sha(input.packageJson),
    lockfile: sha(input.lockfile),
    workspaces: Object.entries(input.workspaceFiles)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [k, sha(v)]),
  });
  const hit = await ctx.cache.lookup("repo-deps", key);
  const paths = hit ? cachedPaths(hit.marker.meta) : null;
  if (hit && paths) return { dir: hit.dir, paths, cached: true, lockfile: input.lockfile };
  onMiss?.();
  const { options, view } = lockfileSession(
    ctx,
    image,
    berry ? yarnBerryResolutions(berryLock) : entries.map((e) => e.resolved),
    input.policy,
  );
  const virtualOf = new Map(
    Object.entries(view.rewriteJson).map(([real, virtual]) => [
      real.endsWith("/") ? real : `${real}/`,
      virtual,
    ]),
  );
  // yarn 1 fetches the lockfile's tarball URLs as written; berry's `npm:` resolutions name no registry.
  const lockForYarn = berry
    ? input.lockfile
    : yarnLockfileOnVirtualRegistry(
        input.lockfile,
        registries,
        (base) => virtualOf.get(base) ?? VIRTUAL_NPM_REGISTRY,
      );
  const scopes = scopeRegistries(view.npmrc);
  return withSession(options, async (s) => {
    const env = npmEnv(s, input.policy, view);
    const bin = await fetchPackageManager(
      s,
      ctx,
      {
        name: berry ? "@yarnpkg/cli-dist" : "yarn",
        binName: "yarn",
        ...(berry ? { hashMayBeOfFile: "bin/yarn.js" } : {}),
        version: input.yarn.version,
        sha512: input.yarn.sha512,
        toolDir: TOOL_DIR,
        why: input.yarn.fromPackageManager
          ? "package.json packageManager"
          : "Retrace's yarn 1 release: package.json names none in `packageManager`",
      },
      env,
    );
    await s.container.copyIn(TOOL_DIR, { "yarn.lock.given": lockForYarn });
    await s.container.copyIn(OUT_DIR, {
      "package.json": input.packageJson,
      "yarn.lock": lockForYarn,
      ...input.workspaceFiles,
      // The registries only: the default and each scope's virtual registry (the repository's own .yarnrc,
      // .yarnrc.yml and .npmrc are not copied: their registry, proxy, plugin or yarnPath settings lead elsewhere).
      ...(berry
        ? { ".yarnrc.yml": berryRc(scopes) }
        : {
            ".yarnrc": `registry "${VIRTUAL_NPM_REGISTRY}"\n${Object.entries(scopes)
              .map(([scope, url]) => `"${scope}:registry" "${url}"\n`)
              .join("")}`,
            ".npmrc": `registry=${VIRTUAL_NPM_REGISTRY}\n${view.npmrc}`,
          }),
    });
    const command = berry
      ? `yarn@${input.yarn.version} install --immutable --mode=skip-build (scripts off, nodeLinker node-modules)`
      : `yarn@${input.yarn.version} install --frozen-lockfile --ignore-scripts`;
    // berry refuses a YARN_* variable that is not one of its settings: only yarn 1 gets yarn 1's.
    const yarnEnv = { ...env, CI: "true", COREPACK_ENABLE_STRICT: "0" };
    const r = berry
      ? await s.container.exec(["node", bin, "install", "--immutable", "--mode=skip-build"], {
          env: { ...yarnEnv, YARN_ENABLE_SCRIPTS: "0", YARN_NODE_LINKER: "node-modules" },
        })
      : await s.container.exec(
          [
            "node",
            bin,
            "install",
            "--frozen-lockfile",
            "--ignore-scripts",
            "--non-interactive",
            "--no-progress",
            "--no-default-rc",
            "--use-yarnrc",
            `${OUT_DIR}/.yarnrc`,
            `--registry=${VIRTUAL_NPM_REGISTRY}`,
            `--proxy=${CONTAINER_PROXY_URL}`,
            `--https-proxy=${CONTAINER_PROXY_URL}`,
            "--cache-folder=/tmp/yarn-cache",
            "--network-timeout=60000",
            "--network-concurrency=8",
          ],
          {
            env: {
              ...yarnEnv,
              YARN_IGNORE_PATH: "1",
              YARN_DISABLE_SELF_UPDATE_CHECK: "true",
              YARN_ENABLE_TELEMETRY: "0",
            },
          },
        );
    if (r.exitCode !== 0) throw yarnFailure(r, s, ctx, command);
    // yarn 1's `--frozen-lockfile` lets a workspace install what yarn.lock does not say (the direct
    // dependencies were checked above; a transitive one yarn resolved anew shows as a changed yarn.lock).
    const same = await s.container.exec(["cmp", "-s", "yarn.lock", `${TOOL_DIR}/yarn.lock.given`]);
    if (!berry && same.exitCode !== 0)
      throw new InstallFailedError(
        "yarn resolved packages yarn.lock does not list (it rewrote yarn.lock)",
        command,
        "yarn.lock is not in sync with the workspace's package.json files: regenerate it (`yarn install`) and commit it",
      );
    await requireRoom(s, ctx.limits, command);
    // The yarn release goes with the tree, and a shim on the runs' PATH runs it with the runs' node.
    const shim = `#!/bin/sh\nexec node "$(dirname "$0")/../.retrace-yarn/${bin.slice(`${TOOL_DIR}/package/`.length)}" "$@"\n`;
    const place = await s.container.exec([
      "sh",
      "-c",
      `mkdir -p node_modules/.bin && rm -rf ${YARN_TOOL_PATH} && cp -R ${TOOL_DIR}/package ${YARN_TOOL_PATH} && rm -f node_modules/.bin/yarn && printf '%s' "$1" > node_modules/.bin/yarn && chmod 755 node_modules/.bin/yarn`,
      "sh",
      shim,
    ]);
    if (place.exitCode !== 0)
      throw new InstallFailedError(place.stderr.trim() || "could not copy yarn into node_modules", command);
    const { dir, paths } = await cacheRepoInstall(s, ctx, key, dirs, {
      lockfileName: "yarn.lock",
      packageManager: `yarn@${input.yarn.version}`,
    });
    return { dir, paths, cached: false, lockfile: input.lockfile };
  });
}

/**
 * The `.yarnrc.yml` berry gets: the virtual registries (plain http, hence whitelisted), the session's proxy,
 * scripts off, node_modules linking, a cache in /tmp, immutable installs, no telemetry.
 */
function berryRc(scopes: Record<string, string>): string {
  const q = (v: string) => JSON.stringify(v);
  const server = VIRTUAL_NPM_REGISTRY.replace(/\/$/, "");
  return [
    "nodeLinker: node-modules",
    "enableScripts: false",
    `npmRegistryServer: ${q(server)}`,
    `unsafeHttpWhitelist: [${q(VIRTUAL_NPM_HOST)}, ${q(`*.${VIRTUAL_NPM_HOST}`)}]`,
    `httpProxy: ${q(CONTAINER_PROXY_URL)}`,
    `httpsProxy: ${q(CONTAINER_PROXY_URL)}`,
    "enableGlobalCache: false",
    'cacheFolder: "/tmp/yarn-berry-cache"',
    "enableTelemetry: false",
    "enableImmutableInstalls: true",
    "enableHardenedMode: false",
    "enableProgressBars: false",
    ...(Object.keys(scopes).length === 0
      ? []
      : [
          "npmScopes:",
          ...Object.entries(scopes).map(
            ([scope, url]) => `  ${q(scope.slice(1))}:\n    npmRegistryServer: ${q(url.replace(/\/$/, ""))}`,
          ),
        ]),
    "",
  ].join("\n");
}

/** A berry yarn.lock, parsed (YAML). */
function parseBerryLock(text: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 100 }) as unknown;
  } catch (error) {
    throw new InfrastructureError(
      `cannot install the repository's dependencies: yarn.lock is not valid YAML (${(error as Error).message.split("\n")[0]})`,
      "regenerate yarn.lock with the project's yarn (`yarn install`) and commit it",
      error,
    );
  }
}

/** `@scope:registry=<url>` lines of the session's .npmrc, as scope → virtual URL. */
function scopeRegistries(npmrc: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of npmrc.matchAll(/^(@[^:\s]+):registry=(\S+)$/gm)) out[m[1]!] = m[2]!;
  return out;
}

function yarnFailure(r: StepResult, s: Session, ctx: NpmInstallContext, command: string): InstallFailedError {
  return managerFailure(r, s, ctx, command, "yarn", (reason) =>
    /lockfile needs to be updated|frozen-lockfile|lockfile would have been modified|YN0028/i.test(reason)
      ? "yarn.lock is not in sync with the workspace's package.json files: regenerate it (`yarn install`) and commit it"
      : /incompatible with this module|expected version/i.test(reason)
        ? "a package's `engines` rules out the repository's Node (the runtime of .nvmrc, .node-version, .tool-versions, package.json volta/engines, or the CI workflow's setup-node): pin a Node every package of yarn.lock supports"
        : "check that every package yarn.lock names is on the configured npm registry and reachable from this host; a source other than the registry needs the matching `install.allow*` in .github/retrace.yml",
  );
}
