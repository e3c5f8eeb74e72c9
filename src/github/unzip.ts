/**
 * Read the files of a zip archive (Actions artifacts are zips). Stored and deflated entries only, which is
 * what GitHub produces; sizes are capped so a hostile artifact cannot exhaust memory.
 */
import { inflateRawSync } from "node:zlib";
import { RetraceError } from "../core/errors.ts";

export class ArchiveError extends RetraceError {
  constructor(message: string) {
    super("github", message, {
      hint: "the artifact is not a zip Retrace wrote; re-run the Retrace workflow",
    });
  }
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * A name Retrace's own upload writes: a relative path of plain segments (no `.`, `..`, empty segment, backslash,
 * control character or leading slash). Anything else names a file two ways for different readers (`./result.json`
 * and `result.json` are one file to every extractor, two keys here).
 */
function plainName(name: string): boolean {
  return (
    name !== "" &&
    !/[\\\u0000-\u001f\u007f]/.test(name) &&
    name.split("/").every((part) => part !== "" && part !== "." && part !== "..")
  );
}

/**
 * Files of the archive, keyed by path. Directories are skipped. One file is named one way (twenty-first red team):
 * a name that is not plain, a name given twice (the last entry won silently: `FIXED` behind `NOT_FIXED`), or a
 * central-directory name that is not its local header's (read as `result.json`, extracted as `notes.txt`) is refused.
 */
export function unzip(
  data: Uint8Array,
  limits = { maxFiles: 100, maxBytes: 20 * 1024 * 1024 },
): Map<string, Uint8Array> {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0)
    throw new ArchiveError("the artifact is not a zip archive (no end-of-central-directory record)");
  const count = buf.readUInt16LE(eocd + 10);
  let offset = buf.readUInt32LE(eocd + 16);
  if (count > limits.maxFiles)
    throw new ArchiveError(`the artifact holds ${count} files; at most ${limits.maxFiles} are read`);
  const files = new Map<string, Uint8Array>();
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (offset + 46 > buf.length || buf.readUInt32LE(offset) !== CENTRAL)
      throw new ArchiveError("corrupt zip central directory");
    const method = buf.readUInt16LE(offset + 10);
    const compressed = buf.readUInt32LE(offset + 20);
    const size = buf.readUInt32LE(offset + 24);
    const nameLen = buf.readUInt16LE(offset + 28);
    const extraLen = buf.readUInt16LE(offset + 30);
    const commentLen = buf.readUInt16LE(offset + 32);
    const local = buf.readUInt32LE(offset + 42);
    const name = buf.subarray(offset + 46, offset + 46 + nameLen).toString("utf8");
    offset += 46 + nameLen + extraLen + commentLen;
    if (name.endsWith("/")) continue;
    if (!plainName(name))
      throw new ArchiveError(`zip entry ${JSON.stringify(name)} is not a plain relative name`);
    if (files.has(name)) throw new ArchiveError(`zip entry ${JSON.stringify(name)} appears more than once`);
    total += size;
    if (total > limits.maxBytes)
      throw new ArchiveError(`the artifact unpacks to more than ${limits.maxBytes} bytes`);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL)
      throw new ArchiveError(`corrupt zip entry ${name}`);
    const localNameLen = buf.readUInt16LE(local + 26);
    if (buf.subarray(local + 30, local + 30 + localNameLen).toString("utf8") !== name)
      throw new ArchiveError(`zip entry ${JSON.stringify(name)} has another name in its local header`);
    const start = local + 30 + localNameLen + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + compressed);
    let content: Buffer;
    if (method === 0) content = raw;
    else if (method === 8) {
      try {
        content = inflateRawSync(raw, { maxOutputLength: Math.max(size, 1) });
      } catch (error) {
        // zlib says "Cannot create a Buffer larger than N bytes" (it inflates past its declared size: a bomb)
        // or names a corruption; either way the entry is named here.
        throw new ArchiveError(
          (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE"
            ? `zip entry ${JSON.stringify(name)} inflates to more than its declared ${size} bytes`
            : `zip entry ${JSON.stringify(name)} does not inflate: ${(error as Error).message}`,
        );
      }
    } else
      throw new ArchiveError(
        `zip entry ${name} uses compression method ${method}; only stored and deflate are read`,
      );
    if (content.length !== size) throw new ArchiveError(`zip entry ${name} has the wrong size`);
    files.set(name, new Uint8Array(content));
  }
  return files;
}
