/**
 * The catch-all `file:line[:col]: message` form of compilers and linters (gcc/clang, mypy, flake8,
 * ruff, go vet, shellcheck -f gcc, …) and GitHub workflow commands (`::error file=…,line=…::msg`).
 * It only reads lines no other parser claimed, and only error lines: a severity word, a rule code
 * or a column must be there, and warnings and notes are ignored.
 */
import type { FailureCategory } from "../failure.ts";
import type { FormatDefinition, ParserSink } from "../parser.ts";

const LOCATED =
  /^((?:[A-Za-z]:[\\/])?[\w@.+~-]*(?:[\\/][\w@.+~ -]+)*\.[A-Za-z][\w]{0,9}):(\d+)(?::(\d+))?:? (.+)$/;
const WORKFLOW = /^::error(?: ([^:]*))?::(.*)$/;
const SEVERITY = /^(?:(fatal error|error|Error|ERROR)(?:\[[\w-]+\])?:?\s+)(.*)$/;
const SKIP = /^(?:warning|note|info|hint|help|Warning|WARN|INFO|NOTE)\b/;
const CODE = /^([A-Z]{1,4}\d{2,4}|[a-z]+(?:-[a-z]+)+|[A-Z]\w+\/[A-Za-z-]+)\b:?\s+(.*)$/;
const MYPY_CODE = /\s+\[([a-z-]+)\]$/;

/**
 * GHC before 8 heads an error with its place alone (`Tests/Run.hs:31:9:`, a warning has ` Warning:` after it) and
 * prints the message on the deeper-indented lines below; cabal indents a test suite's build output (`    Tests/…`).
 */
const GHC7_HEAD = /^([ \t]*)((?:[A-Za-z]:[\\/])?[\w.+~-]*(?:[\\/][\w.+~-]+)*\.l?hs):(\d+):(\d+):$/;

export function createGenericParser(sink: ParserSink) {
  let ghc: { indent: number; file: string; line: number; column: number; lineNo: number } | null = null;
  return {
    line(text: string, lineNo: number): boolean {
      if (ghc) {
        const g = ghc;
        ghc = null;
        const indent = text.length - text.trimStart().length;
        if (text.trim() !== "" && indent > g.indent) {
          sink.failure({
            category: "build",
            file: sink.path(g.file),
            line: g.line,
            column: g.column,
            errorType: "error",
            message: text.trim(),
            start: g.lineNo,
            end: lineNo,
          });
          return true;
        }
      }
      if (text.charCodeAt(text.length - 1) === 58 /* : */ && /\.l?hs:\d+:\d+:$/.test(text)) {
        const h = GHC7_HEAD.exec(text);
        if (h) {
          ghc = { indent: h[1]!.length, file: h[2]!, line: Number(h[3]), column: Number(h[4]), lineNo };
          return false;
        }
      }
      if (text.startsWith("::error")) {
        const w = WORKFLOW.exec(text);
        if (!w) return false;
        const props = new Map<string, string>();
        for (const part of (w[1] ?? "").split(",")) {
          const eq = part.indexOf("=");
          if (eq > 0) props.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
        }
        const file = props.get("file");
        sink.failure({
          category: "build",
          file: file ? sink.path(file) : null,
          line: props.has("line") ? Number(props.get("line")) : null,
          column: props.has("col") ? Number(props.get("col")) : null,
          errorType: props.get("title") ?? null,
          message: w[2]!.replace(/%0A/g, "\n").replace(/%0D/g, "").replace(/%25/g, "%"),
          start: lineNo,
          end: lineNo,
        });
        return true;
      }
      const c0 = text.charCodeAt(0);
      // Quick reject: a location starts with a path character, never with a space.
      if (c0 === 32 || c0 === 9 || Number.isNaN(c0)) return false;
      const m = LOCATED.exec(text);
      if (!m) return false;
      let message = m[4]!.trim();
      if (SKIP.test(message)) return false;
      const hasColumn = m[3] !== undefined;
      let errorType: string | null = null;
      let category: FailureCategory = "build";
      const sev = SEVERITY.exec(message);
      const code = sev ? null : CODE.exec(message);
      if (sev) {
        message = sev[2]!;
        errorType = sev[1]!.toLowerCase();
        const mypy = MYPY_CODE.exec(message);
        if (mypy && /\.pyi?$/.test(m[1]!)) {
          category = "type-check";
          errorType = mypy[1]!;
          message = message.slice(0, mypy.index);
        }
      } else if (code) {
        category = "lint";
        errorType = code[1]!;
        message = code[2]!;
      } else if (!hasColumn) {
        return false;
      }
      sink.failure({
        category,
        file: swiftPackagePath(sink.path(m[1]!)),
        line: Number(m[2]),
        column: hasColumn ? Number(m[3]) : null,
        errorType,
        message,
        start: lineNo,
        end: lineNo,
      });
      return true;
    },
    end(): void {},
  };
}

/**
 * A Swift file named by a machine's absolute path (a developer's `swift build`/`swift test`, no CI checkout to remove):
 * a Swift package keeps its code under `Sources/` and `Tests/` at its root, so the path is taken from the topmost of
 * them (`/home/me/kettle/Tests/KettleTests/PourTests.swift` → `Tests/KettleTests/PourTests.swift`). Other paths, and a
 * Swift path with neither directory, are kept.
 */
function swiftPackagePath(file: string): string {
  if (!file.endsWith(".swift") || !/^(?:\/|[A-Za-z]:\/)/.test(file)) return file;
  const at = file.search(/\/(?:Sources|Tests)\//);
  return at < 0 ? file : file.slice(at + 1);
}

export const genericFormat: FormatDefinition = {
  name: "generic",
  description: "file:line[:col]: message lines of other compilers and linters, and ::error workflow commands",
  create: createGenericParser,
};
