/**
 * Build gzipped tarballs the way GitHub's `GET /repos/{owner}/{repo}/tarball/{ref}` serves them: one
 * top-level directory `<owner>-<repo>-<sha7>/`, a pax global header carrying the commit, then the entries.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import tar from "tar-stream";

export interface TarEntry {
  name: string;
  type?: "file" | "directory" | "symlink" | "link" | "fifo";
  content?: string | Uint8Array;
  mode?: number;
  linkname?: string;
  /** Declared size, when a test lies about it. */
  size?: number;
}

/** A tar.gz of raw entries (names taken as given: tests use this to build hostile archives). */
export async function tarGz(entries: TarEntry[], globalComment?: string): Promise<Uint8Array> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c) => {
    chunks.push(c as Buffer);
  });
  const done = new Promise<void>((ok, fail) => {
    pack.on("end", () => ok());
    pack.on("error", fail);
  });
  const add = (header: Parameters<typeof pack.entry>[0], body?: string | Uint8Array) =>
    new Promise<void>((ok, fail) => {
      const cb = (err?: Error | null) => (err ? fail(err) : ok());
      if (body === undefined) pack.entry(header, cb);
      else pack.entry(header, body, cb);
    });
  if (globalComment !== undefined) {
    // tar-stream writes pax global headers, but its types do not list the entry type.
    const header = { name: "pax_global_header", type: "pax-global-header", pax: { comment: globalComment } };
    await add(header as unknown as Parameters<typeof pack.entry>[0]);
  }
  for (const e of entries) {
    const type = e.type ?? "file";
    await add(
      {
        name: e.name,
        type,
        mode: e.mode ?? (type === "directory" ? 0o755 : 0o644),
        ...(e.linkname !== undefined ? { linkname: e.linkname } : {}),
        ...(e.size !== undefined ? { size: e.size } : {}),
      },
      type === "file" ? (e.content ?? "") : undefined,
    );
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

/** GitHub's tarball of a directory tree at a commit. */
export async function repoTarball(dir: string, fullName: string, sha: string): Promise<Uint8Array> {
  const top = `${fullName.replace("/", "-")}-${sha.slice(0, 7)}`;
  const entries: TarEntry[] = [{ name: `${top}/`, type: "directory" }];
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs).sort()) {
      if (name === "__pycache__" || name === ".pytest_cache") continue;
      const childAbs = path.join(abs, name);
      const childRel = rel ? `${rel}/${name}` : name;
      if (statSync(childAbs).isDirectory()) {
        entries.push({ name: `${top}/${childRel}/`, type: "directory" });
        walk(childAbs, childRel);
      } else {
        entries.push({ name: `${top}/${childRel}`, content: readFileSync(childAbs) });
      }
    }
  };
  walk(dir, "");
  return tarGz(entries, sha);
}
