/**
 * A report with no code but a pasted stack trace still names a statement that fails, when the trace shows it
 * whole: Node's trace of a package that throws while it is being loaded (its module's top level, then the
 * CommonJS loader) is `require('<package>')`; Python's traceback prints the first frame's own source line, and
 * a top-level `import …` there is the statement that raised, and so is a module function called there on the
 * path of a data file the report shows (`toml.load("/tmp/test.toml")` under "the toml file below"). Anything else
 * a trace shows (a call on names the report never defines) is not runnable on its own, and is left alone.
 */
import { escapeRegExp } from "../core/regexp.ts";
import { npmIdentifier, npmPackageOf } from "./known-modules.ts";
import type { ParsedReport, ReportBlock } from "./parse-report.ts";

export interface TraceStatement {
  language: "python" | "javascript";
  code: string;
  /** Data files the statement reads, written beside the program (workspace-relative name → content). */
  files?: Record<string, string>;
  /** One sentence for the program's completions: what was taken from the trace, and why it runs alone. */
  note: string;
}

/** `at Object.<anonymous> (/app/node_modules/pkg/lib/index.js:29:12)` → the package, when the frame is a module's top level. */
const NODE_MODULE_TOP =
  /^\s*at\s+Object\.<anonymous>\s+\(([^()\s]*?\bnode_modules\/((?:@[\w.-]+\/)?[\w.-]+)\/[^()\s]+):\d+:\d+\)\s*$/;
const NODE_LOADER =
  /^\s*at\s+Module\._compile\s+\(node:internal\/modules\/cjs\/loader(?:\.js)?:\d+:\d+\)\s*$/;

/**
 * The innermost package of the trace that was being loaded when it threw, among those the report names (a
 * dependency of it failing at load time is its report's business, not this one's).
 */
function nodeLoadTime(text: string, named: (pkg: string) => boolean): TraceStatement | null {
  const lines = text.split("\n");
  for (let i = 0; i + 1 < lines.length; i++) {
    const top = NODE_MODULE_TOP.exec(lines[i]!);
    if (!top?.[2] || !NODE_LOADER.test(lines[i + 1]!)) continue;
    const pkg = npmPackageOf(top[2]);
    if (!pkg || !named(pkg)) continue;
    return {
      language: "javascript",
      code: `const ${npmIdentifier(pkg)} = require(${JSON.stringify(pkg)});`,
      note: `the report has no code, but its stack trace shows the error raised while \`${pkg}\` was being loaded (its module's top level at \`${top[1]}\`, then Node's module loader): ran \`require("${pkg}")\``,
    };
  }
  return null;
}

/** The traceback's first frame, when it is the top level of a script or a REPL, and the source line under it. */
const PY_FIRST_FRAME = /^[ \t]*File "([^"]+)", line \d+, in <module>\n[ \t]+(\S[^\n]*)$/m;
const PY_IMPORT =
  /^(?:import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*|from\s+[\w.]+\s+import\s+[\w\s,*()]+)$/;

function pythonFirstFrame(text: string): TraceStatement | null {
  const tb = text.indexOf("Traceback (most recent call last):");
  if (tb < 0) return null;
  const m = PY_FIRST_FRAME.exec(text.slice(tb));
  const line = m?.[2]?.trim();
  if (!m || !line || !PY_IMPORT.test(line)) return null;
  return {
    language: "python",
    code: line,
    note: `the report has no code, but its traceback's first frame (the top level of \`${m[1]}\`) shows the statement that raised: ran \`${line}\``,
  };
}

/** `toml.load("/tmp/test.toml")`: a call of a module's function on one file path literal. */
const PY_PATH_CALL =
  /^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\(\s*(["'])((?:[^"'\n/]*\/)*([\w.-]+\.(\w+)))\2\s*\)$/;

/**
 * A report whose only "code" is a data file and the traceback of loading it: "Loading the toml file below
 * (just with `toml.load()`) fails:", the file, then a traceback whose first frame (a script's top level) is
 * `toml.load("/tmp/test.toml")`. The statement runs on the report's file, written beside the program under the
 * path's own name (the path made relative: the sandbox has no `/tmp/test.toml`). The file is the block shown
 * before the traceback and introduced as a file (its lead says "file", or its fence is the file's extension);
 * a block after the traceback is the variant that works.
 */
function pythonDataCall(report: ParsedReport): TraceStatement | null {
  const at = report.blocks.findIndex((b) => b.section !== "expected" && b.kind === "traceback");
  if (at < 0) return null;
  const text = report.blocks[at]!.value;
  const m = PY_FIRST_FRAME.exec(text.slice(text.indexOf("Traceback (most recent call last):")));
  const call = PY_PATH_CALL.exec(m?.[2]?.trim() ?? "");
  if (!m || !call) return null;
  const [, fn, quote, filePath, base, ext] = call as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const data = report.blocks
    .slice(0, at)
    .filter(
      (b) =>
        (b.kind === "output" ||
          (b.kind === "code" && b.language !== "python" && b.language !== "javascript")) &&
        b.section !== "expected" &&
        (b.fence?.trim().toLowerCase() === ext.toLowerCase() ||
          new RegExp(`\\bfile\\b|\\.${ext}\\b`, "i").test(b.lead ?? "")),
    )
    .pop();
  if (!data) return null;
  const code = `${fn}(${quote}${base}${quote})`;
  return {
    language: "python",
    code,
    files: { [base]: data.value.endsWith("\n") ? data.value : `${data.value}\n` },
    note: `the report has no code, but its traceback's first frame (the top level of \`${m[1]}\`) shows \`${fn}\` reading \`${filePath}\`, the file the report shows before it: wrote that file as \`${base}\` and ran \`${code}\``,
  };
}

/** The statement a report's stack trace shows failing, when the report has no code of its own. */
export function traceStatement(report: ParsedReport): TraceStatement | null {
  const traces = report.blocks
    .filter((b) => b.section !== "expected" && (b.kind === "traceback" || b.kind === "error-output"))
    .map((b) => b.value);
  const words = `${report.title}\n${report.proseWithCode}`.toLowerCase();
  const named = (pkg: string) =>
    report.versions.some((v) => v.name === pkg) ||
    new RegExp(`(?<![\\w@/.-])${escapeRegExp(pkg)}(?![\\w-])`).test(words);
  for (const text of [...traces, report.prose.actual, report.prose.other, report.prose.steps]) {
    const found = nodeLoadTime(text, named) ?? pythonFirstFrame(text);
    if (found) return found;
  }
  return pythonDataCall(report);
}

/** The statement as a code block of the report, so it is completed like any other. */
export function traceBlock(report: ParsedReport, st: TraceStatement): ReportBlock {
  return {
    index: report.blocks.length,
    fence: null,
    value: st.code,
    kind: "code",
    language: st.language,
    section: "steps",
    filename: null,
    line: 0,
    checks: [],
    runValue: st.code,
    usesEcho: false,
    plain: false,
    lead: null,
    shellRun: null,
  };
}
