/**
 * A git-aware unified diff parser for the gate. The `diff` package's parsePatch reads hunks well but skips
 * what it does not know (a `GIT binary patch` body is read as headers and `isBinary` stays false, a format-patch
 * signature `-- ` throws, CR stays in names), and the gate must see everything a tool could apply. So this
 * parser is strict: every line is either preamble/commentary outside a file, a known git extended header, a
 * file header, or a counted hunk line; anything else is a parse error. parsePatch is then run as a second
 * reader (cross-check) and any disagreement about files or line counts is reported.
 */
import { parsePatch } from "diff";
import { RetraceError } from "../core/errors.ts";
import { isDevNull, readHeaderName, splitGitHeader, stripPrefix } from "./git-path.ts";
import type { FileChange, FileStatus, HeaderPath, Hunk, ParsedPatch } from "./types.ts";

/** The patch text is not a diff the gate can read. */
export class PatchParseError extends RetraceError {
  readonly line: number | null;
  constructor(message: string, line: number | null) {
    super("patch", line === null ? message : `line ${line}: ${message}`, {
      hint: "give a unified diff as produced by `git diff` or `diff -u`",
    });
    this.line = line;
  }
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;
const MODE = "(\\d{6})";

interface Section {
  file: Omit<FileChange, "path" | "status" | "oldPath" | "newPath">;
  rename: boolean;
  copy: boolean;
  created: boolean;
  deleted: boolean;
  sawFileHeaders: boolean;
  /** Mode from an `index <a>..<b> <mode>` line (unchanged mode). */
  indexMode: string | null;
}

export function parseUnifiedDiff(text: string): ParsedPatch {
  const crlf = /\r\n/.test(text);
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();

  const sections: Section[] = [];
  let current: Section | null = null;
  let i = 0;
  /** Index (exclusive) of the last line that belongs to the diff proper; the rest is a trailer. */
  let end = lines.length;

  const fail = (message: string, at: number): never => {
    throw new PatchParseError(message, at + 1);
  };
  const startSection = (at: number, isGit: boolean): Section => {
    const s: Section = {
      file: {
        oldMode: null,
        newMode: null,
        binary: false,
        isGit,
        headerPaths: [],
        hunks: [],
        patchLine: at + 1,
      },
      rename: false,
      copy: false,
      created: false,
      deleted: false,
      sawFileHeaders: false,
      indexMode: null,
    };
    sections.push(s);
    return s;
  };

  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith("diff --git ")) {
      current = startSection(i, true);
      const names = splitGitHeader(line.slice("diff --git ".length));
      if (names === null)
        fail(
          `cannot read the file names of \`${line}\` (a quoted name is malformed, or its octal bytes are not UTF-8)`,
          i,
        );
      current.file.headerPaths.push(
        { source: "diff --git old", raw: names!.oldRaw, path: stripPrefix(names!.oldRaw, "a/") },
        { source: "diff --git new", raw: names!.newRaw, path: stripPrefix(names!.newRaw, "b/") },
      );
      i = readExtendedHeaders(lines, i + 1, current, fail);
      continue;
    }
    if (line.startsWith("diff --cc ") || line.startsWith("diff --combined ")) {
      fail("combined (merge) diffs cannot be applied; give a diff against one parent", i);
    }
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      if (
        current === null ||
        current.sawFileHeaders ||
        !current.file.isGit ||
        current.file.hunks.length > 0
      ) {
        current = startSection(i, false);
      }
      readFileHeaders(line, lines[i + 1]!, current, i, fail);
      i += 2;
      continue;
    }
    if (line.startsWith("@@")) {
      if (current === null || !current.sawFileHeaders) fail("hunk without `---`/`+++` file headers", i);
      const { hunk, next } = readHunk(lines, i, fail);
      current!.file.hunks.push(hunk);
      i = next;
      continue;
    }
    if (line === "-- " && current !== null) {
      // git format-patch signature: everything after it is the trailer (git version). git apply does not stop
      // here, though: a diff after the signature would be applied without the gate having read it.
      const smuggled = lines.findIndex((l, j) => j > i && /^(diff --git |--- |\+\+\+ |@@ )/.test(l));
      if (smuggled !== -1) {
        fail(
          "diff lines follow the `-- ` signature (git apply would apply them); give one patch without a signature, or one patch per file",
          smuggled,
        );
      }
      end = i;
      break;
    }
    if (current !== null && current.file.hunks.length > 0 && /^[-+ \\]/.test(line)) {
      fail(`\`${truncate(line)}\` follows a hunk that is already complete (hunk line counts are wrong)`, i);
    }
    // Anything else is commentary: a format-patch preamble, `Index:`/`====` lines, `Only in …` from diff -r.
    i += 1;
  }

  if (sections.length === 0)
    throw new PatchParseError("the patch changes no file (no `diff --git` or `---`/`+++` headers)", null);

  const files = sections.map((s) => finishSection(s));
  const disagreements = crossCheck(lines.slice(0, end).join("\n"), files);
  return { files, crlf, disagreements };
}

