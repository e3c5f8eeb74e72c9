/**
 * Turning an input tree into a tar stream, and a tar stream of collected files back into buffers.
 * Symlinks are never followed: in, a link is packed as a link (its target text only); out, only regular
 * files come back. Paths are validated so nothing lands outside the workspace.
 */
import { spawn } from "node:child_process";
import { hostSpawnPath } from "../core/host-path.ts";
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open, readdir } from "node:fs/promises";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import tar from "tar-stream";
import { parseDocument } from "yaml";
import { RetraceError } from "../core/errors.ts";
import { isProblem, tidyRepoPath } from "../core/repo-path.ts";
import type { ExtraDir, SandboxInput } from "../core/ports/sandbox.ts";

/** Directories never copied into the sandbox: VCS metadata is not needed to run code and is often large. */
const SKIPPED_DIRS = [".git", ".hg", ".svn"];

export class UnsafePathError extends RetraceError {
  constructor(p: string) {
    super("usage", `unsafe path in sandbox input: ${JSON.stringify(p)}`, {
      hint: "paths must be relative, use '/', and stay inside the workspace (no '..', no absolute paths)",
    });
  }
}

/**
 * A workspace-relative path under the one rule of src/core/repo-path.ts (docs/paths.md), tidied (`a/./b/` →
 * `a/b`); throws for anything the rule refuses (`..`, absolute, NUL, backslash, `.git` in any case, …).
 */
export function safeRelativePath(p: string): string {
  const r = tidyRepoPath(p);
  if (isProblem(r)) throw new UnsafePathError(p);
  return r;
}

export interface Entry {
  name: string;
  kind: "file" | "dir" | "symlink";
  mode: number;
  content?: Uint8Array;
  /** A symlink's target (only the sandbox driver's own links: a read-only mount's entries, docker.ts). */
  target?: string;
}

/** A validated input tree: the host directory (packed by the host's tar), inline files, paths to remove. */
export interface PreparedInput {
  dir: string | null;
  /** Inline files and their parent directories, in the order they are packed. */
  inline: Entry[];
  /** Validated workspace-relative paths removed after extraction. */
  remove: string[];
  /** Host directories (validated to exist) and their validated entries, packed after `dir`. */
  extraDirs: ExtraDir[];
}

/** Largest `node_modules/.modules.yaml` read for pnpm's store directory. */
const MAX_MODULES_YAML_BYTES = 1024 * 1024;

interface LinkedFile {
  /** The first name of the file met in the checkout. */
  rel: string;
  dev: number;
  ino: number;
  nlink: number;
  /** How many of its names are inside the checkout. */
  names: number;
}

/** The absolute `storeDir` a pnpm install recorded in `node_modules/.modules.yaml`, if any. */
async function pnpmStoreDir(file: string): Promise<string | null> {
  let handle: Awaited<ReturnType<typeof open>> | null = null;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = await handle.stat();
    if (!st.isFile() || st.size > MAX_MODULES_YAML_BYTES) return null;
    const doc = parseDocument(await handle.readFile("utf8"));
    const dir = doc.get("storeDir");
    return typeof dir === "string" && path.isAbsolute(dir) ? path.normalize(dir) : null;
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}

/**
 * Whether a hard-linked file is a name of an entry of a pnpm content-addressed store: the store keeps each file
 * at `<storeDir>/files/<first 2 hex>/<rest of the sha512 hex of its content>` (`-exec` for executables), and
 * pnpm hard-links it into `node_modules/.pnpm`. The check is by content and inode: the file's own sha512
 * names a store entry that is the very same inode. A host file (a key, a password database) is not at the path
 * its own hash names in any store, whatever `.modules.yaml` says the store is.
 */
