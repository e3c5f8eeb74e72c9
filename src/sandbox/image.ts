/**
 * Getting the sandbox image onto a machine that has none — a fresh GitHub-hosted runner — in the order a
 * user would want: already there, a saved copy in the cache directory, a pull of the published image pinned
 * by digest (through a registry mirror when one is set), a build from the Dockerfile shipped with the
 * Action. Each step says what it did; when none works the error lists every attempt and what to set.
 *
 * A pulled image is named by its digest (`repo@sha256:…`), so what runs is exactly what was published; the
 * engine verifies the content against that digest while pulling.
 */
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type Docker from "dockerode";
import tar from "tar-stream";
import { InfrastructureError } from "../core/errors.ts";

/** The published image this version of Retrace pins (written by the release workflow). */
export interface PublishedImage {
  repository: string;
  digest: string;
}

export interface ProvisionOptions {
  /** An image reference to use (`repo@sha256:…`, `repo:tag`, or a local name); else the published one. */
  image?: string | undefined;
  /** The published image, from sandbox/published.json; null when this version has not been released. */
  published?: PublishedImage | null;
  /** Pull through this registry host instead of the image's own (e.g. `mirror.example.com:5000`). */
  mirror?: string | undefined;
  /** A directory of the Dockerfile to build from when nothing can be pulled; skipped when absent. */
  buildContext?: string | undefined;
  /** Where a pulled or built image is saved (`docker save`) and loaded from on the next run. */
  cacheDir?: string | undefined;
  /** Bound on one pull or build, ms (default 20 minutes). */
  timeoutMs?: number;
  log?: (line: string) => void;
}

