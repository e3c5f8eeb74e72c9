/**
 * The model's tools in the fix loop. `report_root_cause` and `propose_edits` are a stable contract: recorded
 * traces replay against these names and input shapes. The exploration tools are read-only.
 */
import { z } from "zod";
import type { ToolDefinition } from "../core/ports/model.ts";

export const ROOT_CAUSE_TOOL = "report_root_cause";
export const PROPOSE_EDITS_TOOL = "propose_edits";

export const RootCauseInput = z.object({
  /** The cause of the failure, in one or two sentences. No code. */
  hypothesis: z.string().min(1).describe("The cause of the failure in one or two sentences. No code."),
  /** What in the log or the source supports the hypothesis. */
  evidence: z.string().min(1).describe("What in the log or the source supports it (lines, values, frames)."),
  /** Repository-relative paths of the files involved. */
  files: z.array(z.string()).describe("Repository-relative paths of the files involved."),
});
export type RootCauseInput = z.infer<typeof RootCauseInput>;

export const EditInput = z.object({
  /** Repository-relative POSIX path of the file to change. */
  path: z.string().min(1).describe("Repository-relative POSIX path of the file to change."),
  /** Exact text to replace, matching exactly once; empty to create a new file. */
  old_string: z
    .string()
    .describe(
      "Exact text to replace; it must occur exactly once in the file. Empty string = create a new file.",
    ),
  /** Replacement text (the whole content for a new file). */
  new_string: z.string().describe("The replacement text (the whole content when creating a file)."),
});

export const ProposeEditsInput = z.object({
  /** What the change does and why it fixes the root cause. */
  summary: z.string().min(1).describe("What the change does and why it fixes the root cause."),
  /** The edits, applied in order. */
  edits: z.array(EditInput).min(1).max(20).describe("The edits, applied in order."),
});
export type ProposeEditsInput = z.infer<typeof ProposeEditsInput>;

export const ReadFileInput = z.object({
  /** Repository-relative path. */
  path: z.string().min(1).describe("Repository-relative path."),
  /** First line to read (1-based); default 1. */
  start_line: z.number().int().min(1).optional().describe("First line (1-based); default 1."),
  /** Last line to read (inclusive); default start_line + 199. */
  end_line: z.number().int().min(1).optional().describe("Last line, inclusive; default start_line + 199."),
});

export const GrepInput = z.object({
  /**
   * Text searched for literally (a substring, not a regular expression), line by line. Literal on purpose:
   * a regex from the model could backtrack for hours (`^(a+)+$`) and block the whole job.
   */
  pattern: z
    .string()
    .min(1)
    .max(200)
    .describe(
      "Literal text to find (a plain substring, NOT a regular expression: characters such as ( . * | have no special meaning), matched line by line.",
    ),
  /** Match regardless of letter case. */
  ignore_case: z.boolean().optional().describe("Match regardless of letter case (default false)."),
  /** Directory (or file) to search under; default the repository root. */
  path: z.string().optional().describe("Directory or file to search under; default the repository root."),
});

export const ListDirInput = z.object({
  /** Repository-relative directory; "" or "." for the root. */
  path: z.string().describe('Repository-relative directory; "." for the root.'),
});

export const rootCauseTool: ToolDefinition = {
  name: ROOT_CAUSE_TOOL,
  description:
    "Report the root cause of the failing test(s) once you understand it. No code: a hypothesis, the evidence, and the files involved.",
  input: RootCauseInput,
};

export const proposeEditsTool: ToolDefinition = {
  name: PROPOSE_EDITS_TOOL,
  description:
    "Propose the fix as exact search-and-replace edits. Each old_string must match exactly once in the current file; an empty old_string creates a new file. Do not edit tests to make them pass.",
  input: ProposeEditsInput,
};

export const readFileTool: ToolDefinition = {
  name: "read_file",
  description: "Read a file of the repository, or a line range of it. Lines come numbered.",
  input: ReadFileInput,
};

export const grepTool: ToolDefinition = {
  name: "grep",
  description:
    "Search the repository's text files for a literal substring (not a regular expression; optionally case-insensitive); returns path:line: text matches. To find a definition, search for e.g. `def total_price` or `function parse`.",
  input: GrepInput,
};

export const listDirTool: ToolDefinition = {
  name: "list_dir",
  description: "List the entries of a repository directory (directories end with /).",
  input: ListDirInput,
};

export const explorationTools: ToolDefinition[] = [readFileTool, grepTool, listDirTool];
