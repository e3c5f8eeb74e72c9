/**
 * The model's one tool in the reproduction loop. `write_reproduction` and its input shape are a replay
 * contract: recorded traces are matched by tool name, so neither may change lightly.
 */
import { z } from "zod";
import type { ToolDefinition } from "../core/ports/model.ts";
import { ANY_PACKAGE_NAME, packageNameProblem } from "./package-name.ts";

export const WRITE_REPRODUCTION_TOOL = "write_reproduction";

/** A workspace-relative path: no absolute paths, no `..`, no backslashes, plain characters. */
const RelativePath = z
  .string()
  .min(1)
  .max(120)
  .regex(
    /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[\w.\-/]+$/,
    "a relative path inside the working directory (letters, digits, _ . - /; no `..`, not absolute)",
  );

export const ReproFile = z.object({
  /** Workspace-relative path, e.g. `reproduction.py` or `helpers/data.py`. */
  path: RelativePath.describe("Relative path inside the working directory, e.g. reproduction.py."),
  /** The whole content of the file. */
  content: z.string().min(1).max(40_000).describe("The whole content of the file."),
});

export const WriteReproductionInput = z
  .object({
    /** Language of the program; decides the runtime (python3, or node for JavaScript/TypeScript). */
    language: z
      .enum(["python", "javascript", "typescript"])
      .describe(
        "python runs with python3; javascript and typescript with node (TypeScript is transpiled first).",
      ),
    /** The program's files (usually one). */
    files: z.array(ReproFile).min(1).max(5).describe("The program's files; usually exactly one."),
    /** The file that is run: `.py`, `.mjs` (ES module), `.cjs` (CommonJS) or `.ts`. */
    entry: z
      .string()
      .regex(/\.(?:py|mjs|cjs|ts)$/, "the entry must end in .py, .mjs, .cjs or .ts")
      .describe(
        "Path of the file to run; one of `files`. Ends in .py, .mjs (ES module), .cjs (CommonJS) or .ts.",
      ),
    /** Third-party packages the program imports, by registry name (versions come from the report). */
    dependencies: z
      .array(
        z
          .string()
          .max(214)
          .regex(
            ANY_PACKAGE_NAME,
            "a package name as its registry spells it, starting with a letter, a digit or an npm @scope/",
          ),
      )
      .max(10)
      .default([])
      .describe(
        "Third-party packages imported (npm or PyPI names, no versions); [] for the standard library.",
      ),
    /** What the run should show if the bug is there, quoted from the report. */
    expected: z
      .object({
        /** Exception type the report shows, e.g. `KeyError`, `TypeError`. */
        exceptionType: z
          .string()
          .max(200)
          .optional()
          .describe("Exception type the report shows, e.g. KeyError."),
        /** Exception message, verbatim from the report. */
        message: z.string().max(2_000).optional().describe("Exception message, verbatim from the report."),
        /** Printed output, verbatim from the report. */
        output: z.string().max(4_000).optional().describe("Printed output the report shows, verbatim."),
      })
      .describe("What the run shows when the bug is present, quoted from the report (not invented)."),
    /** What was completed or assumed, in one or two sentences, for the maintainer. */
    notes: z
      .string()
      .max(2_000)
      .describe(
        "What you completed or assumed (placeholders filled, sample data invented), for the maintainer.",
      ),
  })
  .superRefine((v, ctx) => {
    const paths = v.files.map((f) => f.path);
    if (!paths.includes(v.entry))
      ctx.addIssue({
        code: "custom",
        path: ["entry"],
        message: `entry "${v.entry}" is not one of files (${paths.join(", ")})`,
      });
    if (new Set(paths).size !== paths.length)
      ctx.addIssue({ code: "custom", path: ["files"], message: "two files have the same path" });
    const py = v.entry.endsWith(".py");
    if (py !== (v.language === "python"))
      ctx.addIssue({
        code: "custom",
        path: ["entry"],
        message: `a ${v.language} entry cannot be "${v.entry}"`,
      });
    if (v.language === "typescript" && !v.entry.endsWith(".ts"))
      ctx.addIssue({ code: "custom", path: ["entry"], message: "a typescript entry ends in .ts" });
    if (v.language === "javascript" && v.entry.endsWith(".ts"))
      ctx.addIssue({ code: "custom", path: ["entry"], message: "a javascript entry ends in .mjs or .cjs" });
    // Each ecosystem's own naming rule: the names go to npm or pip on the host.
    const ecosystem = v.language === "python" ? "pypi" : "npm";
    v.dependencies.forEach((name, i) => {
      const problem = packageNameProblem(ecosystem, name);
      if (problem)
        ctx.addIssue({ code: "custom", path: ["dependencies", i], message: `"${name}": ${problem}` });
    });
  });
export type WriteReproductionInput = z.infer<typeof WriteReproductionInput>;

export const writeReproductionTool: ToolDefinition<typeof WriteReproductionInput> = {
  name: WRITE_REPRODUCTION_TOOL,
  description:
    "Submit the reproduction program. It runs offline in a locked-down sandbox, several times; its output is compared with what the report says happens.",
  input: WriteReproductionInput,
};