export interface ProvisionResult {
  /** The reference runs must use. */
  image: string;
  how: "present" | "loaded" | "pulled" | "built";
  ms: number;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** Read sandbox/published.json; null when the file is missing or names no digest (not yet released). */
export function readPublishedImage(file: string): PublishedImage | null {
  if (!existsSync(file)) return null;
  const raw = JSON.parse(readFileSync(file, "utf8")) as Partial<PublishedImage>;
  if (typeof raw.repository !== "string" || typeof raw.digest !== "string" || !DIGEST.test(raw.digest))
    return null;
  return { repository: raw.repository, digest: raw.digest };
}

/** `registry.example/owner/name@sha256:…` with its registry host replaced by `mirror`. */
export function throughMirror(ref: string, mirror: string): string {
  const host = mirror.replace(/^https?:\/\//, "").replace(/\/+$/, "");
  const first = ref.split("/")[0] ?? "";
  // A first component with a dot, a colon or `localhost` is a registry host; otherwise the ref is on Docker Hub.
  const hasHost = ref.includes("/") && (first.includes(".") || first.includes(":") || first === "localhost");
  return hasHost
    ? `${host}/${ref.slice(first.length + 1)}`
    : `${host}/${ref.includes("/") ? ref : `library/${ref}`}`;
}

/** A file name for a reference in the cache directory. */
function cacheFile(dir: string, ref: string): string {
  return path.join(dir, `${ref.replace(/[^A-Za-z0-9._-]+/g, "_")}.tar`);
}

/** The metadata files of a `docker save` archive (docker's `manifest.json`, legacy `repositories`, OCI `index.json`). */
const NAMING_FILES = new Set(["manifest.json", "repositories", "index.json"]);
const MAX_NAMING_BYTES = 1024 * 1024;

/** `docker.io/library/x:1` and `x:1` are one name to the engine. */
function shortName(name: string): string {
  return name.replace(/^docker\.io\/(library\/)?/, "");
}

/**
 * Every name `docker load` would give an image of the archive at `file`: the RepoTags of its manifest.json, the
 * tags of its legacy `repositories`, the name annotations of its OCI index. Throws when the archive is unreadable
 * or a naming file is not what docker writes.
 */
async function namesInSavedImage(file: string): Promise<string[]> {
  const names: string[] = [];
  const extract = tar.extract();
  extract.on("entry", (header, stream, next) => {
    const name = header.name.replace(/^\.\//, "");
    if (!NAMING_FILES.has(name)) {
      stream.on("end", next);
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (c: unknown) => {
      size += (c as Buffer).length;
      if (size <= MAX_NAMING_BYTES) chunks.push(c as Buffer);
    });
    stream.on("end", () => {
      if (size > MAX_NAMING_BYTES) return next(new Error(`${name} is larger than docker writes`));
      try {
        const json = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
        if (name === "manifest.json")
          for (const m of json as Array<{ RepoTags?: string[] | null }>) names.push(...(m.RepoTags ?? []));
        else if (name === "repositories")
          for (const [repo, tags] of Object.entries(json as Record<string, Record<string, string>>))
            for (const tag of Object.keys(tags)) names.push(`${repo}:${tag}`);
        else
          for (const m of (json as { manifests?: Array<{ annotations?: Record<string, string> }> })
            .manifests ?? [])
            for (const [k, v] of Object.entries(m.annotations ?? {}))
              if (k === "io.containerd.image.name" || k === "org.opencontainers.image.ref.name")
                names.push(v);
        next();
      } catch (error) {
        next(new Error(`${name} is not what docker writes (${(error as Error).message})`));
      }
    });
  });
  await pipeline(createReadStream(file), extract);
  return names;
}

async function present(docker: Docker, ref: string): Promise<boolean> {
  try {
    await docker.getImage(ref).inspect();
    return true;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return false;
    throw error;
  }
}

function withTimeout<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function pull(docker: Docker, ref: string, timeoutMs: number, log: (l: string) => void): Promise<void> {
  const stream = await docker.pull(ref);
  let last = "";
  await withTimeout(
    `pulling ${ref}`,
    timeoutMs,
    new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(
        stream,
        (error: Error | null, events: Array<{ error?: string }>) => {
          const failed = error?.message ?? events.find((e) => e.error)?.error;
          if (failed) reject(new Error(failed));
          else resolve();
        },
        (event: { status?: string; id?: string }) => {
          // One line per layer state change is enough to show progress without flooding the log.
          const line = `${event.status ?? ""}${event.id ? ` ${event.id}` : ""}`;
          if (
            event.status &&
            !event.status.startsWith("Downloading") &&
            !event.status.startsWith("Extracting") &&
            line !== last
          ) {
            last = line;
            log(`  ${line}`);
          }
        },
      );
    }),
  );
}

async function build(
  docker: Docker,
  context: string,
  tag: string,
  timeoutMs: number,
  log: (l: string) => void,
): Promise<void> {
  // The build context is the Action's own sandbox/ folder (regular files only: no links leave it).
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(context, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      const st = statSync(path.join(context, r));
      if (st.isDirectory()) walk(r);
      else if (st.isFile()) files.push(r);
    }
  };
  walk("");
  const stream = await docker.buildImage({ context, src: files }, { t: tag, rm: true, forcerm: true });
  await withTimeout(
    `building ${tag}`,
    timeoutMs,
    new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(
        stream,
        (error: Error | null, events: Array<{ error?: string; errorDetail?: { message?: string } }>) => {
          const failed = error?.message ?? events.find((e) => e.error)?.error;
          if (failed) reject(new Error(failed.trim()));
          else resolve();
        },
        (event: { stream?: string }) => {
          const line = event.stream?.trim();
          if (line?.startsWith("Step ")) log(`  ${line}`);
        },
      );
    }),
  );
}

async function save(docker: Docker, ref: string, dir: string, log: (l: string) => void): Promise<void> {
  try {
    mkdirSync(dir, { recursive: true });
    const file = cacheFile(dir, ref);
    const part = `${file}.${process.pid}.part`;
    await pipeline(await docker.getImage(ref).get(), createWriteStream(part));
    renameSync(part, file); // written whole, then named: a reader never sees half an image
    log(`saved ${ref} to ${file} for the next run`);
  } catch (error) {
    log(`could not save ${ref} to ${dir} (${(error as Error).message}); the next run pulls again`);
  }
}

/**
 * Make the sandbox image available on `docker`'s engine and say which reference runs use.
 * Throws an InfrastructureError naming every attempt when no source works.
 */