async function isPnpmStoreEntry(abs: string, f: LinkedFile, storeDirs: Set<string>): Promise<boolean> {
  if (storeDirs.size === 0) return false;
  let handle: Awaited<ReturnType<typeof open>> | null = null;
  let hex: string;
  try {
    handle = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = await handle.stat();
    if (!st.isFile() || st.dev !== f.dev || st.ino !== f.ino) return false;
    const hash = createHash("sha512");
    for await (const chunk of handle.createReadStream({ autoClose: false })) hash.update(chunk as Buffer);
    hex = hash.digest("hex");
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
  for (const store of storeDirs) {
    for (const suffix of ["", "-exec"]) {
      const st = await lstat(path.join(store, "files", hex.slice(0, 2), `${hex.slice(2)}${suffix}`)).catch(
        () => null,
      );
      if (st?.isFile() && st.dev === f.dev && st.ino === f.ino) return true;
    }
  }
  return false;
}

/**
 * The first regular file of `dir` (outside VCS metadata) that is a hard link whose content may not be the
 * checkout's: a hard link can be a second name of a host file (a checkout unpacked from someone's archive can
 * hold one; git never checks one out), and the host `tar` would copy that file's content into the sandbox.
 *
 * - Outside `node_modules`, any file with more than one name is one.
 * - Inside `node_modules`, where package managers hard-link by design, a file passes when every one of its names
 *   is inside the checkout, or when it is an entry of the pnpm store its install recorded (`isPnpmStoreEntry`:
 *   by content hash and inode, so a link to a host file never passes). Any other hard link (a host file, a
 *   store that is not content-addressed) is one.
 *
 * Trees with more than `maxEntries` entries are not searched past that count.
 */
export async function findHardLink(dir: string, maxEntries = 500_000): Promise<string | null> {
  let seen = 0;
  const linked = new Map<string, LinkedFile>();
  const storeDirs = new Set<string>();
  const walk = async (rel: string, inModules: boolean): Promise<string | null> => {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
    const files: string[] = [];
    const dirs: string[] = [];
    for (const e of entries) {
      if (++seen > maxEntries) break;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.includes(e.name)) dirs.push(child);
      } else if (e.isFile()) {
        files.push(child);
        if (e.name === ".modules.yaml" && path.posix.basename(rel) === "node_modules") {
          const store = await pnpmStoreDir(path.join(dir, child));
          if (store) storeDirs.add(store);
        }
      }
    }
    const stats = await Promise.all(files.map((f) => lstat(path.join(dir, f)).catch(() => null)));
    for (const [i, st] of stats.entries()) {
      if (!st?.isFile() || st.nlink <= 1) continue;
      const child = files[i]!;
      if (!inModules) return child;
      const key = `${st.dev}:${st.ino}`;
      const known = linked.get(key);
      if (known) known.names++;
      else linked.set(key, { rel: child, dev: st.dev, ino: st.ino, nlink: st.nlink, names: 1 });
    }
    // Sibling directories are walked together (the file system answers several at once); the first hit in
    // listing order is reported.
    const hits = await Promise.all(
      dirs.map((d) => walk(d, inModules || path.posix.basename(d) === "node_modules")),
    );
    return hits.find((h) => h !== null) ?? null;
  };
  const hit = await walk("", false);
  if (hit) return hit;
  for (const f of linked.values()) {
    if (f.names >= f.nlink) continue;
    if (!(await isPnpmStoreEntry(path.join(dir, f.rel), f, storeDirs))) return f.rel;
  }
  return null;
}

/** Validate an input tree before any container exists: the directory exists, every path stays inside. */
export async function prepareInput(input: SandboxInput | undefined): Promise<PreparedInput> {
  if (input?.dir) {
    const st = await lstat(input.dir).catch(() => null);
    if (!st?.isDirectory()) {
      throw new RetraceError("usage", `sandbox input directory not found: ${input.dir}`, {
        hint: "pass an existing directory as input.dir",
      });
    }
    const linked = await findHardLink(input.dir);
    if (linked !== null) {
      throw new RetraceError(
        "usage",
        `${linked} in ${input.dir} is a hard link (a second name of a file that may be outside the checkout); it is not copied into the sandbox`,
        {
          hint: /(^|\/)node_modules\//.test(linked)
            ? "inside node_modules only the links of a pnpm store are kept: reinstall with copies (pnpm --package-import-method=copy, bun --backend=copyfile) or remove node_modules so Retrace installs the lockfile in its install container"
            : "replace it with an ordinary file (a git checkout never holds hard links)",
        },
      );
    }
  }
  const extraDirs: ExtraDir[] = [];
  for (const extra of input?.extraDirs ?? []) {
    const st = path.isAbsolute(extra.hostDir) ? await lstat(extra.hostDir).catch(() => null) : null;
    if (!st?.isDirectory()) {
      throw new RetraceError("usage", `sandbox extra directory not found: ${extra.hostDir}`, {
        hint: "pass an existing absolute directory as extraDirs[].hostDir",
      });
    }
    if (extra.paths.length === 0) continue;
    extraDirs.push({ hostDir: extra.hostDir, paths: extra.paths.map(safeRelativePath) });
  }
  const inline = new Map<string, Entry>();
  const executable = new Set((input?.executable ?? []).map(safeRelativePath));
  for (const [name, content] of Object.entries(input?.files ?? {})) {
    const rel = safeRelativePath(name);
    const parts = rel.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (!inline.has(dir)) inline.set(dir, { name: dir, kind: "dir", mode: 0o755 });
    }
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    inline.set(rel, { name: rel, kind: "file", mode: executable.has(rel) ? 0o755 : 0o644, content: bytes });
  }
  return {
    dir: input?.dir ?? null,
    inline: [...inline.values()],
    remove: (input?.remove ?? []).map(safeRelativePath),
    extraDirs,
  };
}

