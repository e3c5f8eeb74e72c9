/**
 * Read-only exploration for the model: read a file or a line range, grep, list a directory. Every path is
 * validated to stay inside the repository, every answer is capped, and the number of calls is bounded.
 */
import { GrepInput, ListDirInput, ReadFileInput } from "./tools.ts";
import type { ToolCall } from "../llm/types.ts";
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
}

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

  constructor(
    private readonly repo: RepoView,
    options: ExplorerOptions = {},
  ) {
    this.maxCalls = options.maxCalls ?? 20;
    this.maxLines = options.maxLines ?? 200;
    this.maxMatches = options.maxMatches ?? 50;
    this.maxChars = options.maxChars ?? 20_000;
  }

  get used(): number {
    return this.calls;
  }

  get remaining(): number {
    return Math.max(0, this.maxCalls - this.calls);
  }

  /** Runs one exploration call. Errors (bad path, bad regex, budget) come back as error results, never thrown. */
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

  private async grep(input: { pattern: string; path?: string }): Promise<ExploreResult> {
    let re: RegExp;
    try {
      re = new RegExp(input.pattern);
    } catch (e) {
      return {
        content: `invalid regular expression: ${e instanceof Error ? e.message : String(e)}`,
        isError: true,
      };
    }
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
    outer: for (const file of files) {
      const text = await this.repo.readFile(file);
      if (text === null || text.length > 1_000_000 || text.includes("\0")) continue;
      const lines = text.split("\n");
      for (const [i, line] of lines.entries()) {
        if (re.test(line)) {
          if (matches.length >= this.maxMatches) {
            more = true;
            break outer;
          }
          matches.push(`${file}:${i + 1}: ${line.length > 200 ? `${line.slice(0, 200)}...` : line}`);
        }
      }
    }
    if (matches.length === 0) return { content: "no matches", isError: false };
    return {
      content: cap(
        matches.join("\n") + (more ? `\n[more than ${this.maxMatches} matches; narrow the search]` : ""),
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