export async function provisionSandboxImage(
  docker: Docker,
  options: ProvisionOptions,
): Promise<ProvisionResult> {
  const log = options.log ?? (() => {});
  const timeoutMs = options.timeoutMs ?? 20 * 60_000;
  const started = Date.now();
  const done = (image: string, how: ProvisionResult["how"]): ProvisionResult => ({
    image,
    how,
    ms: Date.now() - started,
  });
  const pinned = options.published
    ? `${options.published.repository}@${options.published.digest}`
    : undefined;
  const wanted = options.image ?? pinned;
  const target = wanted && options.mirror ? throughMirror(wanted, options.mirror) : wanted;
  const buildTag = "retrace-sandbox:action-build";
  const attempts: string[] = [];

  for (const ref of [target, options.buildContext ? buildTag : undefined]) {
    if (ref && (await present(docker, ref))) {
      log(`sandbox image ${ref} is already on this machine`);
      return done(ref, "present");
    }
  }
  if (options.cacheDir) {
    for (const ref of [target, options.buildContext ? buildTag : undefined]) {
      if (!ref) continue;
      const file = cacheFile(options.cacheDir, ref);
      if (!existsSync(file)) continue;
      try {
        // Read before it is loaded: `docker load` tags every image the archive names, whatever it was saved for
        // (red team 22: the copy saved for the pinned image tagged another name on the engine, then was dropped).
        // An OCI tag annotation (`1`) names the image the archive was saved for.
        const others = (await namesInSavedImage(file)).filter(
          (n) => shortName(n) !== shortName(ref) && !/^[\w][\w.-]*$/.test(n),
        );
        if (others.length > 0) {
          attempts.push(
            `the cached copy ${file} also names ${others.slice(0, 3).join(", ")}${others.length > 3 ? ", …" : ""}: not loaded (a saved copy holds only the image it was saved for)`,
          );
          rmSync(file, { force: true });
          continue;
        }
        // The engine answers as it loads: the answer is read to its end (an error in it fails the load), so the
        // image is there when `present` asks and no connection is left open (it held the process for minutes).
        const answer = await docker.loadImage(createReadStream(file));
        await new Promise<void>((resolve, reject) =>
          docker.modem.followProgress(answer, (error: Error | null, events: Array<{ error?: string }>) => {
            const failed = error?.message ?? events.find((e) => e.error)?.error;
            if (failed) reject(new Error(failed.trim()));
            else resolve();
          }),
        );
        if (await present(docker, ref)) {
          log(`sandbox image ${ref} loaded from ${file}`);
          return done(ref, "loaded");
        }
        attempts.push(`the cached copy ${file} did not hold ${ref}`);
      } catch (error) {
        attempts.push(`loading ${file}: ${(error as Error).message}`);
      }
      rmSync(file, { force: true }); // a copy that does not load is dropped, not tried again
    }
  }
  if (target) {
    log(`pulling the sandbox image ${target}`);
    try {
      await pull(docker, target, timeoutMs, log);
      if (!(await present(docker, target)))
        throw new Error("the engine reported success but has no such image");
      if (options.cacheDir) await save(docker, target, options.cacheDir, log);
      return done(target, "pulled");
    } catch (error) {
      attempts.push(`pulling ${target}: ${(error as Error).message.trim()}`);
      log(`  pull failed: ${(error as Error).message.trim()}`);
    }
  } else {
    attempts.push(
      "no image to pull: this version of Retrace names no published image and the sandbox-image input is empty",
    );
  }
  if (options.buildContext && existsSync(path.join(options.buildContext, "Dockerfile"))) {
    log(`building the sandbox image from ${path.join(options.buildContext, "Dockerfile")}`);
    try {
      await build(docker, options.buildContext, buildTag, timeoutMs, log);
      if (options.cacheDir) await save(docker, buildTag, options.cacheDir, log);
      return done(buildTag, "built");
    } catch (error) {
      attempts.push(`building from ${options.buildContext}/Dockerfile: ${(error as Error).message}`);
    }
  } else if (options.buildContext) {
    attempts.push(`no Dockerfile in ${options.buildContext}`);
  }
  throw new InfrastructureError(
    `the sandbox image could not be made available: ${attempts.join("; ")}`,
    "set the Action's sandbox-image input to an image this runner can pull (or sandbox-registry-mirror to a mirror of the published one), or let the runner reach the registry",
  );
}
