/**
 * The one patch applier: (base files, unified diff) → the list of file changes the patch makes, each with its
 * path, its new text (or deletion) and its git mode. Verification runs the tests on exactly these changes and
 * every publisher (the draft PR through the GitHub tree API, the CLI's local branch) writes exactly these
 * bytes (the UTF-8 encoding of `content`), so what is published is what was verified.
 *
 * Pure: the base is read through `PatchBase` (a checkout, a commit through the GitHub API, a git tree).
 * Paths follow the one rule of src/core/repo-path.ts. There is no fuzz: every context and removed line must
 * match (a hunk may move by an offset, as with `git apply`). Symlinks, submodules and binary changes are
 * refused: `git apply` refuses to write beyond a symlink, and a text hunk on a link would change the link.
 */
import { applyPatch as applyHunks, parsePatch, type StructuredPatch, type StructuredPatchHunk } from "diff";
import { RetraceError } from "./errors.ts";
import { fileSystemName, isProblem, parseRepoPath, type RepoPath } from "./repo-path.ts";

/** The git modes a published file can have. */
export type FileMode = "100644" | "100755";

/** One file the patch changes: its new text, or null when the patch deletes it. */
export interface FileWrite {
  path: RepoPath;
  /** New full text (written as its UTF-8 bytes); null deletes the path. */
  content: string | null;
  /** Git mode of the new file: the patch's `new mode`/`new file mode`, else the base file's. */
  mode: FileMode;
}

/** Most file sections one patch may hold: the applier's host bound (the policy gate refuses past it too). */
export const MAX_PATCH_FILES = 1_000;

/** The base tree the patch is applied to. */
export interface PatchBase {
  /**
   * Git modes (`100644`, `100755`, `120000` symlink, `160000` submodule, `040000` directory) of those paths
   * that exist at the base; one call with every path the patch touches and every directory on the way.
   */
  modes(paths: readonly RepoPath[]): Promise<ReadonlyMap<string, string>>;
  /** Text of a regular file at the base, or null when there is none. */
  read(path: RepoPath): Promise<string | null>;
  /** Where the base is, for messages: "in the repository", "at ec26c3e57ca3". */
  readonly where: string;
  /**
   * Names in a directory of the base (`""`: the root), or null when there is none. Optional: when given, a name the
   * patch creates is refused if the base holds a different name a file system stores as the same file.
   */
  names?(dir: string): Promise<readonly string[] | null>;
}

/**
 * The name a file system may store a path segment under: NFKC (macOS keeps NFD, fullwidth and ligatures fold),
 * case folded (macOS, Windows), trailing dots and spaces cut and HFS+-ignorable code points dropped (NTFS, HFS+).
 */
export function storedName(segment: string): string {
  return fileSystemName(segment.normalize("NFKC"));
}

/** A patch that does not parse or does not apply to the files it names. */
export class PatchApplyError extends RetraceError {
  /** The repo-relative file the failure is about, when known. */
  readonly file: string | undefined;
  /** 1-based index of the failing hunk within that file, when known. */
  readonly hunk: number | undefined;
  constructor(message: string, details: { file?: string; hunk?: number; hint?: string } = {}) {
    super("patch", message, {
      hint: details.hint ?? "regenerate the patch against the repository's current files (git diff)",
      exitCode: 1,
    });
    this.file = details.file;
    this.hunk = details.hunk;
  }
}

const DEV_NULL = "/dev/null";

interface Section {
  patch: StructuredPatch;
  oldPath: RepoPath | null;
  newPath: RepoPath | null;
}

function sectionPaths(index: StructuredPatch): Section {
  const oldName = index.oldFileName;
  const newName = index.newFileName;
  if (oldName === undefined || newName === undefined) {
    throw new PatchApplyError("a file section of the patch has no ---/+++ file names", {
      hint: "produce the patch with `git diff` or `diff -u` so every section names its file",
    });
  }
  const oldIsNull = oldName === DEV_NULL;
  const newIsNull = newName === DEV_NULL;
  // git (and most tools) prefix a/ and b/; strip them when both sides (or the non-null side) carry them.
  const prefixed =
    (oldIsNull || oldName.startsWith("a/")) &&
    (newIsNull || newName.startsWith("b/")) &&
    !(oldIsNull && newIsNull);
  const clean = (name: string, isNull: boolean): RepoPath | null => {
    if (isNull) return null;
    const bare = prefixed ? name.slice(2) : name;
    // U+FFFD is what a lossy decode leaves of bytes that are not UTF-8 (`"b/\\377.js"`): the file the patch names is
    // not the one that would be written, and two such names are one (wave 20).
    if (bare.includes("\ufffd")) {
      throw new PatchApplyError(
        `the patch names a path that is not UTF-8 text: ${JSON.stringify(name)} (U+FFFD stands for bytes it cannot show)`,
        { file: name, hint: "name files in UTF-8" },
      );
    }
    const parsed = parseRepoPath(bare);
    if (isProblem(parsed)) {
      throw new PatchApplyError(
        `the patch names an invalid path ${JSON.stringify(name)}: the path ${parsed.message}`,
        { file: name, hint: "every path must follow the repository path rule (docs/paths.md)" },
      );
    }
    return parsed;
  };
  return { patch: index, oldPath: clean(oldName, oldIsNull), newPath: clean(newName, newIsNull) };
}

