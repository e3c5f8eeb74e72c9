/**
 * One install = one egress proxy + one throwaway container, opened together and always closed together.
 * Also the facts about the image every cache key includes (its id) and whether its npm has the
 * `--allow-git/--allow-remote/--allow-file/--allow-directory` settings.
 */
import { readFile } from "node:fs/promises";
import type Docker from "dockerode";
import { InfrastructureError } from "../core/errors.ts";
import { DEFAULT_SANDBOX_IMAGE } from "../sandbox/docker.ts";
import { connectDocker } from "../sandbox/engine.ts";
import type { InstallCache } from "./cache.ts";
import { InstallContainer, type InstallLimits } from "./container.ts";
import { InstallFailedError, installTimedOut } from "./install-errors.ts";
import { type EgressProxy, startEgressProxy } from "./proxy.ts";
import type { RegistryConfig } from "./registry-config.ts";
import { INSTALL_TIMED_OUT } from "../repro/ports.ts";

/** Where the operator's CA bundle is put in the install container. */
export const CONTAINER_CA_FILE = "/tmp/retrace-ca.pem";

export interface SessionOptions {
  docker?: Docker;
  image?: string;
  limits: InstallLimits;
  allowHosts: readonly string[];
  /** The entries of `allowHosts` the repository named: reached only at public addresses (`startEgressProxy`). */
  repositoryHosts?: readonly string[];
  /** Virtual registry hosts the proxy forwards to the configured registry (`startEgressProxy` routes). */
  routes?: Record<string, string>;
  /** Real → virtual registry URLs the proxy rewrites in routed JSON (`startEgressProxy` rewriteJson). */
  rewriteJson?: Record<string, string>;
  readOnlyDirs?: readonly string[];
  registry: RegistryConfig;
  jobId: string;
  signal?: AbortSignal;
}

/** What one install of packages takes (npm or pip): Docker, the image, the registry, the cache, limits, job. */
export interface InstallContext {
  docker: Docker;
  image?: string;
  registry: RegistryConfig;
  cache: InstallCache;
  limits: InstallLimits;
  jobId: string;
  signal?: AbortSignal;
}

export interface Session {
  container: InstallContainer;
  proxy: EgressProxy;
  /** True when the operator's CA bundle was copied to CONTAINER_CA_FILE. */
  hasCa: boolean;
}

export function installImage(image?: string): string {
  return image ?? process.env.RETRACE_SANDBOX_IMAGE ?? DEFAULT_SANDBOX_IMAGE;
}

/**
 * Whatever fails once the install's time limit stopped the container (an empty lockfile read back, a copy-out
 * cut short, a step that saw only a killed process) failed for the limit: the error says so, naming the step that
 * was under way and the limit, so the caller treats it as the host's doing (`hostInstallFailure`), never as a
 * fault of the packages asked for.
 */
export function asTimeout(
  error: unknown,
  container: Pick<InstallContainer, "stoppedBy" | "stoppedDuring">,
  limits: Pick<InstallLimits, "timeoutMs" | "timeoutSetting">,
): unknown {
  if (container.stoppedBy !== "timeout") return error;
  if (error instanceof InstallFailedError && error.reason.startsWith(INSTALL_TIMED_OUT)) return error;
  return installTimedOut(container.stoppedDuring ?? "the install", limits);
}

const imageIds = new Map<string, Promise<string>>();

/** The image's id (part of every cache key: a rebuilt image is another installer). */
export function imageId(docker: Docker, image: string): Promise<string> {
  let p = imageIds.get(image);
  if (!p) {
    p = docker
      .getImage(image)
      .inspect()
      .then((i) => i.Id)
      .catch((error: unknown) => {
        imageIds.delete(image);
        throw new InfrastructureError(
          `sandbox image ${image} not found`,
          `build it: \`npm run setup\` (or \`docker build -t ${image} sandbox/\`)`,
          error,
        );
      });
    imageIds.set(image, p);
  }
  return p;
}

export async function withSession<T>(options: SessionOptions, fn: (s: Session) => Promise<T>): Promise<T> {
  const docker = options.docker ?? connectDocker();
  const proxy = await startEgressProxy({
    allow: options.allowHosts,
    repositoryHosts: options.repositoryHosts ?? [],
    privateHosts: options.registry.privateSourceHosts ?? [],
    ...(options.routes ? { routes: options.routes } : {}),
    ...(options.rewriteJson ? { rewriteJson: options.rewriteJson } : {}),
    caFile: options.registry.caFile,
    ...(options.registry.npmAuth && options.registry.npmAuth.size > 0
      ? { authorization: (url: string) => options.registry.npmAuth!.authorizationFor(url) }
      : {}),
  });
  let container: InstallContainer | null = null;
  try {
    container = await InstallContainer.open({
      docker,
      image: installImage(options.image),
      limits: options.limits,
      proxy,
      jobId: options.jobId,
      ...(options.readOnlyDirs ? { readOnlyDirs: options.readOnlyDirs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    let hasCa = false;
    if (options.registry.caFile) {
      const ca = await readFile(options.registry.caFile).catch(() => null);
      if (ca && ca.length < 8 * 1024 * 1024) {
        await container.copyIn("/tmp", { "retrace-ca.pem": ca });
        hasCa = true;
      }
    }
    return await fn({ container, proxy, hasCa });
  } catch (error) {
    throw container ? asTimeout(error, container, options.limits) : error;
  } finally {
    await container?.close();
    await proxy.close();
  }
}

const allowFlagSupport = new Map<string, boolean>();

/**
 * Whether the image's npm knows `allow-git` (npm 11.x), read from its config definitions (a grep, not an npm
 * start-up: starting npm costs seconds on a loaded host); asked once per image.
 */
export async function npmHasAllowFlags(s: Session, image: string): Promise<boolean> {
  const known = allowFlagSupport.get(image);
  if (known !== undefined) return known;
  const r = await s.container.exec([
    "sh",
    "-c",
    'd=$(dirname "$(readlink -f "$(command -v npm)")")/..; grep -rqs -e "allow-git" "$d/node_modules/@npmcli/config/lib" /usr/share/nodejs/@npmcli/config/lib && echo yes || echo no',
  ]);
  const yes = r.exitCode === 0 && r.stdout.trim() === "yes";
  allowFlagSupport.set(image, yes);
  return yes;
}

/**
 * A session for one install of `ctx` in its image, on the given network (hosts, routes, read-only dirs);
 * `fn` also gets the image and its id (part of every cache key).
 */
export async function withInstallSession<T>(
  ctx: InstallContext,
  network: Pick<SessionOptions, "allowHosts" | "repositoryHosts" | "routes" | "rewriteJson" | "readOnlyDirs">,
  fn: (s: Session, image: { image: string; id: string }) => Promise<T>,
): Promise<T> {
  const image = installImage(ctx.image);
  const id = await imageId(ctx.docker, image);
  return withSession(
    {
      docker: ctx.docker,
      image,
      limits: ctx.limits,
      ...network,
      registry: ctx.registry,
      jobId: ctx.jobId,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    },
    (s) => fn(s, { image, id }),
  );
}