const OLD_MODE = new RegExp(`^old mode ${MODE}$`);
const NEW_MODE = new RegExp(`^new mode ${MODE}$`);
const NEW_FILE_MODE = new RegExp(`^new file mode ${MODE}$`);
const DELETED_FILE_MODE = new RegExp(`^deleted file mode ${MODE}$`);
const INDEX_LINE = new RegExp(`^index [0-9a-f]+\\.\\.[0-9a-f]+(?: ${MODE})?$`);
const RENAME_COPY = /^(rename|copy) (from|to) (.*)$/;
const BASE85_LINE = /^[A-Za-z][0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]*$/;

/** Reads one extended header line into the section; false when the line is not one. */
function readExtendedHeader(
  l: string,
  s: Section,
  at: number,
  fail: (m: string, at: number) => never,
): boolean {
  const oldMode = OLD_MODE.exec(l);
  if (oldMode) {
    s.file.oldMode = oldMode[1]!;
    return true;
  }
  const newMode = NEW_MODE.exec(l);
  if (newMode) {
    s.file.newMode = newMode[1]!;
    return true;
  }
  const created = NEW_FILE_MODE.exec(l);
  if (created) {
    s.file.newMode = created[1]!;
    s.created = true;
    return true;
  }
  const deleted = DELETED_FILE_MODE.exec(l);
  if (deleted) {
    s.file.oldMode = deleted[1]!;
    s.deleted = true;
    return true;
  }
  const moved = RENAME_COPY.exec(l);
  if (moved) {
    const raw = readHeaderName(moved[3]!);
    if (raw === null) fail(`cannot read the file name of \`${truncate(l)}\``, at);
    s.file.headerPaths.push({
      source: `${moved[1]} ${moved[2]}` as HeaderPath["source"],
      raw: raw!,
      path: raw!,
    });
    if (moved[1] === "rename") s.rename = true;
    else s.copy = true;
    return true;
  }
  const index = INDEX_LINE.exec(l);
  if (index) {
    if (index[1] !== undefined) s.indexMode = index[1];
    return true;
  }
  if (/^Binary files .* differ$/.test(l)) {
    s.file.binary = true;
    return true;
  }
  // Informational headers, and a blank line between a header-only section and the next one.
  return /^(similarity|dissimilarity) index \d{1,3}%$/.test(l) || l === "";
}