/**
 * A patch whose header lines end in CRLF went through a Windows editor or a mail or web form: git writes its
 * headers with `\n` only, even for files with CRLF lines. Such a patch is read with LF line ends (the
 * applier converts back when the target file uses CRLF throughout). Any other patch is read as written, so a
 * hunk for a file with mixed line ends keeps its `\r`s.
 */
function untransported(patchText: string): string {
  const transported = /^(?:--- |\+\+\+ |@@ |diff --git ).*\r$/m.test(patchText);
  return transported ? patchText.replace(/\r\n/g, "\n") : patchText;
}

/**
 * The first binary change of a patch: a `GIT binary patch` body (`git diff --binary`) or a `Binary files … differ`
 * line, with the file the `diff --git` header above it names. The diff library reads the first as a section with no
 * hunks — a new file would be written empty (red team 28: `patch-binary-literal-new-conftest-py`). Both are header
 * lines: a hunk's lines start with a space, `+`, `-` or `\`, so neither is ever a line of a text hunk.
 */
export function binarySection(patchText: string): { marker: string; file: string } | null {
  let file = "?";
  for (const raw of patchText.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const header = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
    if (header) file = header[2]!;
    else if (line === "GIT binary patch") return { marker: "GIT binary patch", file };
    else if (/^Binary files .* differ$/.test(line)) return { marker: "Binary files … differ", file };
  }
  return null;
}

/** The sections of a patch that change something, with their validated paths. Throws `PatchApplyError`. */
export function parsePatchSections(patchText: string): Section[] {
  if (!patchText.trim())
    throw new PatchApplyError("the patch is empty", { hint: "pass a unified diff (git diff output)" });
  const binary = binarySection(patchText);
  if (binary !== null) {
    throw new PatchApplyError(
      `the patch carries a binary change (${binary.marker}) for ${binary.file}: binary changes cannot be applied from a text diff, and nothing of the patch is applied`,
      { file: binary.file, hint: "send text changes only (git diff without --binary)" },
    );
  }
  let parsed: StructuredPatch[];
  try {
    parsed = parsePatch(untransported(patchText));
  } catch (error) {
    throw new PatchApplyError(`the patch does not parse: ${(error as Error).message}`);
  }
  const sections = parsed.filter(
    (p) =>
      p.hunks.length > 0 || p.isCreate || p.isDelete || p.isRename || p.isBinary || p.oldMode || p.newMode,
  );
  if (sections.length === 0) {
    throw new PatchApplyError("the patch contains no file changes", {
      hint: "pass a unified diff with @@ hunks",
    });
  }
  return sections.map(sectionPaths);
}

/**
 * The first pair of hunks (indexes) whose old-side ranges overlap or run backwards (red team 25: two hunks on the
 * same lines were both applied to the original, and the file written held a context line twice — a result the diff
 * does not describe and `git apply` refuses). `diff` reads a hunk that only inserts (`-N,0`) as starting at line
 * N+1 and covering none: a hunk after it may start at that line, but not a second insertion at the same place.
 */
export function overlappingHunk(hunks: readonly StructuredPatchHunk[]): [number, number] | null {
  for (let i = 1; i < hunks.length; i++) {
    const prev = hunks[i - 1]!;
    const h = hunks[i]!;
    const prevEnd = prev.oldStart + prev.oldLines;
    const sameInsertion = prev.oldLines === 0 && h.oldLines === 0 && h.oldStart === prev.oldStart;
    if (h.oldStart < prevEnd || sameInsertion) return [i - 1, i];
  }
  return null;
}

