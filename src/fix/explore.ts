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
}

/** Files larger than this are not searched (generated or minified, not source to read). */
const MAX_GREP_FILE_CHARS = 1_000_000;

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

  constructor(
    private readonly repo: RepoView,
    options: ExplorerOptions = {},
  ) {
    this.maxCalls = options.maxCalls ?? 20;
    this.maxLines = options.maxLines ?? 200;
    this.maxMatches = options.maxMatches ?? 50;
    this.maxChars = options.maxChars ?? 20_000;
    this.maxScanChars = options.maxScanChars ?? 64_000_000;
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
    try {
      switch (call.name) {
        case "read_file":
          return await this.readFile(ReadFileInput.parse(call.input));
        case "grep":
          return await this.grep(GrepInput.parse(call.input));
        case "list_dir":
          return await this.listDir(ListDirInput.parse(call.input));
        default:
          return { content: `unknown tool ${call.name}`, isError: true };
      }
    } catch (e) {
      return {
        content: `bad input for ${call.name}: ${e instanceof Error ? e.message : String(e)}`,
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
        content: `refused path ${JSON.stringify(input.path)}: it must stay inside the repository`,
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
        content: `refused path ${JSON.stringify(input.path)}: it must stay inside the repository`,
        isError: true,
      };
    const files = (await this.repo.listFiles())
      .filter((f) => under === "" || f === under || f.startsWith(`${under}/`))
      .sort();
    const matches: string[] = [];
    let more = false;
    let scanned = 0;
    let truncated = false;
    outer: for (const file of files) {
      const text = await this.repo.readFile(file);
      if (text === null || text.length > MAX_GREP_FILE_CHARS || text.includes("\0")) continue;
      if (scanned + text.length > this.maxScanChars) {
        truncated = true;
        break;
      }
      scanned += text.length;
      const lines = text.split("\n");
      for (const [i, line] of lines.entries()) {
        if ((ignoreCase ? line.toLowerCase() : line).includes(needle)) {
          if (matches.length >= this.maxMatches) {
            more = true;
            break outer;
          }
          matches.push(`${file}:${i + 1}: ${line.length > 200 ? `${line.slice(0, 200)}...` : line}`);
        }
      }
    }
    const stopped = truncated
      ? `\n[search stopped after ${this.maxScanChars} characters of text; pass a path to narrow it]`
      : "";
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

  private async listDir(input: { path: string }): Promise<ExploreResult> {
    const dir =
      input.path === "" || input.path === "." || input.path === "./" ? "" : normalizeRepoPath(input.path);
    if (dir === null)
      return {
        content: `refused path ${JSON.stringify(input.path)}: it must stay inside the repository`,
        isError: true,
      };
    const prefix = dir === "" ? "" : `${dir}/`;
    const entries = new Set<string>();
    for (const f of await this.repo.listFiles()) {
      if (!f.startsWith(prefix)) continue;
      const rest = f.slice(prefix.length);
      const slash = rest.indexOf("/");
      entries.add(slash < 0 ? rest : `${rest.slice(0, slash)}/`);
    }
    if (entries.size === 0) return { content: `${dir || "."}: no such directory (or empty)`, isError: true };
    return { content: cap([...entries].sort().join("\n"), this.maxChars), isError: false };
  }
}