function readExtendedHeaders(
  lines: string[],
  start: number,
  s: Section,
  fail: (m: string, at: number) => never,
): number {
  let i = start;
  while (i < lines.length) {
    const l = lines[i]!;
    if (l.startsWith("--- ") || l.startsWith("@@") || l.startsWith("diff ")) return i;
    if (l === "GIT binary patch") {
      s.file.binary = true;
      // literal/delta blocks of base85 lines, each ended by an empty line, until the next file.
      for (i += 1; i < lines.length && !lines[i]!.startsWith("diff "); i++) {
        const b = lines[i]!;
        if (b !== "" && !/^(literal|delta) \d+$/.test(b) && !BASE85_LINE.test(b)) {
          fail(`unexpected line in a GIT binary patch: \`${truncate(b)}\``, i);
        }
      }
      return i;
    }
    if (!readExtendedHeader(l, s, i, fail)) {
      fail(`unknown line in the extended header of a git diff: \`${truncate(l)}\``, i);
    }
    i += 1;
  }
  return i;
}

function readFileHeaders(
  minus: string,
  plus: string,
  s: Section,
  at: number,
  fail: (m: string, at: number) => never,
) {
  const oldRaw = readHeaderName(minus.slice(4));
  const newRaw = readHeaderName(plus.slice(4));
  if (oldRaw === null) fail(`cannot read the file name of \`${truncate(minus)}\``, at);
  if (newRaw === null) fail(`cannot read the file name of \`${truncate(plus)}\``, at + 1);
  s.file.headerPaths.push(
    { source: "---", raw: oldRaw!, path: isDevNull(oldRaw!) ? null : stripPrefix(oldRaw!, "a/") },
    { source: "+++", raw: newRaw!, path: isDevNull(newRaw!) ? null : stripPrefix(newRaw!, "b/") },
  );
  s.sawFileHeaders = true;
  if (isDevNull(oldRaw!)) s.created = true;
  if (isDevNull(newRaw!)) s.deleted = true;
}

function readHunk(
  lines: string[],
  start: number,
  fail: (m: string, at: number) => never,
): { hunk: Hunk; next: number } {
  const header = lines[start]!;
  const m = HUNK_HEADER.exec(header);
  if (!m) fail(`malformed hunk header \`${truncate(header)}\``, start);
  const oldLines = m![2] === undefined ? 1 : Number(m![2]);
  const newLines = m![4] === undefined ? 1 : Number(m![4]);
  const oldStart = Number(m![1]);
  const newStart = Number(m![3]);
  const hunk: Hunk = {
    oldStart,
    oldLines,
    newStart,
    newLines,
    heading: m![5]!.trim(),
    lines: [],
    patchLine: start + 1,
  };
  // A zero-length side starts one line before where its lines would be.
  let oldNo = oldLines === 0 ? oldStart + 1 : oldStart;
  let newNo = newLines === 0 ? newStart + 1 : newStart;
  let oldLeft = oldLines;
  let newLeft = newLines;
  let i = start + 1;
  while (oldLeft > 0 || newLeft > 0) {
    if (i >= lines.length)
      fail(`the hunk starting here ends early: ${oldLeft} old and ${newLeft} new lines missing`, start);
    const l = lines[i]!;
    const marker = l[0];
    const text = l.slice(1);
    if (marker === "+" && newLeft > 0) {
      hunk.lines.push({ kind: "add", text, oldLine: null, newLine: newNo++, patchLine: i + 1 });
      newLeft -= 1;
    } else if (marker === "-" && oldLeft > 0) {
      hunk.lines.push({ kind: "del", text, oldLine: oldNo++, newLine: null, patchLine: i + 1 });
      oldLeft -= 1;
    } else if ((marker === " " || l === "") && oldLeft > 0 && newLeft > 0) {
      // An empty line is a context line whose trailing space an editor or mailer stripped.
      hunk.lines.push({ kind: "ctx", text, oldLine: oldNo++, newLine: newNo++, patchLine: i + 1 });
      oldLeft -= 1;
      newLeft -= 1;
    } else if (marker === "\\") {
      // "\ No newline at end of file" belongs to the previous line.
    } else {
      fail(
        `\`${truncate(l)}\` does not fit the hunk at line ${start + 1} (${oldLeft} old and ${newLeft} new lines were still expected)`,
        i,
      );
    }
    i += 1;
  }
  while (i < lines.length && lines[i]!.startsWith("\\")) i += 1;
  return { hunk, next: i };
}

