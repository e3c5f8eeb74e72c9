/**
 * Turning an input tree into a tar stream, and a tar stream of collected files back into buffers.
 * Symlinks are never followed: in, a link is packed as a link (its target text only); out, only regular
 * files come back. Paths are validated so nothing lands outside the workspace.
 */
import { lstat, open, readdir, readlink } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import tar from "tar-stream";
import { RetraceError } from "../core/errors.ts";
import type { SandboxInput } from "./types.ts";

/** Directories never copied into the sandbox: VCS metadata is not needed to run code and is often large. */
const SKIPPED_DIRS = new Set([".git", ".hg", ".svn"]);

export class UnsafePathError extends RetraceError {
  constructor(p: string) {
    super("usage", `unsafe path in sandbox input: ${JSON.stringify(p)}`, {
      hint: "paths must be relative, use '/', and stay inside the workspace (no '..', no absolute paths)",
    });
  }
}

/** Normalise a workspace-relative path; throws for anything that could escape the workspace. */
export function safeRelativePath(p: string): string {
  if (p.length === 0 || p.includes("\0") || p.includes("\\") || p.startsWith("/"))
    throw new UnsafePathError(p);
  const norm = path.posix.normalize(p);
  if (norm === "." || norm.startsWith("../") || norm === ".." || path.posix.isAbsolute(norm)) {
    throw new UnsafePathError(p);
  }
  return norm.replace(/\/$/, "");
}

interface Entry {
  name: string;
  kind: "file" | "dir" | "symlink";
  mode: number;
  /** Host path to read (file entries from `dir`). */
  source?: string;
  content?: Uint8Array;
  linkname?: string;
}

async function walk(root: string, rel: string, out: Entry[]): Promise<void> {
  const dirents = await readdir(path.join(root, rel), { withFileTypes: true });
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const d of dirents) {
    const childRel = rel ? `${rel}/${d.name}` : d.name;
    const abs = path.join(root, childRel);
    if (d.isSymbolicLink()) {
      out.push({ name: childRel, kind: "symlink", mode: 0o777, linkname: await readlink(abs) });
    } else if (d.isDirectory()) {
      if (SKIPPED_DIRS.has(d.name)) continue;
      out.push({ name: childRel, kind: "dir", mode: 0o755 });
      await walk(root, childRel, out);
    } else if (d.isFile()) {
      // The mode is read with the content (one open + fstat), not here: 20k extra lstat calls add up.
      out.push({ name: childRel, kind: "file", mode: 0o644, source: abs });
    }
    // Sockets, FIFOs and devices are not copied.
  }
}

/** List the entries of an input tree: `dir` first, then inline `files` (which win), minus `remove`. */
export async function listInput(input: SandboxInput | undefined): Promise<Entry[]> {
  const byName = new Map<string, Entry>();
  if (input?.dir) {
    const st = await lstat(input.dir).catch(() => null);
    if (!st?.isDirectory()) {
      throw new RetraceError("usage", `sandbox input directory not found: ${input.dir}`, {
        hint: "pass an existing directory as input.dir",
      });
    }
    const entries: Entry[] = [];
    await walk(input.dir, "", entries);
    for (const e of entries) byName.set(e.name, e);
  }
  for (const [name, content] of Object.entries(input?.files ?? {})) {
    const rel = safeRelativePath(name);
    // Parent directories of inline files.
    const parts = rel.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      const existing = byName.get(dir);
      if (existing && existing.kind !== "dir") byName.delete(dir);
      if (!byName.has(dir)) byName.set(dir, { name: dir, kind: "dir", mode: 0o755 });
    }
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    byName.set(rel, { name: rel, kind: "file", mode: 0o644, content: bytes });
  }
  for (const name of input?.remove ?? []) {
    const rel = safeRelativePath(name);
    for (const key of [...byName.keys()]) {
      if (key === rel || key.startsWith(`${rel}/`)) byName.delete(key);
    }
  }
  return [...byName.values()];
}

/** A tar stream of the input tree (plus extra files such as stdin), ready to stream into a container. */
export function packInput(entries: Entry[], extra: Record<string, Uint8Array> = {}): Readable {
  const pack = tar.pack();
  // Read ahead a window of files so disk reads overlap with packing (a 20k-file tree is mostly small reads).
  const WINDOW = 64;
  const reads = new Map<number, Promise<{ content: Uint8Array; mode: number }>>();
  const readAt = (i: number) => {
    const e = entries[i];
    if (e?.kind === "file" && e.content === undefined && !reads.has(i)) reads.set(i, readWithMode(e.source!));
  };
  (async () => {
    for (let i = 0; i < Math.min(WINDOW, entries.length); i++) readAt(i);
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      readAt(i + WINDOW);
      if (e.kind === "dir") {
        await entry(pack, { name: e.name, type: "directory", mode: e.mode });
      } else if (e.kind === "symlink") {
        await entry(pack, { name: e.name, type: "symlink", linkname: e.linkname ?? "", mode: 0o777 });
      } else {
        const { content, mode } = e.content ? { content: e.content, mode: e.mode } : await reads.get(i)!;
        reads.delete(i);
        await entry(pack, { name: e.name, type: "file", mode, size: content.length }, content);
      }
    }
    for (const [name, content] of Object.entries(extra)) {
      await entry(pack, { name, type: "file", mode: 0o600, size: content.length }, content);
    }
    pack.finalize();
  })().catch((error: unknown) => pack.destroy(error instanceof Error ? error : new Error(String(error))));
  return pack as unknown as Readable;
}

async function readWithMode(file: string): Promise<{ content: Uint8Array; mode: number }> {
  const handle = await open(file, "r");
  try {
    const st = await handle.stat();
    return { content: await handle.readFile(), mode: st.mode & 0o111 ? 0o755 : 0o644 };
  } finally {
    await handle.close();
  }
}

function entry(
  pack: tar.Pack,
  header: Partial<tar.Header> & { name: string },
  content?: Uint8Array,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const cb = (err?: Error | null) => (err ? reject(err) : resolve());
    if (content === undefined) pack.entry(header, cb);
    else pack.entry(header, Buffer.from(content.buffer, content.byteOffset, content.byteLength), cb);
  });
}

/**
 * Read a tar stream of collected files. Only regular files come back (links, devices are dropped), keyed by
 * their validated workspace-relative path; reading stops at `maxBytes` in total.
 */
export async function unpackCollected(
  stream: Readable,
  maxBytes: number,
): Promise<Record<string, Uint8Array>> {
  const extract = tar.extract();
  const files: Record<string, Uint8Array> = {};
  let total = 0;
  const done = new Promise<void>((resolve, reject) => {
    extract.on("entry", (header, body, next) => {
      const chunks: Buffer[] = [];
      body.on("data", (c: unknown) => {
        if (!Buffer.isBuffer(c)) return;
        total += c.length;
        if (total <= maxBytes) chunks.push(c);
      });
      body.on("end", () => {
        if (header.type === "file" && total <= maxBytes) {
          try {
            files[safeRelativePath(header.name.replace(/^\.\//, ""))] = Buffer.concat(chunks);
          } catch {
            // A name that would escape the workspace is dropped, never written anywhere.
          }
        }
        next();
      });
      body.resume();
    });
    extract.on("finish", resolve);
    extract.on("error", reject);
  });
  stream.pipe(extract);
  await done;
  return files;
}
