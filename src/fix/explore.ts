/**
 * Read-only exploration for the model: read a file or a line range, grep, list a directory. Every path is
 * validated to stay inside the repository, every answer is capped, and the number of calls is bounded.
 */
import { GrepInput, ListDirInput, ReadFileInput } from "./tools.ts";
import type { ToolCall } from "../core/ports/model.ts";
import { normalizeRepoPath } from "./repo-path.ts";

/** What the fix pipeline needs to read from the repository (a view of the base commit). */
export interface RepoView {
  /** Text of a file, or null when it does not exist (or is not a regular text file). */
  readFile(path: string): Promise<string | null>;
  /** Every tracked file, repository-relative. */
  listFiles(): Promise<string[]>;
}

export interface ExploreResult {
  content: string;
  isError: boolean;
}

export interface ExplorerOptions {
  /** Calls allowed over the whole job. */
  maxCalls?: number;
  /** Lines returned by one read_file at most. */
  maxLines?: number;
  /** Matches returned by one grep at most. */
  maxMatches?: number;
  /** Characters of one answer at most. */
  maxChars?: number;
  /** Characters of file text one grep scans at most (bounds its work on a huge repository). */
  maxScanChars?: number;
  /**
   * Characters grep reads from the repository over the whole job (every file read counts, the ones it then skips
   * as too large or binary included, each at least `MIN_READ_CHARGE`): each file is read once, then its text is
   * kept (red team 30: 20 calls re-read 300 MiB of skipped files, or 20,000 small files, each time).
   */
  maxReadChars?: number;
  /** Files grep reads over the whole job (each read is a guarded open, about a millisecond on a loaded host). */
  maxReadFiles?: number;
}

/** Files larger than this are not searched (generated or minified, not source to read). */
const MAX_GREP_FILE_CHARS = 1_000_000;
/** What a file read by grep costs the job's read budget at least (opening it is work, whatever its size). */
const MIN_READ_CHARGE = 1_024;
/** Characters of an input echoed in an error answer. */
const ECHO_CHARS = 200;

const echo = (text: string) =>
  JSON.stringify(text.length > ECHO_CHARS ? `${text.slice(0, ECHO_CHARS)}…` : text);

const EXPLORATION = new Set(["read_file", "grep", "list_dir"]);

export function isExplorationCall(name: string): boolean {
  return EXPLORATION.has(name);
}