function finishSection(s: Section): FileChange {
  const by = (source: HeaderPath["source"]) => s.file.headerPaths.find((h) => h.source === source);
  const first = <T>(...xs: (T | undefined)[]): T | undefined => xs.find((x) => x !== undefined);
  const oldHeader = first(by("rename from"), by("copy from"), by("---"), by("diff --git old"));
  const newHeader = first(by("rename to"), by("copy to"), by("+++"), by("diff --git new"));
  let oldPath = oldHeader?.path ?? null;
  let newPath = newHeader?.path ?? null;
  if (s.created) oldPath = null;
  if (s.deleted) newPath = null;
  const status: FileStatus = s.created
    ? "added"
    : s.deleted
      ? "deleted"
      : s.rename
        ? "renamed"
        : s.copy
          ? "copied"
          : "modified";
  if (oldPath === null && newPath === null) {
    throw new PatchParseError("a file section names no file (both sides are /dev/null)", s.file.patchLine);
  }
  if (s.created && s.deleted) {
    throw new PatchParseError("a file section both creates and deletes its file", s.file.patchLine);
  }
  const file: FileChange = {
    ...s.file,
    oldPath,
    newPath,
    path: (newPath ?? oldPath)!,
    status,
  };
  if (s.indexMode !== null) {
    file.oldMode ??= s.indexMode;
    file.newMode ??= s.indexMode;
  }
  return file;
}

/**
 * Reads the patch again with the `diff` package (what a Node applier would use) and lists where it sees
 * other files or other line counts. A disagreement means two tools would apply different changes.
 */
function crossCheck(text: string, files: FileChange[]): string[] {
  let theirs: ReturnType<typeof parsePatch>;
  try {
    theirs = parsePatch(text);
  } catch (error) {
    return [`the \`diff\` package cannot read this patch: ${(error as Error).message}`];
  }
  // parsePatch makes an empty entry for a trailing preamble-only chunk; ignore entries with nothing in them.
  const theirFiles = theirs.filter(
    (p) => p.hunks.length > 0 || p.oldFileName !== undefined || p.newFileName !== undefined || p.isGit,
  );
  const out: string[] = [];
  if (theirFiles.length !== files.length) {
    out.push(`the \`diff\` package reads ${theirFiles.length} file(s) where the gate reads ${files.length}`);
    return out;
  }
  files.forEach((mine, k) => {
    const other = theirFiles[k]!;
    const count = (kind: "+" | "-", hunks: { lines: string[] }[]) =>
      hunks.reduce((n, h) => n + h.lines.filter((l) => l[0] === kind).length, 0);
    const myAdds = mine.hunks.reduce((n, h) => n + h.lines.filter((l) => l.kind === "add").length, 0);
    const myDels = mine.hunks.reduce((n, h) => n + h.lines.filter((l) => l.kind === "del").length, 0);
    if (count("+", other.hunks) !== myAdds || count("-", other.hunks) !== myDels) {
      out.push(`${mine.path}: the \`diff\` package counts other added/removed lines than the gate`);
    }
    const theirNew =
      other.newFileName === undefined || isDevNull(other.newFileName)
        ? null
        : stripPrefix(other.newFileName, "b/");
    const theirOld =
      other.oldFileName === undefined || isDevNull(other.oldFileName)
        ? null
        : stripPrefix(other.oldFileName, "a/");
    if (mine.newPath !== null && theirNew !== null && theirNew !== mine.newPath) {
      out.push(`${mine.path}: the \`diff\` package reads the new file name as \`${theirNew}\``);
    }
    if (mine.oldPath !== null && theirOld !== null && theirOld !== mine.oldPath) {
      out.push(`${mine.path}: the \`diff\` package reads the old file name as \`${theirOld}\``);
    }
  });
  return out;
}

function truncate(s: string, max = 80): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