/** True when the prepared input puts nothing into the workspace. */
export function isEmptyInput(p: PreparedInput): boolean {
  return p.dir === null && p.inline.length === 0 && p.remove.length === 0 && p.extraDirs.length === 0;
}

/**
 * One stream of concatenated tar archives (extract with `tar -x -i`): the host directory packed by the host's
 * own `tar` (fast for trees of many small files; it stores symlinks as links and never follows them; VCS
 * metadata is skipped), then each extra directory's entries (also by the host's `tar`), then the inline files
 * and `extra` files packed here — later entries win.
 */
export function packInput(prepared: PreparedInput, extra: Record<string, Uint8Array> = {}): Readable {
  const out = new PassThrough();
  const packInline = () => {
    const pack = tar.pack();
    (async () => {
      for (const e of prepared.inline) {
        if (e.kind === "dir") await entry(pack, { name: e.name, type: "directory", mode: e.mode });
        else if (e.kind === "symlink")
          await entry(pack, { name: e.name, type: "symlink", linkname: e.target!, mode: 0o777 });
        else
          await entry(
            pack,
            { name: e.name, type: "file", mode: e.mode, size: e.content!.length },
            e.content!,
          );
      }
      for (const [name, content] of Object.entries(extra)) {
        await entry(pack, { name, type: "file", mode: 0o600, size: content.length }, content);
      }
      pack.finalize();
    })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
    (pack as unknown as Readable).pipe(out);
  };
  const sources: { dir: string; args: string[]; names?: AsyncIterable<Buffer> }[] = [];
  if (prepared.dir !== null) {
    // The names come from our own walk (VCS metadata skipped at any depth), one by one, never from tar's
    // `--exclude`: GNU tar matches an exclude against every entry at a cost that grows with the square of its
    // depth (5,000 files 60 directories deep took 5 s, a 1,000-deep chain never finished), on the host.
    sources.push({
      dir: prepared.dir,
      args: ["-C", prepared.dir, "--no-recursion", "--null", "-T", "-"],
      names: treeNames(prepared.dir),
    });
  }
  for (const e of prepared.extraDirs)
    sources.push({ dir: e.hostDir, args: ["-C", e.hostDir, "--", ...e.paths] });
  // The host tar writing right now. Whoever stops reading (a copy-in that failed, timed out or was cancelled)
  // destroys the stream; the child must die with it, or it blocks on a full pipe and keeps Retrace alive.
  let current: ReturnType<typeof spawn> | null = null;
  out.on("close", () => {
    if (current !== null && current.exitCode === null && current.signalCode === null) current.kill("SIGKILL");
  });
  const packHost = (i: number) => {
    const source = sources[i];
    if (out.destroyed) return;
    if (source === undefined) {
      current = null;
      packInline();
      return;
    }
    // Never a `tar` of the directory being packed or of the process's working directory (src/core/host-path.ts).
    const child = spawn("tar", ["-c", "-f", "-", ...source.args], {
      env: tarEnv(source.dir),
      stdio: [source.names ? "pipe" : "ignore", "pipe", "pipe"],
    });
    current = child;
    if (source.names && child.stdin) void feedNames(child.stdin, source.names);
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => {
      if (stderr.length < 4096) stderr += c.toString();
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      out.destroy(
        new RetraceError(
          "infrastructure",
          `cannot pack ${source.dir} with the host's tar: ${error.message}`,
          {
            hint: error.code === "ENOENT" ? "install tar (GNU or bsdtar) on this host" : undefined,
          },
        ),
      ),
    );
    child.stdout!.pipe(out, { end: false });
    child.on("close", (code) => {
      // 1 means "some files changed while being read": the copy is still complete enough to run.
      if (code === 0 || code === 1) packHost(i + 1);
      else
        out.destroy(
          new RetraceError("sandbox", `packing ${source.dir} failed (tar exit ${code}): ${stderr.trim()}`),
        );
    });
  };
  packHost(0);
  return out;
}