function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[... cut at ${max} characters]`;
}

export class Explorer {
  readonly maxCalls: number;
  private calls = 0;
  private readonly maxLines: number;
  private readonly maxMatches: number;
  private readonly maxChars: number;
  private readonly maxScanChars: number;
  private readonly maxReadChars: number;
  /** The repository's files, listed once (the view is the base commit's, unchanged while the model explores). */
  private files: Promise<string[]> | null = null;
  /** Texts grep has read, by path; null: not searched (missing, too large, binary). */
  private readonly texts = new Map<string, string | null>();
  private readChars = 0;
  private readonly maxReadFiles: number;

  constructor(
    private readonly repo: RepoView,
    options: ExplorerOptions = {},
  ) {
    this.maxCalls = options.maxCalls ?? 20;
    this.maxLines = options.maxLines ?? 200;
    this.maxMatches = options.maxMatches ?? 50;
    this.maxChars = options.maxChars ?? 20_000;
    this.maxScanChars = options.maxScanChars ?? 16_000_000;
    this.maxReadChars = options.maxReadChars ?? 64_000_000;
    this.maxReadFiles = options.maxReadFiles ?? 2_000;
  }

  get used(): number {
    return this.calls;
  }

  get remaining(): number {
    return Math.max(0, this.maxCalls - this.calls);
  }

  /** Runs one exploration call. Errors (bad path, bad input, budget) come back as error results, never thrown. */
  async run(call: ToolCall): Promise<ExploreResult> {
    if (this.calls >= this.maxCalls) {
      return {
        content: `exploration limit reached (${this.maxCalls} calls); answer with what you have.`,
        isError: true,
      };
    }
    this.calls += 1;
    const r = await this.answer(call);
    // Every answer is capped, an error echoing the model's input included.
    return { ...r, content: cap(r.content, this.maxChars) };
  }

  private async answer(call: ToolCall): Promise<ExploreResult> {
    try {
      switch (call.name) {
        case "read_file":
          return await this.readFile(ReadFileInput.parse(call.input));
        case "grep":
          return await this.grep(GrepInput.parse(call.input));
        case "list_dir":
          return await this.listDir(ListDirInput.parse(call.input));
        default:
          return { content: `unknown tool ${echo(call.name)}`, isError: true };
      }
    } catch (e) {
      return {
        content: `bad input for ${echo(call.name)}: ${e instanceof Error ? e.message : String(e)}`,
        isError: true,
      };
    }
  }

  private async readFile(input: {
    path: string;
    start_line?: number;
    end_line?: number;
  }): Promise<ExploreResult> {
    const path = normalizeRepoPath(input.path);
    if (path === null)
      return {
        content: `refused path ${echo(input.path)}: it must stay inside the repository`,
        isError: true,
      };
    const text = await this.repo.readFile(path);
    if (text === null) return { content: `${path}: no such file`, isError: true };
    const lines = text.split("\n");
    const start = input.start_line ?? 1;
    const end = Math.min(
      lines.length,
      input.end_line ?? start + this.maxLines - 1,
      start + this.maxLines - 1,
    );
    if (start > lines.length)
      return {
        content: `${path} has ${lines.length} lines; start_line ${start} is past the end`,
        isError: true,
      };
    const body = lines
      .slice(start - 1, end)
      .map((l, i) => `${String(start + i).padStart(5)}| ${l}`)
      .join("\n");
    return {
      content: cap(`${path} (lines ${start}-${end} of ${lines.length})\n${body}`, this.maxChars),
      isError: false,
    };
  }

  /**
   * Literal substring search. Deliberately not a regular expression: the pattern comes from the model, and a
   * backtracking regex (`^(a+)+$`) runs synchronously for hours where no time bound can interrupt it. A
   * substring search is linear in the text scanned, and the text scanned is capped too.
   */
  private async grep(input: {
    pattern: string;
    path?: string;
    ignore_case?: boolean;
  }): Promise<ExploreResult> {
    const ignoreCase = input.ignore_case === true;
    const needle = ignoreCase ? input.pattern.toLowerCase() : input.pattern;
    const under =
      input.path === undefined || input.path === "." || input.path === ""
        ? ""
        : normalizeRepoPath(input.path);
    if (under === null)
      return {
        content: `refused path ${echo(input.path ?? "")}: it must stay inside the repository`,
        isError: true,
      };
    this.files ??= this.repo.listFiles();
    const files = (await this.files)
      .filter((f) => under === "" || f === under || f.startsWith(`${under}/`))
      .sort();
    const matches: string[] = [];
    let more = false;
    let scanned = 0;
    let truncated = false;
    let unread = 0;
    for (const file of files) {
      const text = await this.searchable(file);
      if (text === undefined) {
        unread++;
        continue;
      }
      if (text === null) continue;
      if (scanned + text.length > this.maxScanChars) {
        truncated = true;
        break;
      }
      scanned += text.length;
      more = matchLines(text, needle, ignoreCase, file, matches, this.maxMatches);
      if (more) break;
    }
    const stopped =
      (truncated
        ? `\n[search stopped after ${this.maxScanChars} characters of text; pass a path to narrow it]`
        : "") +
      (unread > 0
        ? `\n[${unread} file(s) not searched: this job's searches have read what they may of the repository (${this.maxReadChars} characters or ${this.maxReadFiles} files); read_file a file by name]`
        : "");
    if (matches.length === 0) {
      // The model may still write regex syntax: say plainly why it found nothing.
      const literalHint = /[\\^$.*+?()[\]{}|]/.test(input.pattern)
        ? " (the pattern is matched literally, not as a regular expression; search for a plain fragment such as an identifier)"
        : "";
      return { content: `no matches${literalHint}${stopped}`, isError: false };
    }
    return {
      content: cap(
        matches.join("\n") +
          (more ? `\n[more than ${this.maxMatches} matches; narrow the search]` : "") +
          stopped,
        this.maxChars,
      ),
      isError: false,
    };
  }

  /**
   * The text grep searches in `file`: read once per job and kept; null when it is not searched (missing, larger
   * than MAX_GREP_FILE_CHARS, binary); undefined when the job's read budget is spent before it was read.
   */
  private async searchable(file: string): Promise<string | null | undefined> {
    if (this.texts.has(file)) return this.texts.get(file);
    if (this.readChars >= this.maxReadChars || this.texts.size >= this.maxReadFiles) return undefined;
    const text = await this.repo.readFile(file);
    this.readChars += Math.max(MIN_READ_CHARGE, text?.length ?? 0);
    const kept = text === null || text.length > MAX_GREP_FILE_CHARS || text.includes("\0") ? null : text;
    this.texts.set(file, kept);
    return kept;
  }

  private async listDir(input: { path: string }): Promise<ExploreResult> {
    const dir =
      input.path === "" || input.path === "." || input.path === "./" ? "" : normalizeRepoPath(input.path);
    if (dir === null)
      return {
        content: `refused path ${echo(input.path)}: it must stay inside the repository`,
        isError: true,
      };
    const prefix = dir === "" ? "" : `${dir}/`;
    const entries = new Set<string>();
    this.files ??= this.repo.listFiles();
    for (const f of await this.files) {
      if (!f.startsWith(prefix)) continue;
      const rest = f.slice(prefix.length);
      const slash = rest.indexOf("/");
      entries.add(slash < 0 ? rest : `${rest.slice(0, slash)}/`);
    }
    if (entries.size === 0) return { content: `${dir || "."}: no such directory (or empty)`, isError: true };
    return { content: cap([...entries].sort().join("\n"), this.maxChars), isError: false };
  }
}

/**
 * Pushes `file:line: text` for each line of `text` holding `needle` (one entry per line) onto `out`; true when a match
 * was left out because `out` already held `max`. Linear in the text: the lines around a match are found from it,
 * the text is never split.
 */
function matchLines(
  text: string,
  needle: string,
  ignoreCase: boolean,
  file: string,
  out: string[],
  max: number,
): boolean {
  let hay = ignoreCase ? text.toLowerCase() : text;
  // Lower-casing can change a text's length (U+0130): then the positions would not be the text's.
  if (hay.length !== text.length)
    hay = text.replace(/[\s\S]/gu, (c) => (c.toLowerCase().length === c.length ? c.toLowerCase() : c));
  let line = 1;
  let counted = 0;
  for (let at = hay.indexOf(needle); at !== -1; ) {
    const start = text.lastIndexOf("\n", at - 1) + 1;
    for (let i = text.indexOf("\n", counted); i !== -1 && i < start; i = text.indexOf("\n", i + 1)) line++;
    counted = start;
    if (out.length >= max) return true;
    const endAt = text.indexOf("\n", at);
    const end = endAt === -1 ? text.length : endAt;
    const shown = text.slice(start, end);
    out.push(`${file}:${line}: ${shown.length > 200 ? `${shown.slice(0, 200)}...` : shown}`);
    if (endAt === -1) break;
    at = hay.indexOf(needle, end + 1);
  }
  return false;
}
