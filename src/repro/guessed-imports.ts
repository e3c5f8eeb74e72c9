/**
 * A package Retrace guessed (an import the completion added, the issue repository's package bound to free names)
 * that does not install here is not the report's: the program runs without the guessed import, and a run that
 * then stops on a missing name or module is not a verdict (attempt.ts asks for the package, naming it). A package
 * the report's own code imports stays needed: nothing is dropped. Pure: a program and the report's text in, a
 * program out.
 */
import type { Program } from "./complete.ts";
import type { ExecutedRun } from "./execute.ts";
import { normalizePypiName, npmPackageOf, PYTHON_IMPORT_TO_PACKAGE } from "./known-modules.ts";
import { pythonImportName } from "./repository-binding.ts";

const JS_SPECIFIER = /(?:\brequire\(\s*|\bfrom\s+|^\s*import\s+)(['"])([^'"\n]+)\1/g;
const PY_IMPORT =
  /^\s*(?:from\s+([\w.]+)\s+import\b|import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)\s*$)/;

/** Whether one line of the program imports `pkg`. */
function importsPackage(line: string, pkg: string, ecosystem: Program["ecosystem"]): boolean {
  if (ecosystem === "npm") {
    for (const m of line.matchAll(JS_SPECIFIER))
      if (npmPackageOf(m[2]!)?.toLowerCase() === pkg.toLowerCase()) return true;
    return false;
  }
  const m = PY_IMPORT.exec(line);
  if (!m) return false;
  const modules = m[1] ? [m[1]] : m[2]!.split(",").map((part) => part.trim().split(/\s+as\s+/)[0]!);
  const wanted = normalizePypiName(pkg);
  return modules.some((full) => {
    const top = full.split(".")[0]!;
    return (
      top === pythonImportName(pkg) || normalizePypiName(PYTHON_IMPORT_TO_PACKAGE[top] ?? top) === wanted
    );
  });
}

export interface WithoutGuessed {
  program: Program;
  /** The import lines dropped, as they stood in the program. */
  dropped: string[];
}

/**
 * The program without its guessed imports of `failed` (packages that did not install), or null when the
 * report's own text holds an import of one of them (the report needs it) or the program never imports them.
 */
export function withoutGuessedImports(
  program: Program,
  failed: string[],
  reportText: string,
): WithoutGuessed | null {
  if (failed.length === 0) return null;
  const own = (line: string) => reportText.includes(line.trim());
  const files: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [path, code] of Object.entries(program.files)) {
    const lines = code.split("\n");
    const kept: string[] = [];
    const droppedHere: string[] = [];
    for (const line of lines) {
      if (failed.some((pkg) => importsPackage(line, pkg, program.ecosystem))) {
        if (own(line)) return null;
        droppedHere.push(line);
      } else kept.push(line);
    }
    // The repository binder's call reads the module the dropped import bound.
    const bound = droppedHere.some((l) => /\b_repositoryPackage\b/.test(l));
    const rest = bound ? kept.filter((l) => !/^\s*_bindPackage\(\s*_repositoryPackage\b/.test(l)) : kept;
    dropped.push(...droppedHere, ...kept.filter((l) => !rest.includes(l)));
    files[path] = rest.join("\n");
  }
  if (dropped.length === 0) return null;
  const gone = new Set(failed.map((p) => p.toLowerCase()));
  return {
    program: {
      ...program,
      files,
      dependencies: program.dependencies.filter((d) => !gone.has(d.toLowerCase())),
      completions: [
        ...program.completions,
        `ran without ${failed.map((p) => `\`${p}\``).join(", ")}, which could not be installed: dropped the import${dropped.length > 1 ? "s" : ""} Retrace had guessed (${dropped.map((l) => `\`${l.trim()}\``).join(", ")}); the report's own code never imports ${failed.length > 1 ? "them" : "it"}`,
      ],
    },
    dropped,
  };
}

/**
 * A run that stopped on what a dropped import would have given: a name left undefined (`ReferenceError`,
 * `NameError`) or a module not found. Such a run says nothing about the report.
 */
export function stoppedOnMissing(run: ExecutedRun): boolean {
  const ex = run.exception;
  if (ex && /^(?:ReferenceError|NameError|ModuleNotFoundError|ImportError)$/.test(ex.type)) return true;
  return /Cannot find (?:module|package) '|ERR_MODULE_NOT_FOUND|No module named /.test(
    `${ex?.message ?? ""}\n${run.stderr}`,
  );
}