/**
 * The environment of the host's `tar` (issue 14): nothing of the host's but PATH (src/core/host-path.ts, without
 * `dir`), HOME and a fixed locale, as git's (src/git/run-git.ts). GNU tar reads `TAR_OPTIONS` as options (an
 * `--exclude` drops files from the copy, `--checkpoint-action=exec=` runs a program), and the process's tokens are
 * no business of a packer.
 */
export function tarEnv(dir: string): Record<string, string> {
  return {
    PATH: hostSpawnPath([dir]),
    HOME: process.env.HOME ?? "/nonexistent",
    LANG: "C",
    LC_ALL: "C",
  };
}

/**
 * Every name under `dir` for `tar --no-recursion -T -`, NUL-terminated, each directory before what it holds,
 * VCS metadata (`.git`, `.hg`, `.svn`, any type, any depth) skipped; `./` first, so no name reads as an option.
 * Names are bytes, as the file system holds them (a name that is not UTF-8 is packed as it is). Iterative: a
 * deep tree costs no stack. Links are listed, never followed.
 */
export async function* treeNames(dir: string): AsyncGenerator<Buffer> {
  const root = Buffer.from(`${dir}/`);
  const slash = Buffer.from("/");
  const nul = Buffer.from([0]);
  const skipped = SKIPPED_DIRS.map((d) => Buffer.from(d));
  const stack: Buffer[] = [Buffer.from(".")];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    yield Buffer.concat([rel, nul]);
    const abs = Buffer.concat([root, rel]);
    if (rel.length > 1 && !(await lstat(abs).catch(() => null))?.isDirectory()) continue;
    const entries = await readdir(abs, { withFileTypes: true, encoding: "buffer" }).catch(() => []);
    const children: Buffer[] = [];
    for (const e of entries) {
      if (skipped.some((d) => d.equals(e.name))) continue;
      const child = Buffer.concat([rel, slash, e.name]);
      if (e.isDirectory()) children.push(child);
      else yield Buffer.concat([child, nul]);
    }
    // Reversed: the stack then gives the directories in listing order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

async function feedNames(stdin: NodeJS.WritableStream, names: AsyncIterable<Buffer>): Promise<void> {
  stdin.on("error", () => {});
  try {
    for await (const name of names) {
      if (!stdin.write(name)) await new Promise<void>((ok) => stdin.once("drain", () => ok()));
    }
  } catch {
    // The walk failed (the tree changed): tar packs what it was given; the copy-in says what is missing.
  } finally {
    stdin.end();
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

export interface Collected {
  files: Record<string, Uint8Array>;
  /** Files not brought back: the total passed the cap while they were read. */
  tooLarge: string[];
}

/**
 * Read a tar stream of collected files. Only regular files come back (links, devices are dropped), keyed by
 * their validated workspace-relative path. Reading stops at `maxBytes` in total: the file being read then and
 * every later one are named in `tooLarge`, and the rest of the stream is discarded unread (the source is
 * destroyed), so a huge file costs the host neither memory nor the time to drain it.
 */
export async function unpackCollected(stream: Readable, maxBytes: number): Promise<Collected> {
  const extract = tar.extract();
  const files: Record<string, Uint8Array> = {};
  const tooLarge: string[] = [];
  let total = 0;
  const done = new Promise<void>((resolve, reject) => {
    extract.on("entry", (header, body, next) => {
      const chunks: Buffer[] = [];
      const name = header.name.replace(/^\.\//, "");
      let over = false;
      body.on("data", (c: unknown) => {
        if (!Buffer.isBuffer(c) || over) return;
        total += c.length;
        if (total <= maxBytes) {
          chunks.push(c);
          return;
        }
        // Past the cap: keep nothing more, stop reading the stream.
        over = true;
        chunks.length = 0;
        if (header.type === "file") tooLarge.push(name);
        stream.unpipe(extract);
        stream.destroy();
        extract.destroy();
        resolve();
      });
      body.on("end", () => {
        if (header.type === "file" && !over) {
          try {
            files[safeRelativePath(name)] = Buffer.concat(chunks);
          } catch {
            // A name that would escape the workspace is dropped, never written anywhere.
          }
        }
        next();
      });
      body.resume();
    });
    extract.on("finish", resolve);
    extract.on("error", (error) => (total > maxBytes ? resolve() : reject(error)));
  });
  stream.pipe(extract);
  await done;
  return { files, tooLarge };
}