function hunkHeader(h: StructuredPatchHunk): string {
  return `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
}

/** Finds the first hunk that does not apply, by applying growing prefixes of the hunk list. */
function failingHunk(source: string, index: StructuredPatch): number {
  for (let i = 0; i < index.hunks.length; i++) {
    if (applyHunks(source, { ...index, hunks: index.hunks.slice(0, i + 1) }) === false) return i;
  }
  return index.hunks.length - 1;
}

/** Every directory on the way to `p`, then `p`: `a/b/c` → `a`, `a/b`, `a/b/c`. */
function withParents(p: RepoPath): RepoPath[] {
  const parts = p.split("/");
  return parts.map((_, i) => parts.slice(0, i + 1).join("/") as RepoPath);
}

function modeOfPatch(mode: string | undefined, path: string): FileMode | null {
  if (mode === undefined) return null;
  if (mode === "100644" || mode === "100755") return mode;
  // 644/755 without the file type (some tools) mean the same.
  if (mode === "644" || mode === "755") return mode === "644" ? "100644" : "100755";
  throw new PatchApplyError(`the patch gives ${path} the mode ${mode}; Retrace only writes regular files`, {
    file: path,
    hint: "Retrace writes regular files (100644) and executables (100755) only; no symlinks or submodules",
  });
}

/**
 * Applies `patchText` to `base`: the changes in path order. Sections may chain on one file (a later section
 * sees the earlier result). Throws `PatchApplyError` naming the file and hunk that failed.
 */
export async function applyPatch(base: PatchBase, patchText: string): Promise<FileWrite[]> {
  const sections = parsePatchSections(patchText);
  if (sections.length > MAX_PATCH_FILES)
    throw new PatchApplyError(
      `the patch has ${sections.length} file sections; Retrace applies at most ${MAX_PATCH_FILES} (each is read and checked on the host)`,
      { hint: "split the change; a patch a reviewer can read changes far fewer files" },
    );

  // One mode look-up for every touched path and the directories on the way (symlinks among them refuse).
  const touched = new Set<RepoPath>();
  for (const s of sections)
    for (const p of [s.oldPath, s.newPath]) if (p) for (const q of withParents(p)) touched.add(q);
  const baseModes = await base.modes([...touched].sort());

  // A created name next to a base name that one file system stores as the same file (`café` beside `café`,
  // `INDEX.js` beside `index.js`, `index.js.`): a reviewer sees two files, a checkout on macOS or Windows keeps one.
  if (base.names) {
    const listed = new Map<string, readonly string[] | null>();
    for (const s of sections) {
      if (s.newPath === null) continue;
      const segments = s.newPath.split("/");
      for (let i = 0; i < segments.length; i++) {
        const here = segments.slice(0, i + 1).join("/");
        if (baseModes.has(here)) continue;
        const dir = segments.slice(0, i).join("/");
        if (!listed.has(dir)) listed.set(dir, await base.names(dir));
        const key = storedName(segments[i]!);
        const twin = listed.get(dir)?.find((n) => n !== segments[i] && storedName(n) === key);
        if (twin !== undefined) {
          throw new PatchApplyError(
            `the patch creates ${s.newPath}, but ${dir ? `${dir}/` : ""}${twin} is there ${base.where}: a file system that ignores case or Unicode normalisation (macOS, Windows) stores both as one file`,
            {
              file: s.newPath,
              hint: "change the existing file by its own name; two names that differ only in case, normalisation or trailing dots are one file on a reviewer's machine",
            },
          );
        }
        break; // the first segment the base lacks: below it everything is new
      }
    }
  }

  const refuseNonRegular = (p: RepoPath | null, role: string): void => {
    if (p === null) return;
    for (const dir of withParents(p).slice(0, -1)) {
      const m = baseModes.get(dir);
      if (m === "120000") {
        throw new PatchApplyError(`the patch ${role} ${p}, but ${dir} is a symlink ${base.where}`, {
          file: p,
          hint: "Retrace does not patch through symlinks (git apply refuses to write beyond one); change the file the link points to, by its own path",
        });
      }
    }
    const m = baseModes.get(p);
    if (m === "120000") {
      throw new PatchApplyError(
        `the patch ${role} ${p}, which is a symlink ${base.where}: ${p} is not a regular file ${base.where} (git mode 120000)`,
        {
          file: p,
          hint: "Retrace does not patch through symlinks (git apply refuses to write beyond one); change the file the link points to, by its own path",
        },
      );
    }
    if (m !== undefined && m !== "100644" && m !== "100755") {
      throw new PatchApplyError(
        `${p} is not a regular file ${base.where} (git mode ${m}); Retrace only patches regular files`,
        { file: p },
      );
    }
  };

  // Current state of every touched path: contents and mode, or null = absent. Sections may chain on one file.
  type State = { content: string; mode: FileMode } | null;
  const state = new Map<RepoPath, State>();
  const original = new Map<RepoPath, State>();
  const read = async (p: RepoPath): Promise<State> => {
    if (state.has(p)) return state.get(p) ?? null;
    const m = baseModes.get(p);
    const content = m === undefined ? null : await base.read(p);
    // A lossy UTF-8 decode leaves U+FFFD: its text would not write back the file's bytes, so the bytes published
    // would not be the bytes verified (outside the hunks too). Text files in UTF-8 only.
    if (content?.includes("\uFFFD")) {
      throw new PatchApplyError(
        `${p} is not UTF-8 text ${base.where} (or holds U+FFFD); Retrace patches UTF-8 text files only`,
        {
          file: p,
          hint: "change the file by hand, or convert it to UTF-8 first",
        },
      );
    }
    const s: State = content === null ? null : { content, mode: m === "100755" ? "100755" : "100644" };
    state.set(p, s);
    original.set(p, s);
    return s;
  };

  for (const section of sections) {
    const { oldPath, newPath, patch } = section;
    refuseNonRegular(oldPath, newPath === null ? "deletes" : "changes");
    refuseNonRegular(newPath, oldPath === null ? "creates" : "writes");
    const label = newPath ?? oldPath ?? "?";
    if (patch.isBinary) {
      throw new PatchApplyError(`binary changes cannot be applied from a text diff: ${label}`, {
        file: label,
      });
    }
    const isCreate = oldPath === null || patch.isCreate === true;
    const isDelete = newPath === null || patch.isDelete === true;
    const sourcePath = isCreate ? null : oldPath;
    let source: State = null;
    if (sourcePath !== null) {
      source = await read(sourcePath);
      if (source === null) {
        throw new PatchApplyError(`the patch modifies ${sourcePath}, which does not exist ${base.where}`, {
          file: sourcePath,
        });
      }
    } else if (newPath !== null && (await read(newPath)) !== null) {
      throw new PatchApplyError(`the patch creates ${newPath}, which already exists`, { file: newPath });
    }
    let result = source?.content ?? "";
    const overlap = overlappingHunk(patch.hunks);
    if (overlap !== null) {
      const [a, b] = overlap;
      throw new PatchApplyError(
        `hunks ${a + 1} and ${b + 1} of ${label} (${hunkHeader(patch.hunks[a]!)}, ${hunkHeader(patch.hunks[b]!)}) overlap or are out of order: each hunk must start after the lines the one before it covers, or the file written is not the one the diff shows`,
        {
          file: label,
          hunk: b + 1,
          hint: "ask for one hunk per changed region, in file order (git diff output)",
        },
      );
    }
    if (patch.hunks.length > 0) {
      const applied = applyHunks(result, patch);
      if (applied === false) {
        const i = failingHunk(result, patch);
        const h = patch.hunks[i];
        throw new PatchApplyError(
          `hunk ${i + 1} of ${patch.hunks.length} (${h ? hunkHeader(h) : "?"}) does not apply to ${label}: its context or removed lines do not match the file`,
          { file: label, hunk: i + 1 },
        );
      }
      result = applied;
    }
    if (isDelete) {
      if (oldPath === null) throw new PatchApplyError("a section deletes /dev/null", { file: label });
      if (result !== "") {
        throw new PatchApplyError(`the patch deletes ${oldPath} but does not remove all of its lines`, {
          file: oldPath,
        });
      }
      state.set(oldPath, null);
      continue;
    }
    if (newPath === null) continue;
    const mode = modeOfPatch(patch.newMode, newPath) ?? source?.mode ?? "100644";
    if (oldPath !== null && oldPath !== newPath) {
      // A rename or copy onto a file that is there replaces it: a reviewer reads a rename, the file's bytes are
      // gone (wave 23). Git refuses it too; a patch that means it deletes the file in a section first.
      if ((await read(newPath)) !== null)
        throw new PatchApplyError(
          `the patch ${patch.isCopy ? "copies" : "renames"} ${oldPath} onto ${newPath}, which already exists`,
          { file: newPath },
        );
      if (!patch.isCopy) state.set(oldPath, null);
    }
    state.set(newPath, { content: result, mode });
  }

  const out: FileWrite[] = [];
  for (const [p, now] of state) {
    const before = original.get(p) ?? null;
    if (now?.content === before?.content && now?.mode === before?.mode) continue; // read to check, unchanged
    out.push(now === null ? { path: p, content: null, mode: before?.mode ?? "100644" } : { path: p, ...now });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A change as another process reports it (a job result read back from JSON): its path not yet checked. */
export interface ReportedWrite {
  path: string;
  content: string | null;
  mode: FileMode;
}

/** The first difference between two change lists (path, bytes or mode), or null when they are the same. */
export function firstDifference(a: readonly ReportedWrite[], b: readonly ReportedWrite[]): string | null {
  const byPath = new Map(b.map((c) => [c.path as string, c]));
  for (const x of a) {
    const y = byPath.get(x.path);
    if (y === undefined) return `${x.path} is changed in one and not the other`;
    if (x.content !== y.content)
      return x.content === null || y.content === null
        ? `${x.path} is deleted in one and written in the other`
        : `${x.path} has different content`;
    if (x.content !== null && x.mode !== y.mode)
      return `${x.path} has mode ${x.mode} in one and ${y.mode} in the other`;
    byPath.delete(x.path);
  }
  const extra = [...byPath.keys()][0];
  return extra === undefined ? null : `${extra} is changed in one and not the other`;
}
