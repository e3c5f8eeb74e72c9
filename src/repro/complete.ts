/**
 * Turn the report's code into a runnable program without changing the reporter's logic: transcripts become
 * scripts, blocks that form one program are combined, missing imports of named packages and standard modules
 * are added, an entry point is added where a `main` is defined but never called, top-level await is made legal.
 * Every change is listed in `completions`.
 */
import { cdnImportsAsPackages } from "./cdn-imports.ts";
import { escapeRegExp } from "../core/regexp.ts";
import { scanCode } from "./code-scan.ts";
import { loadPluginAfterHost } from "./host-plugin.ts";
import { beforeOperator, shellWords } from "../core/shell-words.ts";
import {
  NODE_BUILTINS,
  NPM_GLOBALS,
  NPM_IDENTIFIERS,
  NPM_NAMED_EXPORTS,
  npmIdentifier,
  npmPackageOf,
  PYTHON_ALIASES,
  PYTHON_FROM_IMPORTS,
  PYTHON_IMPORT_TO_PACKAGE,
  PYTHON_STDLIB,
} from "./known-modules.ts";
import {
  jsBindingLines,
  jsDefaultAliases,
  jsFreeBindings,
  jsUndeclaredAssignments,
  needsCommonJs,
  pythonImportName,
  pythonPackageImports,
} from "./repository-binding.ts";
import {
  guardedFromImport,
  guardedImport,
  knownRoot,
  moduleNamedFor,
  stdlibModuleCalledFor,
  packageLookup,
  pythonFreeNames,
  submoduleImports,
  wholeImports,
  PYTHON_KEYWORDS,
} from "./python-names.ts";
import { testGlobalsNeeded, testGlobalsPrelude } from "./test-globals.ts";
import { PYTHON_MODULE_CLASS_ATTRS, PYTHON_STDLIB_MODULE_NAMES } from "./python-stdlib.ts";
import { traceBlock, traceStatement } from "./trace-program.ts";
import { sameProduct } from "./versions.ts";
import { annotate, JS_ECHO_PRELUDE, JS_ECHO_PRELUDE_ESM, PY_ECHO_PRELUDE } from "./annotations.ts";
import { unitWithoutEdgeProse } from "./edge-prose.ts";
import { labelledData } from "./labelled-data.ts";
import {
  installedPackagePaths,
  ownPackagePaths,
  ownPackageSpecifier,
  ownSourceTreePaths,
} from "./own-package-path.ts";
import { type ParsedReport, plainBlockAsPython, type ReportBlock } from "./parse-report.ts";
import { nodeScriptFromTranscript, parseTranscript, pythonScriptFromTranscript } from "./transcript.ts";

export type ProgramLanguage = "python" | "javascript" | "typescript";

export interface Program {
  language: ProgramLanguage;
  runtime: "python" | "node";
  /** Source files of the program, workspace-relative (the entry included), in the report's language. */
  files: Record<string, string>;
  /** The entry file, e.g. `reproduction.py`, `reproduction.cjs`, `reproduction.mjs`, `reproduction.ts`. */
  entry: string;
  /** For JS/TS: the module system the entry runs as. */
  moduleFormat: "esm" | "cjs" | null;
  /** Deterministic changes made, each a short sentence. */
  completions: string[];
  /** Third-party packages the program imports (npm or PyPI names). */
  dependencies: string[];
  ecosystem: "npm" | "pypi";
  /** Placeholders left by the reporter (`YOUR_API_KEY`, `# your code here`). */
  placeholders: string[];
  /** Command-line arguments the report runs the script with (`node index.js -i=x` → `["-i=x"]`). */
  args?: string[];
  /** The interpreter's own options the report types (`python3 -O -c …` → `["-O"]`), given to it before the entry. */
  interpreterFlags?: string[];
}

const RUNNABLE = new Set(["code", "python-transcript", "node-transcript"]);

function echoNote(blocks: ReportBlock[]): string {
  const made = blocks.find((b) => b.madeFrom)?.madeFrom;
  if (made) return `wrote the calls from the report's words (${made}) and printed each result`;
  const lines = blocks
    .flatMap((b) => [
      ...new Set(b.checks.filter((c) => c.kind === "output").map((c) => `${c.line}\u0000${c.code}`)),
    ])
    .map((k) => k.slice(k.indexOf("\u0000") + 1));
  if (lines.length === 0)
    return "printed the value of the expression the report quotes, as a REPL would echo it";
  return `printed the value of ${lines.length === 1 ? `\`${lines[0]}\`` : `${lines.length} annotated lines`}, which the report annotates with a comment (as a REPL would echo it)`;
}

function familyOf(b: ReportBlock): "python" | "js" | null {
  if (b.language === "python") return "python";
  if (b.language === "javascript" || b.language === "typescript") return "js";
  return null;
}

/** Strings and comments blanked out, so name scans do not read inside them. */
function codeOnly(code: string, language: "python" | "js"): string {
  const comment = language === "python" ? /#[^\n]*/g : /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
  return (
    code
      .replace(/("""|''')[\s\S]*?\1/g, '""')
      // A template literal's text is a string; its `${…}` substitutions are code (`${decodeHTML(text)}`).
      .replace(/`(?:\\.|[^`\\])*`/g, (t) => {
        if (language !== "js") return t;
        const subs = [...t.matchAll(/\$\{([^{}`]*(?:\{[^{}`]*\}[^{}`]*)*)\}/g)].map((m) => m[1]!);
        return subs.length > 0 ? `("", ${subs.join(", ")})` : '""';
      })
      .replace(/"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, '""')
      .replace(comment, "")
  );
}

const PLACEHOLDER_RE =
  /\b(YOUR_[A-Z_]+|<your[^>]*>|your[-_ ](api[-_ ]?key|token|code here|password)|TODO: fill|xxx+|\.\.\.\s*# ?(your|rest|more))\b|#\s*(your|more|rest of( the)?) code( here)?|\/\/\s*(your|more|rest of( the)?) code( here)?/gi;

export function findPlaceholders(code: string): string[] {
  return [...new Set([...code.matchAll(PLACEHOLDER_RE)].map((m) => m[0].trim()))];
}

/** A code block that is an excerpt: it opens or closes with a line of its own that is only `...` or `…`. */
export function isFragment(b: ReportBlock): boolean {
  if (b.kind !== "code") return false;
  const lines = b.value.split("\n").filter((l) => l.trim() !== "");
  const elided = (l: string | undefined) => l !== undefined && /^(?:\.{3,}|…)$/.test(l.trim());
  return lines.length > 1 && (elided(lines[0]) || elided(lines[lines.length - 1]));
}

/** The blocks the program is made of: runnable fenced blocks, else code pasted without a fence. */
/**
 * The last sentence of a block's lead introduces the reporter's way around the bug: "For now I work around it
 * with:", "My workaround:", "As a temporary fix I use:".
 */
export function workaroundLead(lead: string | null): boolean {
  if (!lead) return false;
  const last =
    lead
      .trim()
      .split(/(?<=[.!?])\s+/)
      .pop() ?? "";
  return (
    /:\s*$/.test(last) &&
    /\b(?:work(?:ing|ed)?[- ]?arounds?|work(?:ing|ed)? (?:it|this|that) around|as a (?:temporary |quick )?(?:fix|hack)|(?:my|our) (?:current |temporary )?(?:fix|hack|patch))\b/i.test(
      last,
    ) &&
    !/\b(?:no|without|doesn't|does not|didn't|did not|can't|cannot)\b/i.test(last)
  );
}

/**
 * The report's code to run: the blocks of the first language family, or of `family` when given (package-use.ts
 * asks whether the other language's code uses the report's package).
 */
export function programBlocks(report: ParsedReport, family?: "python" | "js"): ReportBlock[] {
  const code = report.blocks.filter(
    (b) => RUNNABLE.has(b.kind) && familyOf(b) !== null && (!family || familyOf(b) === family),
  );
  const outside = code.filter((b) => b.section !== "expected");
  // An issue template's "Expected behavior" heading over the report's only code (the reproducer pasted under
  // the wrong heading): it is still the code to run. Code beside other code there is the expected version.
  const runnable =
    outside.length > 0 ? outside : code.filter((b) => b.kind === "code" && !b.plain && !isFragment(b));
  // Code pasted without a fence counts only when the report has no fenced code at all (a fenced block of
  // imports alone does not count: "this is how I import it" next to an inline call).
  const importsOnly = (b: ReportBlock) =>
    b.value
      .split("\n")
      .filter((l) => l.trim() !== "")
      .every((l) =>
        /^\s*(import\s|from\s+\S+\s+import\s|(const|let|var)\s+[\w${}\s,]+=\s*require\(|\/\/|#)/.test(l),
      );
  // An excerpt of the reporter's own code base (`...` lines before or after it) is context, not the
  // reproducer, when the report has a block that stands on its own.
  const whole = runnable.filter((b) => !isFragment(b));
  const standing = whole.length > 0 ? whole : runnable;
  // A block its words introduce as the reporter's workaround ("For now I work around it with:") is the way
  // around the bug, not the code that shows it, when another block does (a function body pasted bare in it
  // would not even parse at top level).
  // Only a block of the same standing counts as that other block: code pasted without a fence (an inline
  // `Object.entries(x).sort()` in the sentence that leads the fenced block) never displaces a fenced block.
  const fencedStanding = standing.filter((b) => !b.plain);
  const pool = fencedStanding.some((b) => !importsOnly(b)) ? fencedStanding : standing;
  const shown = pool.filter((b) => !workaroundLead(b.lead));
  const candidates = shown.some((b) => !importsOnly(b)) ? shown : pool;
  const fenced = candidates.filter((b) => !b.plain);
  const units = fenced.some((b) => !importsOnly(b)) ? fenced : candidates;
  const first = units[0];
  return first ? units.filter((b) => familyOf(b) === familyOf(first)) : [];
}

/** Build the program from the report; null when the report holds nothing runnable. */
/**
 * Data the code names and the report quotes under that name's label (labelled-data.ts): defined, as a string, on
 * the program's first line (after Python's `from __future__` imports), and said so.
 */
function bindLabelledData(program: Program, code: string, language: "python" | "js", prose: string): void {
  const found = labelledData(code, language, prose);
  const file = program.files[program.entry];
  if (found.length === 0 || file === undefined) return;
  const lines = found.map((d) =>
    language === "js"
      ? `const ${d.name} = ${JSON.stringify(d.value)};`
      : `${d.name} = ${JSON.stringify(d.value)}`,
  );
  const future = language === "python" ? /^(?:from __future__ import [^\n]*\n)*/.exec(file)![0] : "";
  program.files[program.entry] = `${future}${lines.join("\n")}\n${file.slice(future.length)}`;
  for (const d of found)
    program.completions.push(
      `defined \`${d.name}\`, which the code uses and never defines, as the text the report quotes after "${d.label.replace(/`[^`]*`/g, "").trim()}"`,
    );
}

export function completeProgram(
  report: ParsedReport,
  /** The run of the script whose output is the claim: the program runs with its arguments. */
  claimed: { file: string; args: string[] } | null = null,
  /** The package the issue's repository publishes, when known: its binding may be used without an import. */
  repositoryPackage?: string,
  /** Only the code of this language family (package-use.ts); the first family's otherwise. */
  only?: "python" | "js",
): Program | null {
  // A report filed on a Python implementation's repository (cpython, pypy, …) is about Python: code it pastes
  // without a fence is Python, whatever JavaScript it also happens to parse as, unless the report names Node.
  if (
    repositoryPackage &&
    PYTHON_IMPLEMENTATIONS.has(repositoryPackage.toLowerCase()) &&
    report.runtime?.name !== "node"
  )
    report = { ...report, blocks: report.blocks.map(plainBlockAsPython) };
  const found = programBlocks(report, only);
  if (only && found.length === 0) return null;
  // No code of its own: the statement its stack trace shows failing, when the trace shows one whole.
  const traced = found.length === 0 ? traceStatement(report) : null;
  const units = traced ? [traceBlock(report, traced)] : found;
  const first = units[0];
  if (!first) return null;
  const family = familyOf(first)!;
  const mine = units.filter((b) => familyOf(b) === family);
  // Identical blocks pasted twice (e.g. in "Steps" and again in "Code") run once.
  // Identical code pasted twice runs once; so does one session shown twice (on two versions, say): the same
  // statements typed, whatever each printed.
  const key = (b: ReportBlock) =>
    b.kind === "python-transcript" || b.kind === "node-transcript"
      ? `transcript:${parseTranscript(b.value, b.kind === "python-transcript" ? "python" : "node").inputs.join("\n")}`
      : b.value.trim();
  // Each block's key once (a key parses a transcript): comparing every pair re-parsed 2,400 one-line sessions 5.8
  // million times, 17 s of host CPU.
  const seen = new Set<string>();
  const unique = mine.filter((b) => {
    const k = key(b);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  // A `-c`/`-e` program typed at a prompt ran exactly as typed: it needs nothing from the report's other code but
  // the files it may import by name. Another block beside it (a quoted excerpt of the library's own source, a
  // method body using `self`) is context, never code to run before it (issue 12, hold25).
  const inline = (b: ReportBlock) => b.kind === "code" && b.shellRun && !b.shellRun.script && !b.shellRun.cli;
  const sessionOnly = unique.some(inline) ? unique.filter((b) => inline(b) || b.filename) : null;
  let contextBlocks = 0;
  if (sessionOnly && sessionOnly.length < unique.length) {
    contextBlocks = unique.length - sessionOnly.length;
    unique.splice(0, unique.length, ...sessionOnly);
  }
  // A sentence pasted on a code block's first or last line is the reporter's, not code (edge-prose.ts).
  const proseDropped: string[] = [];
  for (let i = 0; i < unique.length; i++) {
    const { unit, dropped } = unitWithoutEdgeProse(unique[i]!);
    unique[i] = unit;
    proseDropped.push(...dropped);
  }
  const knownPackages = report.versions.map((v) => v.name);
  // The repository's package: where the report never names it, its binding is added by the rules of
  // repository-binding.ts; the report's other blocks and inline code say how the reporter imports it.
  // Its ecosystem is the report's: a report that names Python as its runtime is not about an npm package of the
  // repository's name, and one that names Node.js not about a PyPI one (the package is a guess from the
  // repository; the report's own words say which world it lives in).
  const otherWorld = report.runtime !== null && (report.runtime.name === "python") !== (family === "python");
  const repository =
    // A Python implementation publishes the language, never an npm package of its name (`cpython@0.10.1`).
    repositoryPackage &&
    !otherWorld &&
    (family === "python" || !PYTHON_IMPLEMENTATIONS.has(repositoryPackage.toLowerCase()))
      ? {
          name: repositoryPackage,
          texts: [...report.blocks.map((b) => b.value), ...report.inlineCode.map((c) => c.value)],
        }
      : null;
  const program =
    family === "python"
      ? completePython(
          unique,
          knownPackages,
          repository,
          [
            report.title,
            report.proseWithCode,
            ...report.blocks.map((b) => b.value),
            ...report.inlineCode.map((c) => c.value),
          ],
          !traced,
        )
      : completeJs(unique, knownPackages, repository);
  if (traced) program.completions.unshift(traced.note);
  if (contextBlocks > 0)
    program.completions.push(
      `ran the code typed at the report's prompt as it ran there, alone; ${contextBlocks === 1 ? "the other code block is" : `${contextBlocks} other code blocks are`} context, not part of that command`,
    );
  bindLabelledData(
    program,
    unique.map((b) => b.runValue).join("\n"),
    family === "python" ? "python" : "js",
    report.proseWithCode,
  );
  // A plugin named for its host (`moment-timezone` beside the code's `moment`) is loaded after the host.
  if (!otherWorld) loadPluginAfterHost(program, repositoryPackage);
  // The repository's package is installed only when the code uses it (imports it, or names it binds from it);
  // otherwise the code runs without it, and the script says so.
  if (
    repositoryPackage &&
    !PYTHON_IMPLEMENTATIONS.has(repositoryPackage.toLowerCase()) &&
    !program.dependencies.some((d) => d.toLowerCase() === repositoryPackage.toLowerCase())
  )
    program.completions.push(
      otherWorld
        ? `ran without \`${repositoryPackage}\`, the package of the issue's repository: the report names ${report.runtime!.name === "python" ? "Python" : "Node.js"}, and the code here runs as ${family === "python" ? "Python" : "JavaScript"}`
        : `ran without \`${repositoryPackage}\`, the package of the issue's repository: the code never imports it or uses a name from it`,
    );
  if (proseDropped.length > 0)
    program.completions.unshift(
      `left out ${proseDropped.map((l) => `\`${l.trim()}\``).join(", ")}: a sentence of the report pasted inside the code block, not code`,
    );
  if (traced?.files) Object.assign(program.files, traced.files);
  const data = dataFilesRead(report, units, program);
  if (data.length > 0) {
    for (const b of data) program.files[b.filename!] = `${b.value.trimEnd()}\n`;
    program.completions.push(
      `wrote ${data.map((b) => `\`${b.filename}\``).join(", ")} beside the program, as the report shows ${data.length > 1 ? "them" : "it"}: the code reads ${data.length > 1 ? "them" : "it"} by that name`,
    );
  }
  const invocation = claimedCommandLine(report, family, claimed) ?? commandLineOf(report, family);
  // The script keeps the name the report runs it by (`node test.js` → test.js), so what it prints of its own
  // name (`'$0': 'test.js'`, a stack's file) is what the report shows. CommonJS only: a `.js` file is read as
  // CommonJS here, so an ES module keeps its `.mjs` entry.
  const named = invocation
    ? /^(?:\$\s*)?(?:\S+\s+|\.\/)((?:[\w.-]+\/)*[\w.-]+\.c?js)\b/.exec(invocation.line)?.[1]
    : undefined;
  if (
    named &&
    family === "js" &&
    program.moduleFormat === "cjs" &&
    program.entry === "reproduction.cjs" &&
    !(named in program.files) &&
    !named.includes("/")
  ) {
    program.files[named] = program.files[program.entry]!;
    delete program.files[program.entry];
    program.entry = named;
    program.completions.push(`named the script \`${named}\`, as the report runs it`);
  }
  if (invocation && invocation.args.length > 0) {
    program.args = invocation.args;
    program.completions.push(
      `ran it with the arguments the report gives (\`${invocation.line}\`): ${invocation.args.map((a) => `\`${a}\``).join(" ")}`,
    );
    if (family === "js") addCommandLineParse(program);
  }
  applyInterpreterFlags(program, report, family);
  return program;
}

/**
 * A flag that cannot apply in the sandbox, with why: an interactive session or a debugger waits on a terminal or a
 * client no run has, a watcher never ends, and isolating CPython from its environment hides the packages installed
 * for the run (PYTHONPATH). Each is named in the completions, never dropped silently.
 */
function flagUnusable(flag: string, program: Program): string | null {
  if (program.runtime === "python") {
    if (/^-[^-]*i/.test(flag))
      return "it opens an interactive prompt after the code, and the run has no terminal";
    if (/^-[^-WX]*[IE]/.test(flag) && program.dependencies.length > 0)
      return "it makes Python ignore PYTHONPATH, where the run's installed packages are";
    return null;
  }
  if (/^--(?:inspect|debug)/.test(flag)) return "it waits for a debugger, and the run has none";
  if (/^--watch/.test(flag)) return "it watches files and never ends";
  if (flag === "-i" || flag === "--interactive") return "it opens a REPL, and the run has no terminal";
  return null;
}

/**
 * The interpreter's own options the report types on the command line that ran its code (`$ python3 -O -c …`,
 * `$ node --no-warnings x.js`, issue 12, hold25): the run is given them, said in the completions, so `-O`
 * dropping an `assert` or `-W error` turning a warning into an error shows as it did for the reporter.
 */
function applyInterpreterFlags(program: Program, report: ParsedReport, family: "python" | "js"): void {
  const runs = report.blocks
    .map((b) => b.shellRun)
    .filter(
      (r): r is NonNullable<ReportBlock["shellRun"]> =>
        r !== null && (r.flags?.length ?? 0) > 0 && (r.runtime === "python") === (family === "python"),
    );
  const first = runs[0];
  if (!first?.flags) return;
  const typed = first.flags;
  // `-W error` is one option in two words: pair a `-W`/`-X`/`-r`/`-C` or a long option taking a value with it.
  const options: string[][] = [];
  for (let i = 0; i < typed.length; i++) {
    const w = typed[i]!;
    const takesNext =
      /^-[WXrC]$/.test(w) ||
      /^--(?:require|import|loader|experimental-loader|conditions|input-type|title|env-file|redirect-warnings|openssl-config|icu-data-dir|check-hash-based-pycs)$/.test(
        w,
      );
    options.push(takesNext && i + 1 < typed.length ? [w, typed[++i]!] : [w]);
  }
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const o of options) {
    const why = flagUnusable(o[0]!, program);
    if (why) dropped.push(`\`${o.join(" ")}\` (${why})`);
    else kept.push(...o);
  }
  const others = runs.filter((r) => r.flags!.join(" ") !== typed.join(" "));
  if (kept.length > 0) {
    program.interpreterFlags = kept;
    program.completions.push(
      `ran ${program.runtime === "python" ? "python3" : "node"} with the options the report types (\`${first.interpreter} ${typed.join(" ")}\`): ${kept.map((f) => `\`${f}\``).join(" ")}`,
    );
  }
  if (dropped.length > 0)
    program.completions.push(`did not pass ${dropped.join(", ")}: it cannot apply in the sandbox`);
  if (others.length > 0)
    program.completions.push(
      `another command line of the report types other options (\`${others[0]!.interpreter} ${others[0]!.flags!.join(" ")}\`); the first one's were used`,
    );
}

/** A data file's name: what a program reads, never code of its own. */
const DATA_FILE = /^[\w.-]+\.(?:ini|cfg|conf|json|txt|csv|tsv|ya?ml|toml|xml|env|properties)$/;

/**
 * The report's data files the program opens: a block that is not code, shown under its file name
 * (`**config.ini**`, "my settings.json:"), outside the expected behaviour, whose name the code writes as a string
 * literal (`config.read("config.ini")`). Without it the program fails on a missing file, a failure of the
 * sandbox's, not the report's.
 */
function dataFilesRead(report: ParsedReport, units: ReportBlock[], program: Program): ReportBlock[] {
  const code = Object.values(program.files).join("\n");
  const seen = new Set<string>();
  return report.blocks.filter((b) => {
    const name = b.filename;
    if (!name || !DATA_FILE.test(name) || units.includes(b) || b.section === "expected") return false;
    if (b.kind !== "output" || name in program.files || seen.has(name)) return false;
    const literal = new RegExp(`(["'\`])(?:\\./)?${name.replace(/[.]/g, "\\.")}\\1`);
    if (!literal.test(code)) return false;
    seen.add(name);
    return true;
  });
}

/** The names the code binds to commander's export or to a `new Command()` (each pattern linear: one bounded run). */
function commanderBindings(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(
    /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:require\(\s*['"]commander['"]|new\s+(?:[\w$]+\.)?Command\b)/g,
  ))
    names.add(m[1]!);
  for (const m of code.matchAll(/\bimport\s+([A-Za-z_$][\w$]*)\s+from\s+['"]commander['"]/g))
    names.add(m[1]!);
  const lists = [
    ...code.matchAll(/\{([^{}]{0,200})\}\s*=\s*require\(\s*['"]commander['"]/g),
    ...code.matchAll(/\bimport\s*\{([^{}]{0,200})\}\s*from\s*['"]commander['"]/g),
  ];
  for (const m of lists)
    for (const part of m[1]!.split(",")) {
      const local = part
        .split(/\s+as\s+|:/)
        .pop()
        ?.trim();
      if (local && /^[A-Za-z_$][\w$]*$/.test(local)) names.add(local);
    }
  return names;
}

/** Methods that declare a commander program's options and commands (`program.option('-s, --silent')`). */
const COMMANDER_DECLARATION =
  /^[ \t]*(?:_echo\()?([A-Za-z_$][\w$]*)\s*\.\s*(?:option|requiredOption|command|version|arguments|argument|description|usage|allowUnknownOption)\s*\(/m;

/**
 * A commander program the report runs with arguments but never parses (`program.option(…)` and then
 * `node index.js -stuff`): the snippet stops before the line every commander program ends with, and a reader
 * adds it, as `main()` is added to a snippet that defines it. Only for a binding the snippet gets from
 * `commander`, and only when no `.parse(` is there.
 */
function addCommandLineParse(program: Program): void {
  const code = program.files[program.entry];
  if (code === undefined || /\.parse(?:Async)?\s*\(/.test(code)) return;
  if (!/\brequire\(\s*['"]commander['"]\s*\)|\bfrom\s+['"]commander['"]/.test(code)) return;
  const name = COMMANDER_DECLARATION.exec(code)?.[1];
  if (!name || name === "_echo") return;
  if (!commanderBindings(code).has(name)) return;
  program.files[program.entry] = `${code.trimEnd()}\n\n${name}.parse(process.argv);\n`;
  program.completions.push(
    `added \`${name}.parse(process.argv)\`: the snippet declares the commander program's options but never parses the arguments it is run with`,
  );
}

/** The claimed run's command line, when the report runs the script as a file of this family. */
function claimedCommandLine(
  report: ParsedReport,
  family: "python" | "js",
  claimed: { file: string; args: string[] } | null,
): { line: string; args: string[] } | null {
  if (!claimed || (family === "python") !== /\.py$/.test(claimed.file)) return null;
  const run = report.blocks.find(
    (b) =>
      b.shellRun?.script?.file === claimed.file &&
      b.shellRun.script.args.join("\u0000") === claimed.args.join("\u0000"),
  )?.shellRun;
  if (!run) return null;
  const line = `${run.interpreter} ${[claimed.file, ...claimed.args].join(" ")}`;
  return { line, args: claimed.args };
}

/**
 * How the report runs the script: `$ node index.js -i=x`, `python test.py -c`, `npm start -- -stuff`, in a shell
 * block, an output block or inline code. The first invocation that passes arguments wins.
 */
export function commandLineOf(
  report: ParsedReport,
  family: "python" | "js",
): { line: string; args: string[] } | null {
  const re =
    family === "python"
      ? /^\s*(?:\$\s*)?(?:python[\d.]*|py)\s+(?!-[cm]\b)[\w./-]+\.py\b\s*(.*)$/
      : /^\s*(?:\$\s*)?(?:(?:node|npx\s+(?:ts-node|tsx)|ts-node|tsx)\s+(?!-[ep]\b|-pe\b)[\w./-]+\.[cm]?[jt]s\b|\.\/[\w./-]+\.[cm]?js\b|npm\s+(?:start|run\s+[\w:-]+)\s+--)\s*(.*)$/;
  const lines = [
    ...report.blocks
      .filter((b) => b.kind === "shell" || b.kind === "output")
      .flatMap((b) => b.value.split("\n")),
    // An invocation quoted in a sentence that calls its result fine ("With `node t.js -n x` all is fine") is
    // the run beside the claim, never the claim.
    ...report.inlineCode.filter((c) => !saidToWork(c.value, c.context)).map((c) => c.value),
  ];
  let first: { line: string; args: string[] } | null = null;
  for (const line of lines) {
    const m = re.exec(line);
    if (!m) continue;
    const args = shellWords(beforeOperator(m[1] ?? "", "|>;&"));
    const found = { line: line.trim().replace(/^\$\s*/, ""), args };
    if (args.length > 0) return found;
    first ??= found;
  }
  return first;
}

/** The sentence of `context` that quotes `value` says that run behaves ("all is fine", "works as expected"). */
/**
 * Where the sentence holding `at` ends its predecessor: the last `.`, `!` or `?` before `at` when whitespace follows
 * it, else -1. A backward scan, linear in the distance: `/[.!?]\s+[^.!?]*$/` on the text before `at` restarted at
 * every punctuation mark and space (a report with 20,000 spaces and 1,500 inline codes held the host for minutes).
 */
function sentenceBreakBefore(text: string, at: number): number {
  for (let i = at - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 46 || c === 33 || c === 63) return i + 1 < at && /\s/.test(text.charAt(i + 1)) ? i : -1;
  }
  return -1;
}

function saidToWork(value: string, context: string): boolean {
  const at = context.indexOf(value);
  if (at < 0) return false;
  const start = Math.max(context.lastIndexOf("\n", at), sentenceBreakBefore(context, at)) + 1;
  const rest = context.slice(at + value.length);
  const end = rest.search(/[.!?](?:\s|$)|\n/);
  const sentence = context.slice(start, at + value.length + (end < 0 ? rest.length : end));
  return (
    /\b(?:(?:all|everything)\s+is\s+(?:fine|ok(?:ay)?|good)|works?(?:\s+(?:fine|well|correctly|as\s+expected))?|as\s+expected|correctly)\b/i.test(
      sentence,
    ) && !/\b(?:not|n't|never|wrong|incorrect(?:ly)?|broken|fails?|but)\b/i.test(sentence)
  );
}

const JS_KEYWORDS = new Set(
  "if for while switch catch function return typeof await new delete void throw yield import super with do else in of instanceof case async require".split(
    " ",
  ),
);

function splitNamed(units: ReportBlock[], ext: RegExp): { named: ReportBlock[]; main: ReportBlock[] } {
  const named = units.filter((b) => b.filename && ext.test(b.filename) && b.kind === "code");
  const entryName = named.find((b) =>
    /^(main|repro|reproduce|run|index|app|test)\.\w+$/.test(b.filename!.split("/").pop()!),
  );
  const unnamed = units.filter((b) => !named.includes(b));
  if (named.length > 0 && unnamed.length === 0) {
    const entry = entryName ?? named[named.length - 1]!;
    return { named: named.filter((b) => b !== entry), main: [entry] };
  }
  return { named, main: unnamed };
}

// ---------------------------------------------------------------- Python

function pythonBoundNames(code: string): Set<string> {
  const names = new Set<string>();
  // `import` and its names share a line: a bare `import ` line binds nothing (it does not parse), and the next
  // line (`class Foo(…):`) is never read as the module list.
  for (const m of code.matchAll(/^[ \t]*import[ \t]+([^\n#]+)/gm)) {
    for (const part of (m[1] ?? "").split(",")) {
      const as = /\s+as\s+(\w+)/.exec(part);
      names.add(as?.[1] ?? part.trim().split(".")[0]!.trim());
    }
  }
  for (const m of code.matchAll(/^[ \t]*from\s+[\w.]+\s+import\s+\(?([^\n#)]+)/gm)) {
    for (const part of (m[1] ?? "").split(",")) {
      const as = /\s+as\s+(\w+)/.exec(part);
      names.add(as?.[1] ?? part.trim());
    }
  }
  for (const m of code.matchAll(/^[ \t]*(?:async\s+)?(?:def|class)\s+(\w+)/gm)) names.add(m[1]!);
  // Assignment targets (`a, b = …`, `x: int = …`), line by line with one greedy run: the pattern that had
  // `^\s*`, a lazy run and `\s*` over the same spaces was cubic in a line of spaces (a report's 60,000-space
  // line held the host for minutes, found by the fourth red team).
  for (const line of code.split("\n")) {
    const m = /^([\w, \t]+)(?::[^=\n]+)?=(?!=)/.exec(line.trimStart());
    if (m) for (const n of m[1]!.split(",")) names.add(n.trim());
  }
  for (const m of code.matchAll(/\b(?:for|as)\s+(\w+)/g)) names.add(m[1]!);
  // Every name of a tuple target (`for key, rows in …`, `for (i, x) in …`, `with … as (a, b)`), a lambda's
  // parameters (`lambda x, y=1: …`) and a walrus target (`(n := len(a))`): bound where they are used, never a
  // name the code takes from a package.
  for (const m of code.matchAll(
    /\b(?:for|as)\s+\(?([\w \t,]{1,200}?)\)?\s+in\b|\bas\s+\(([\w \t,]{1,200})\)/g,
  ))
    for (const n of (m[1] ?? m[2] ?? "").split(",")) if (/^\w+$/.test(n.trim())) names.add(n.trim());
  for (const m of code.matchAll(/\blambda\b([^:\n]{0,200}):/g))
    for (const p of m[1]!.split(",")) {
      const n = p.trim().split("=")[0]!.replace(/^\*+/, "").trim();
      if (/^\w+$/.test(n)) names.add(n);
    }
  for (const m of code.matchAll(/\b(\w+)\s*:=/g)) names.add(m[1]!);
  for (const m of code.matchAll(/\bdef\s+\w+\(([^)]*)\)/g))
    for (const p of m[1]!.split(",")) names.add(p.trim().split(/[:=]/)[0]!.replace(/^\*+/, "").trim());
  return names;
}

/**
 * Modules the snippet writes itself before it imports or runs them (`open("helper.py", "w")`, `Path("pkg/__init__.py")
 * .write_text(…)`): the report's own files, made at run time, never a package to look up in an index (issue 12,
 * hold25). Only when the code writes a file at all (a write mode, `write_text`, `write_bytes`): a `.py` path it only
 * reads or runs (`run([sys.executable, "setup.py"])`) names no module it makes.
 */
export function pythonModulesWritten(code: string): string[] {
  const writes =
    /\bopen\s*\([^)\n]*,\s*(?:mode\s*=\s*)?[rbt+]*['"][rbt+]*[wax]/.test(code) ||
    /\.write_(?:text|bytes)\s*\(/.test(code);
  if (!writes) return [];
  const names = new Set<string>();
  for (const m of code.matchAll(
    /[fbr]?(['"])(?:[^'"\n]*?[/\\])?(?!__init__\.)([A-Za-z_]\w*)(?:\.py|[/\\]__init__\.py)\1/g,
  ))
    names.add(m[2]!);
  return [...names];
}

function pythonImportedModules(code: string): string[] {
  const mods: string[] = [];
  // On the `import` line itself: a bare `import ` followed by `class Foo:` names no module `class`.
  for (const m of code.matchAll(/^[ \t]*import[ \t]+([^\n#;]+)/gm)) {
    for (const part of (m[1] ?? "").split(",")) mods.push(part.trim().split(/[\s.]/)[0]!);
  }
  for (const m of code.matchAll(/^[ \t]*from[ \t]+(\w+)[\w.]*[ \t]+import\b/gm)) mods.push(m[1]!);
  // `_thread`, `_io`, `__future__`: underscore modules are the interpreter's own. A keyword (`import class`)
  // is no module name: the line does not parse, which the parse check reports as a question.
  return [
    ...new Set(
      mods.filter((m) => m && /^[A-Za-z_]\w*$/.test(m) && !m.startsWith("_") && !PYTHON_KEYWORDS.has(m)),
    ),
  ];
}

function pythonMissingImports(code: string, knownPackages: string[]): string[] {
  const scan = codeOnly(code, "python");
  const bound = pythonBoundNames(scan);
  const lines: string[] = [];
  const used = new Set<string>();
  for (const m of scan.matchAll(/(?<![\w.])([A-Za-z_]\w*)\s*\./g)) used.add(m[1]!);
  const namedImports = new Set(knownPackages.map((p) => p.toLowerCase().replace(/-/g, "_")));
  for (const name of used) {
    if (bound.has(name)) continue;
    if (PYTHON_ALIASES[name]) lines.push(PYTHON_ALIASES[name]);
    else if (readsClassOnly(scan, name)) lines.push(`from ${name} import ${name}`);
    else if (PYTHON_STDLIB.has(name) || namedImports.has(name)) lines.push(`import ${name}`);
  }
  const fromBy = new Map<string, string[]>();
  for (const [name, mod] of Object.entries(PYTHON_FROM_IMPORTS)) {
    if (bound.has(name)) continue;
    if (
      new RegExp(
        `(?<![\\w.])${name}\\s*\\(|@${name}\\b|:\\s*${name}\\b|\\b${name}\\[|^class\\s+\\w+\\s*\\([^)]*\\b${name}\\b|(?<![\\w.])${name}\\.\\w`,
        "m",
      ).test(scan)
    ) {
      fromBy.set(mod, [...(fromBy.get(mod) ?? []), name]);
    }
  }
  if (/(?<![\w.])datetime\s*\(/.test(scan) && !bound.has("datetime"))
    fromBy.set("datetime", [...(fromBy.get("datetime") ?? []), "datetime"]);
  for (const [mod, names] of fromBy) lines.push(`from ${mod} import ${names.sort().join(", ")}`);
  return lines;
}

/**
 * A standard module used unbound whose every member the code reads (`datetime.fromisoformat(…)`) is its
 * same-named class's and not the module's, by the sandbox's Python (python-stdlib.ts, generated): the code means
 * the class, `from datetime import datetime` (issue 12, hold17: `import datetime` failed on our own completion).
 */
function readsClassOnly(scan: string, name: string): boolean {
  const onClass = PYTHON_MODULE_CLASS_ATTRS[name];
  if (!onClass) return false;
  const read = [...scan.matchAll(new RegExp(`(?<![\\w.])${name}\\s*\\.\\s*([A-Za-z_]\\w*)`, "g"))].map(
    (m) => m[1]!,
  );
  return read.length > 0 && read.every((a) => onClass.includes(a));
}

interface RepositoryPackage {
  name: string;
  /** Every block's and inline code's text: the report's own import lines for the package. */
  texts: string[];
}

/** Repositories of the Python language itself: their issues are about the standard library, not a package. */
const PYTHON_IMPLEMENTATIONS = new Set(["cpython", "python", "pypy", "micropython", "brython", "rustpython"]);

/**
 * Names the snippet uses from modules it never imports them from (python-names.ts): submodules of a module it
 * imports whole, names the report writes under their module, and, with the repository's package known, the rest
 * looked up in that package when the script runs.
 */
function namesFromModules(
  code: string,
  missing: string[],
  knownPackages: string[],
  repository: RepositoryPackage | null,
  reportTexts: string[],
): { lines: string[]; notes: string[] } {
  const scan = codeOnly(code, "python");
  const withImports = `${missing.join("\n")}\n${scan}`;
  const bound = pythonBoundNames(withImports);
  const lines: string[] = [];
  const notes: string[] = [];
  const submodules = submoduleImports(scan, wholeImports(withImports));
  if (submodules.length > 0) {
    lines.push(...submodules.map(guardedImport));
    notes.push(
      `imported ${submodules.map((m) => `\`${m}\``).join(", ")}, which the code reads as attributes of the package it imports (a package need not import its submodules; each only where it is a module)`,
    );
  }
  const free = pythonFreeNames(scan, bound);
  if (free.length === 0) return { lines, notes };
  const texts = [...reportTexts, code];
  const packages = [
    ...knownPackages.map((p) => pythonImportName(p)),
    ...(repository ? [pythonImportName(repository.name)] : []),
  ];
  const left: string[] = [];
  const about = reportTexts.length > 0 ? stdlibModuleAbout(reportTexts[0]!, reportTexts.slice(1)) : null;
  for (const name of free) {
    const mod = moduleNamedFor(name, texts);
    const called = mod ? null : stdlibModuleCalledFor(name, texts);
    if (!(mod && knownRoot(mod, packages)) && !called && about && /^[A-Za-z_]\w*$/.test(name)) {
      lines.push(guardedFromImport(about, name));
      notes.push(
        `imported \`${name}\` from the standard library's \`${about}\`, the module the report is about (only if this Python's \`${about}\` has it)`,
      );
      continue;
    }
    if (mod && knownRoot(mod, packages)) {
      lines.push(guardedFromImport(mod, name));
      notes.push(`imported \`${name}\` from \`${mod}\`, where the report names it`);
    } else if (called) {
      lines.push(guardedFromImport(called, name));
      notes.push(
        `imported \`${name}\` from the standard library's \`${called}\`, where the report calls it \`${called}.${name}()\` (only if this Python's \`${called}\` has it)`,
      );
    } else left.push(name);
  }
  // The repository of a Python implementation (cpython, pypy, …) publishes the language, not a package; one named
  // like a script (`vcf2msa.py`) publishes none: nothing to look names up in, nothing to install.
  const publishes =
    repository !== null &&
    !/\.py$/i.test(repository.name) &&
    !PYTHON_IMPLEMENTATIONS.has(repository.name.toLowerCase());
  const own = repository && publishes ? pythonImportName(repository.name) : null;
  if (own && /^\w+$/.test(own) && !PYTHON_STDLIB.has(own)) {
    const lookup = left.filter((n) => /^[A-Z_a-z]\w*$/.test(n) && n !== own);
    if (lookup.length > 0) {
      // The package itself imported by name: the dependency to install is read from the imports.
      if (!bound.has(own)) lines.push(`import ${own}`);
      lines.push(packageLookup(own, lookup));
      notes.push(
        `looked up ${lookup.map((n) => `\`${n}\``).join(", ")}, which the code uses without an import, in the package \`${own}\` and its submodules when the script runs (bound only where one defines it)`,
      );
    }
  }
  return { lines, notes };
}

/**
 * The one standard-library module a report is about: named in its title as a module ("the pprint module",
 * "module `pprint`") or shown as a file of a Python installation (`C:\\…\\Lib\\pprint.py`, the traceback of the module
 * run itself). Null when none, or more than one, is: a name the code leaves free is looked up there only when
 * the report points at one module.
 */
export function stdlibModuleAbout(title: string, texts: readonly string[]): string | null {
  const found = new Set<string>();
  for (const m of title.matchAll(
    /\b(?:the\s+)?`?([A-Za-z_][\w.]*)`?\s+(?:module|library)\b|\bmodule\s+`?([A-Za-z_][\w.]*)`?/gi,
  )) {
    const name = (m[1] ?? m[2])!;
    if (PYTHON_STDLIB.has(name)) found.add(name);
  }
  for (const t of [title, ...texts])
    for (const m of t.matchAll(/[\\/]lib[\\/](?:python[\d.]*[\\/])?([A-Za-z_]\w*)\.py(?![\w.])/gi))
      if (PYTHON_STDLIB_MODULE_NAMES.includes(m[1]!)) found.add(m[1]!);
  return found.size === 1 ? [...found][0]! : null;
}

/**
 * Whether a block named `<module>.py` is a standard-library module the report shows in a Python installation's
 * `lib` directory (`/usr/lib/python3.11/pprint.py`, `C:\\…\\Python310\\lib\\pprint.py`): a quotation of the library,
 * not a file of the reporter's.
 */
export function quotedLibrarySource(filename: string | null, texts: readonly string[]): boolean {
  const base = filename?.split(/[\\/]/).pop();
  const module = base && /^([A-Za-z_]\w*)\.py$/.exec(base)?.[1];
  if (!module || !PYTHON_STDLIB_MODULE_NAMES.includes(module)) return false;
  const inLib = new RegExp(
    String.raw`[\\/]lib[\\/](?:python[\d.]*[\\/])?${escapeRegExp(base)}(?![\w.])`,
    "i",
  );
  return texts.some((t) => inLib.test(t));
}

function completePython(
  units: ReportBlock[],
  knownPackages: string[],
  repository: RepositoryPackage | null = null,
  /** The report's words and code, where a name's module may be written (`urllib.parse.SplitResult`). */
  reportTexts: string[] = [],
  /** Whether a last bare expression is echoed (not for a statement read off a traceback: its error is the claim). */
  echoLast = true,
): Program {
  const completions: string[] = [];
  // A block named like a standard-library module whose file the report shows inside a Python installation (its
  // traceback's `…\Python310\lib\pprint.py`) quotes the library's own source: beside the program it would replace
  // the module the program runs.
  const quoted = units.filter((b) => quotedLibrarySource(b.filename, reportTexts));
  if (quoted.length > 0) {
    units = units.filter((b) => !quoted.includes(b));
    completions.push(
      `left out ${quoted.map((b) => `\`${b.filename}\``).join(", ")}: the report quotes the standard library's own source (its traceback runs that file from the Python installation), and a file of that name beside the program would replace the module`,
    );
  }
  const classless = classlessMethods(units);
  if (classless) completions.push(classless.note);
  const { named, main } = splitNamed(classless?.units ?? units, /\.py$/);
  const files: Record<string, string> = {};
  for (const b of named) files[b.filename!] = `${b.value.trimEnd()}\n`;
  if (named.length > 0)
    completions.push(
      `wrote ${named.map((b) => `\`${b.filename}\``).join(", ")} as separate files, as the report names them`,
    );

  const parts: string[] = [];
  let usedTranscript = false;
  for (const b of main) {
    if (b.kind === "python-transcript") {
      const script = pythonScriptFromTranscript(parseTranscript(b.value, "python"));
      parts.push(usedTranscript ? script.split("\n").slice(5).join("\n") : script);
      if (!usedTranscript)
        completions.push(
          "turned the REPL session into a script (typed expressions are echoed like the prompt does)",
        );
      usedTranscript = true;
    } else {
      parts.push(b.runValue.trimEnd());
    }
  }
  if (main.length > 1)
    completions.push(`combined ${main.length} code blocks into one program, in the report's order`);
  let code = `${parts.join("\n\n").trim()}\n`;
  // A snippet that prints nothing and ends on an expression (`slugify(txt)`, then "Out: 'x'") was typed at a
  // prompt: the value of that expression is what the reporter saw, echoed as the REPL shows it (None is not).
  let echoedLast = false;
  if (echoLast && !main.some((b) => b.usesEcho || b.kind === "python-transcript")) {
    const scan = codeOnly(code, "python");
    const lines = code.trimEnd().split("\n");
    const last = lines[lines.length - 1] ?? "";
    if (
      !/\b(?:print|raise|sys\.std(?:out|err)|logging|logger|log|pprint|display|assert)\b/.test(scan) &&
      /^[A-Za-z_][\w.]*\s*[([]/.test(last) &&
      !/[([{,\\:]\s*$/.test(last) &&
      !/^(?:if|for|while|with|def|class|return|import|from|del|pass|try|async|await|elif|else|yield)\b/.test(
        last,
      )
    ) {
      const echoed = annotate(`${last}  # => ?`, "python").code.replace(/\s*# => \?$/, "");
      if (echoed.startsWith("_echo(")) {
        lines[lines.length - 1] = echoed;
        code = `${PY_ECHO_PRELUDE}\n${lines.join("\n")}\n`;
        echoedLast = true;
        completions.push(
          `printed the value of the last expression, \`${last.trim()}\`, as the Python prompt shows it (the snippet prints nothing itself)`,
        );
      }
    }
  }
  if (!echoedLast && main.some((b) => b.usesEcho)) {
    code = `${PY_ECHO_PRELUDE}\n${code}`;
    completions.push(echoNote(main));
  }

  // A test method's lines taken out of it (`self.json.load(fp)` in a CPython test, `self` never bound): when
  // every `self.` the code reads names a standard module, the test's `self.json` is that module, read as `json`
  // (which gets its import below). Any other `self.x` leaves the code as it is.
  {
    const scan = codeOnly(code, "python");
    const selfs = [...scan.matchAll(/(?<![\w.])self\b(\s*\.\s*([A-Za-z_]\w*))?/g)];
    if (
      selfs.length > 0 &&
      !pythonBoundNames(scan).has("self") &&
      selfs.every(
        (m) =>
          m[2] !== undefined && PYTHON_STDLIB.has(m[2]) && /^\s*\./.test(scan.slice(m.index! + m[0].length)),
      )
    ) {
      code = code.replace(/(?<![\w.])self\s*\.\s*(?=[A-Za-z_])/g, "");
      completions.push(
        `read \`self.${selfs[0]![2]}\` (a test method's lines, \`self\` never defined) as the standard module \`${selfs[0]![2]}\``,
      );
    }
  }
  const missing = pythonMissingImports(code, knownPackages).filter(
    (l) => !new RegExp(`^${escapeRegExp(l)}$`, "m").test(code),
  );
  if (repository) {
    const scanned = codeOnly(code, "python");
    const bound = pythonBoundNames(scanned);
    for (const l of missing) for (const n of pythonBoundNames(l)) bound.add(n);
    missing.push(...pythonPackageImports(scanned, bound, repository.name, repository.texts));
  }
  const fromModules = namesFromModules(code, missing, knownPackages, repository, reportTexts);
  if (missing.length > 0) {
    completions.push(
      `added missing import${missing.length > 1 ? "s" : ""}: ${missing.map((l) => `\`${l}\``).join(", ")}`,
    );
  }
  if (missing.length > 0 || fromModules.lines.length > 0) {
    code = `${[...missing, ...fromModules.lines].join("\n")}\n${code}`;
    completions.push(...fromModules.notes);
  }

  // Top-level await (as typed in `python -m asyncio`): run the body in an event loop.
  const scan = codeOnly(code, "python");
  if (/^await\s|^\w[\w, ]*=\s*await\s/m.test(scan) && !/^async def main/m.test(scan)) {
    const lines = code.split("\n");
    const head = lines.filter((l) => /^(import|from)\s/.test(l));
    const body = lines.filter((l) => !/^(import|from)\s/.test(l));
    code = [
      ...(head.some((l) => /^import asyncio\b/.test(l)) ? head : ["import asyncio", ...head]),
      "",
      "",
      "async def _main():",
      ...body.map((l) => (l === "" ? "" : `    ${l}`)),
      "",
      "",
      "asyncio.run(_main())",
      "",
    ].join("\n");
    completions.push("wrapped the top-level `await` code in `asyncio.run(...)`");
  } else {
    const entry = pythonEntryPoint(scan);
    if (entry) {
      code = `${code.trimEnd()}\n\n\n${entry.code}\n`;
      if (entry.needsAsyncio && !/^import asyncio\b/m.test(code)) code = `import asyncio\n${code}`;
      completions.push(entry.note);
    }
  }

  const localModules = new Set([
    ...Object.keys(files).map((f) => f.replace(/\.py$/, "").split("/")[0]!),
    ...pythonModulesWritten(code),
  ]);
  // The repository's package imported by its module name (`from slugify import …` in a report filed on
  // python-slugify): that package is the dependency, not whatever the index holds under the module's name.
  const repositoryModule = repository ? pythonImportName(repository.name) : null;
  const deps = pythonImportedModules(code + Object.values(files).join("\n"))
    .filter((m) => !PYTHON_STDLIB.has(m) && !localModules.has(m))
    .map((m) =>
      repository && m === repositoryModule ? repository.name : (PYTHON_IMPORT_TO_PACKAGE[m] ?? m),
    );
  const all = `${code}\n${Object.values(files).join("\n")}`;
  files["reproduction.py"] = code;
  return {
    language: "python",
    runtime: "python",
    files,
    entry: "reproduction.py",
    moduleFormat: null,
    completions,
    dependencies: [...new Set(deps)],
    ecosystem: "pypi",
    placeholders: findPlaceholders(all),
  };
}

/**
 * Methods pasted without their class (an indented `@classmethod` / `def name(self, …)` excerpt) and called in
 * another block on a name the code never binds (`subject.normalize_path(path)`): a reader puts the methods in a
 * class and the name on an instance of it, as the report's own call implies. Only when every pasted method takes
 * `self` or `cls` (or is a `@staticmethod`), no `__init__` asks for arguments, and exactly one unbound name is
 * the receiver; the block then runs in place (a file name the prose gives it is of the reporter's code base, which
 * this excerpt cannot stand for).
 */
function classlessMethods(units: ReportBlock[]): { units: ReportBlock[]; note: string } | null {
  const all = codeOnly(units.map((b) => b.runValue).join("\n\n"), "python");
  const bound = pythonBoundNames(all);
  for (const b of units) {
    if (b.kind !== "code" || b.language !== "python") continue;
    const firstLine = b.value.split("\n").find((l) => l.trim() !== "") ?? "";
    if (!/^[ \t]+\S/.test(firstLine)) continue;
    const body = b.runValue.trimEnd();
    const lines = body.split("\n");
    // Every line at the excerpt's own level is a decorator, a def, a comment or blank: nothing else runs there.
    if (
      !lines.every(
        (l) =>
          l.trim() === "" ||
          /^[ \t]/.test(l) ||
          /^(?:@\w[\w.]*(?:\([^\n]*\))?[ \t]*$|(?:async[ \t]+)?def[ \t]|#)/.test(l),
      )
    )
      continue;
    const defs = [...body.matchAll(/^(?:async[ \t]+)?def[ \t]+(\w+)[ \t]*\(([^)\n]*)/gm)];
    if (defs.length === 0) continue;
    const decorated = (name: string) => {
      const at = lines.findIndex((l) => new RegExp(`^(?:async\\s+)?def\\s+${name}\\b`).test(l));
      return at > 0 && /^@staticmethod\b/.test(lines[at - 1]!.trim());
    };
    const methodLike = defs.every((d) => /^\s*(?:self|cls)\b/.test(d[2]!) || decorated(d[1]!));
    const init = defs.find((d) => d[1] === "__init__");
    if (!methodLike || (init && !/^\s*self\s*$/.test(init[2]!))) continue;
    const names = new Set(defs.map((d) => d[1]!));
    const others = codeOnly(
      units
        .filter((o) => o !== b)
        .map((o) => o.runValue)
        .join("\n"),
      "python",
    );
    const receivers = new Set<string>();
    for (const m of others.matchAll(/(?<![\w.])([A-Za-z_]\w{0,60})\.(\w{1,80})[ \t]*\(/g))
      if (names.has(m[2]!) && !bound.has(m[1]!)) receivers.add(m[1]!);
    if (receivers.size !== 1) continue;
    const receiver = [...receivers][0]!;
    const wrapped = `class _PastedClass:\n${lines.map((l) => (l.trim() === "" ? "" : `    ${l}`)).join("\n")}\n\n\n${receiver} = _PastedClass()\n`;
    return {
      units: units.map((o) => (o === b ? { ...o, runValue: wrapped, filename: null } : o)),
      note: `put ${[...names].map((n) => `\`${n}\``).join(", ")}, pasted without ${names.size > 1 ? "their" : "its"} class, in a class, and bound \`${receiver}\` (which the code calls ${names.size > 1 ? "them" : "it"} on and never defines) to an instance of it`,
    };
  }
  return null;
}

function pythonEntryPoint(scan: string): { code: string; note: string; needsAsyncio: boolean } | null {
  if (/^if\s+__name__\s*==/m.test(scan)) return null;
  const topLevelCalls = scan
    .split("\n")
    .filter((l) => /^[A-Za-z_]/.test(l) && !/^(def|class|async|import|from|@)\b/.test(l));
  const called = (name: string) => topLevelCalls.some((l) => new RegExp(`\\b${name}\\s*\\(`).test(l));
  const asyncMain = /^async\s+def\s+main\s*\(\s*\)/m.test(scan);
  if ((asyncMain || /^def\s+main\s*\(\s*\)/m.test(scan)) && !called("main")) {
    return asyncMain
      ? {
          code: 'if __name__ == "__main__":\n    asyncio.run(main())',
          note: "added an entry point that runs `main()` with `asyncio.run`",
          needsAsyncio: true,
        }
      : {
          code: 'if __name__ == "__main__":\n    main()',
          note: "added an entry point that calls `main()`",
          needsAsyncio: false,
        };
  }
  const tests = [...scan.matchAll(/^def\s+(test_\w+)\s*\(\s*\)/gm)]
    .map((m) => m[1]!)
    .filter((t) => !called(t));
  if (tests.length > 0 && topLevelCalls.length === 0) {
    return {
      code: `if __name__ == "__main__":\n${tests.map((t) => `    ${t}()`).join("\n")}`,
      note: `added an entry point that calls ${tests.map((t) => `\`${t}()\``).join(", ")}`,
      needsAsyncio: false,
    };
  }
  return null;
}

// ---------------------------------------------------------------- JavaScript / TypeScript

function jsSpecifiers(code: string): string[] {
  const out: string[] = [];
  for (const re of [
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
    /^[ \t]*import\s[^'"]*?\sfrom\s+['"]([^'"]+)['"]/gm,
    /^[ \t]*import\s+['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /^[ \t]*export\s[^'"]*?\sfrom\s+['"]([^'"]+)['"]/gm,
  ]) {
    for (const m of code.matchAll(re)) out.push(m[1]!);
  }
  return out;
}

function jsBoundNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/\b(?:const|let|var)\s+([\w$]+)/g)) names.add(m[1]!);
  for (const m of code.matchAll(/\b(?:const|let|var)\s+\{([^}]*)\}/g))
    for (const p of m[1]!.split(",")) names.add(p.split(":").pop()!.trim());
  for (const m of code.matchAll(/\b(?:function\*?|class)\s+([\w$]+)/g)) names.add(m[1]!);
  for (const m of code.matchAll(/^[ \t]*import\s+([\w$]+)/gm)) names.add(m[1]!);
  for (const m of code.matchAll(/^[ \t]*import\s+\*\s+as\s+([\w$]+)/gm)) names.add(m[1]!);
  for (const m of code.matchAll(/^[ \t]*import\s+(?:[\w$]+\s*,\s*)?\{([^}]*)\}/gm)) {
    for (const p of m[1]!.split(","))
      names.add(
        p
          .split(/\s+as\s+/)
          .pop()!
          .trim(),
      );
  }
  return names;
}

/** Top-level `await`: an await on a line with no indentation, outside any function (a good-enough sign for snippets). */
function hasTopLevelAwait(scan: string): boolean {
  let depth = 0;
  for (const line of scan.split("\n")) {
    if (depth === 0 && /(^|[=(,\s])await\s/.test(line) && !/^\s*(async\s+)?function\b/.test(line))
      return true;
    for (const ch of line) {
      if (ch === "{") depth++;
      else if (ch === "}") depth = Math.max(0, depth - 1);
    }
  }
  return false;
}

const IMPORT_LINE = /^\s*import\s+(.+?)\s+from\s+(['"])([^'"]+)\2\s*;?\s*$/;

/** `a, b as c` → `a, b: c` (an import's names as a destructuring pattern); null for anything else. */
function importedNames(list: string): string | null {
  const parts = list
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const p of parts) {
    const m = /^([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(p);
    if (!m) return null;
    out.push(m[2] ? `${m[1]}: ${m[2]}` : m[1]!);
  }
  return out.join(", ");
}

/**
 * A module whose imports include a bare package's inner path without an extension (`lodash/fp`,
 * `date-fns/locale`), rewritten as CommonJS the way a bundler's interop loads it (`import x from` takes the
 * `default` of a transpiled module, else the module itself), the requires hoisted like imports are. Null when
 * it imports no such path, or has an import or export this cannot rewrite (then it runs as an ES module).
 */
export function asBundlerCommonJs(code: string): string | null {
  const lines = code.split("\n");
  const imports = lines.map((l) => IMPORT_LINE.exec(l));
  const innerPath = imports.some(
    (m) =>
      m &&
      /^(?:@[\w.-]+\/)?[\w.-]+\/[\w./-]+$/.test(m[3]!) &&
      !/\.[cm]?js$|\.json$/.test(m[3]!) &&
      !m[3]!.startsWith("node:"),
  );
  if (!innerPath) return null;
  if (lines.some((l, i) => !imports[i] && /^\s*(?:import\s|export\s)|import\.meta/.test(l))) return null;
  const head: string[] = [];
  let usesDefault = false;
  for (const m of imports) {
    if (!m) continue;
    const [, what, , from] = m as unknown as [string, string, string, string];
    const req = `require(${JSON.stringify(from)})`;
    const ns = /^\*\s+as\s+([\w$]+)$/.exec(what);
    const named = /^\{([^}]*)\}$/.exec(what);
    const both = /^([\w$]+)\s*,\s*\{([^}]*)\}$/.exec(what);
    if (ns) head.push(`const ${ns[1]} = ${req};`);
    else if (named) {
      const names = importedNames(named[1]!);
      if (names === null) return null;
      head.push(`const { ${names} } = ${req};`);
    } else if (both) {
      const names = importedNames(both[2]!);
      if (names === null) return null;
      usesDefault = true;
      head.push(`const ${both[1]} = _default(${req});`, `const { ${names} } = ${req};`);
    } else if (/^[\w$]+$/.test(what)) {
      usesDefault = true;
      head.push(`const ${what} = _default(${req});`);
    } else return null;
  }
  const body = lines.filter((_, i) => !imports[i]);
  return [
    ...(usesDefault ? ["const _default = (m) => (m && m.__esModule ? m.default : m);"] : []),
    ...head,
    ...body,
  ].join("\n");
}

/** The echo of REPL sessions replayed together: what the prompt prints for a value. */
const TRANSCRIPT_ECHO =
  "// Replayed from the REPL sessions in the report: expressions are echoed as the prompt would echo them.\n" +
  "function _echo(value) {\n  if (value !== undefined) console.log(_inspect(value));\n}";

function completeJs(
  units: ReportBlock[],
  reportPackages: string[],
  repository: RepositoryPackage | null = null,
): Program {
  // The repository's package counts as one the report names for the page-global and plugin rules; its
  // binding, when the report never names it, is added below by the run-time binder.
  const knownPackages =
    repository && !reportPackages.includes(repository.name)
      ? [...reportPackages, repository.name]
      : reportPackages;
  const completions: string[] = [];
  const typescript = units.some((b) => b.language === "typescript");
  const split = splitNamed(units, /\.[cm]?[jt]s$/);
  const { named } = split;
  let { main } = split;
  const files: Record<string, string> = {};
  for (const b of named) files[b.filename!] = `${b.value.trimEnd()}\n`;
  // The one relative module the code requires without the report naming its file (`require('./cacheSsr')`), and
  // exactly one other block that is a CommonJS module (`module.exports = store`): that block is the module,
  // written as its own file, the `require` pointed at it. Two candidates, or two such requires: left as written.
  const relative = (b: ReportBlock) => [
    ...b.value.matchAll(/\brequire\(\s*(['"])(\.{1,2}\/[\w./-]+)\1\s*\)/g),
  ];
  const unresolved = [
    ...new Set(
      main
        .flatMap((b) => relative(b).map((m) => m[2]!))
        .filter(
          (spec) =>
            !named.some(
              (n) =>
                n.filename!.replace(/\.[cm]?[jt]s$/, "") ===
                spec.replace(/^\.\//, "").replace(/\.[cm]?js$/, ""),
            ),
        ),
    ),
  ];
  const commonJsModules = main.filter(
    (b) => /^module\.exports\s*=/m.test(b.value) && relative(b).length === 0 && b.kind === "code",
  );
  if (unresolved.length === 1 && commonJsModules.length === 1 && main.length > 1) {
    const spec = unresolved[0]!;
    const module = commonJsModules[0]!;
    if (!relative(module).length && main.some((b) => b !== module && relative(b).length > 0)) {
      const file = `${spec.replace(/^(?:\.{1,2}\/)+/, "").replace(/\.[cm]?js$/, "")}.cjs`;
      files[file] = `${module.value.trimEnd()}\n`;
      main = main
        .filter((b) => b !== module)
        .map((b) => ({
          ...b,
          runValue: b.runValue.replace(
            /\brequire\(\s*(['"])(\.{1,2}\/[\w./-]+)\1\s*\)/g,
            (whole, q: string, s: string) => (s === spec ? `require(${q}./${file}${q})` : whole),
          ),
        }));
      completions.push(
        `wrote the block that sets \`module.exports\` as \`${file}\`, the one module the code requires (\`require('${spec}')\`) without the report naming its file`,
      );
    }
  }
  if (named.length > 0)
    completions.push(
      `wrote ${named.map((b) => `\`${b.filename}\``).join(", ")} as separate files, as the report names them`,
    );

  const parts: string[] = [];
  // A REPL session joined with other blocks calls the one echo helper the program defines for all of them: two
  // definitions of `_echo` (the session's and an annotated block's) would clash with each other.
  const sharedEcho = main.length > 1 && main.some((b) => b.kind === "node-transcript");
  for (const b of main) {
    if (b.kind === "node-transcript") {
      parts.push(nodeScriptFromTranscript(parseTranscript(b.value, "node"), { withEcho: !sharedEcho }));
      completions.push(
        "turned the REPL session into a script (typed expressions are echoed like the prompt does)",
      );
    } else parts.push(b.runValue.trimEnd());
  }
  if (main.length > 1)
    completions.push(`combined ${main.length} code blocks into one program, in the report's order`);
  const hoisted = hoistLaterRequires(parts);
  if (hoisted.length > 0) {
    parts.unshift(hoisted.join("\n"));
    completions.push(
      `moved ${hoisted.map((l) => `\`${l.trim()}\``).join(", ")} to the top: an earlier block uses what it binds (a reader runs the imports first)`,
    );
  }
  // `import { Cache } from './helper'` in one block, `export class Cache` in another: the report shows the module
  // it does not name as a file, so the program, one file, already declares what the import would bind. The
  // import of a relative module no block is written as goes, when every name it binds is declared at the top
  // level of another block (else the clash would stop the transpile before anything ran).
  const topDeclared = (p: string) =>
    new Set(
      [
        ...p.matchAll(
          /^(?:export\s+(?:default\s+)?)?(?:const|let|var|class|(?:async\s+)?function\*?|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm,
        ),
      ].map((m) => m[1]!),
    );
  const givenFiles = new Set(Object.keys(files).map((f) => f.replace(/\.[cm]?[jt]sx?$/, "")));
  for (let i = 0; i < parts.length; i++) {
    const others = new Set(parts.flatMap((p, j) => (j === i ? [] : [...topDeclared(p)])));
    const dropped: string[] = [];
    parts[i] = parts[i]!.replace(
      /^import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*(['"])(\.{1,2}\/[^'"\n]+)\2;?[ \t]*$/gm,
      (line, list: string, _q: string, spec: string) => {
        const names = list
          .split(",")
          .map((n) => n.trim().split(/\s+as\s+/))
          .filter((n) => n[0] !== "");
        const ok =
          names.length > 0 &&
          names.every((n) => n.length === 1 && others.has(n[0]!)) &&
          !givenFiles.has(spec.replace(/^\.\//, "").replace(/\.[cm]?[jt]sx?$/, ""));
        if (!ok) return line;
        dropped.push(line.trim());
        return "";
      },
    );
    if (dropped.length > 0)
      completions.push(
        `dropped ${dropped.map((l) => `\`${l}\``).join(", ")}: the module is not given as a file, and another block of the report declares ${dropped.length > 1 ? "those names" : "what it imports"} itself`,
      );
  }
  // Blocks that each declare the same `const`/`let` (one snippet shown twice with another input): each runs
  // in its own block scope, as the reader runs them one after the other, instead of a redeclaration error.
  // A `var` or a function that redeclares another block's `const`/`let` (a workaround shown after the failing
  // snippet) clashes the same way; two `var`s do not.
  const declared = parts.map(
    (p) => new Set([...p.matchAll(/^[ \t]*(?:const|let|class)\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!)),
  );
  const anyDeclared = parts.map(
    (p) =>
      new Set(
        [...p.matchAll(/^[ \t]*(?:const|let|class|var|function\*?)\s+([A-Za-z_$][\w$]*)/gm)].map(
          (m) => m[1]!,
        ),
      ),
  );
  const clash = declared.some((names, i) =>
    anyDeclared.some((other, j) => j !== i && [...names].some((n) => other.has(n))),
  );
  if (clash && !parts.some((p) => /^[ \t]*(?:import|export)\s/m.test(p))) {
    for (let i = 0; i < parts.length; i++) parts[i] = `{\n${parts[i]}\n}`;
    completions.push(
      "ran each block in its own scope (they declare the same names: one snippet shown with different inputs)",
    );
  }
  let code = `${parts.join("\n\n").trim()}\n`;
  const cdn = cdnImportsAsPackages(code);
  if (cdn.read.length > 0) {
    code = cdn.code;
    completions.push(
      `read ${cdn.read.map((s) => `\`${s}\``).join(", ")} imported from a CDN address as the npm package${cdn.read.length > 1 ? "s" : ""} it serves: Node loads no \`https:\` import`,
    );
  }
  // `require('./node_modules/x')`: the folder npm installed `x` into names the package `x` (own-package-path.ts).
  const installed = installedPackagePaths(code);
  if (installed.read.length > 0) {
    code = installed.code;
    completions.push(
      `read ${installed.read.map((s) => `\`${s}\``).join(", ")} (a path into the reporter's \`node_modules\`) as the installed package it names`,
    );
  }
  /** The package whose source-tree paths the code was read with: installed although no specifier names it. */
  let sourceTreeOf: string | null = null;
  // `require(".")` typed in the reporter's checkout of the issue's repository loads the package it publishes:
  // read as that package, since the program runs in an empty directory of its own.
  if (repository) {
    // Also `require('../')`, `'../index'`: a snippet copied from the package's own tests (own-package-path.ts).
    const spec = ownPackageSpecifier(code);
    const named = ownPackagePaths(code, repository.name);
    if (spec !== null && named !== code) {
      code = named;
      completions.push(
        `read \`require("${spec}")\` (the reporter's checkout of the issue's repository) as its package, \`${repository.name}\``,
      );
    }
    // `require('../deps/json_schema/validate')`: a file of the package's own source tree, looked for in the
    // installed package (own-package-path.ts).
    const tree = ownSourceTreePaths(code, repository.name);
    if (tree.read.length > 0) {
      code = tree.code;
      sourceTreeOf = repository.name;
      completions.push(
        `read ${tree.read.map((s) => `\`require("${s}")\``).join(", ")} (a path into the package's own source tree) as the installed \`${repository.name}\`'s file of that name, when exactly one of its root, \`lib/\`, \`src/\`, \`dist/\` has it`,
      );
    }
  }
  // A library used as a browser page's global (`self.math.parser()`, `window._.map(…)`) is the object its
  // import gives: read as the bare name, which gets its import below.
  const pageBound = jsBoundNames(codeOnly(code, "js"));
  const libraries = new Set([...Object.keys(NPM_GLOBALS), ...knownPackages.map(npmIdentifier)]);
  const unpaged = code.replace(
    /(?<![\w$.])(window|self|globalThis)\.([A-Za-z_$][\w$]*)\b/g,
    (whole, host: string, name: string) => (!pageBound.has(host) && libraries.has(name) ? name : whole),
  );
  if (unpaged !== code) {
    code = unpaged;
    completions.push("read a library used as a browser page's global (`window.x`, `self.x`) as its import");
  }
  let scan = codeOnly(code, "js");
  // A snippet that prints nothing ("try this in node: `f(x);`") was read at a prompt: its last expression's
  // value is what the reporter saw, so it is echoed the way the REPL shows it.
  let echoedLast = false;
  if (
    !sharedEcho &&
    !main.some((b) => b.usesEcho) &&
    !/\b(?:console\.\w+|process\.std(?:out|err)\.write|throw)\b/.test(scan)
  ) {
    const lines = code.trimEnd().split("\n");
    // The last statement: its last line, with the lines above it when it is a chain continued on lines of
    // their own (`new D` / `.Decimal('10')` / `.toString()`).
    let from = lines.length - 1;
    while (from > 0 && /^\.[\w$]/.test(lines[from]!) && /^\S(?!.*;\s*$)/.test(lines[from - 1]!)) from--;
    // A last statement whose brackets close on its last line (`JSON.stringify(f({` … `}), null, 4);`): back to
    // the line that opens them, at the left margin, after a statement that ended.
    from = bracketedStatementStart(lines, from);
    const stmt = lines.slice(from);
    const last = stmt.map((l) => l.trim()).join(" ");
    // `program.parse(process.argv)` ends a command-line program: its value is the parser itself (commander's
    // Command), never what the report is about, and echoing it would print where the program prints nothing.
    const parsesArgv = /^[\w$.]+\.parse(?:Async)?\(\s*process\.argv\s*\);?$/.test(last.trim());
    if (/^\S/.test(lines[from] ?? "") && !stmt.some((l) => /\/\/|\/\*/.test(l)) && !parsesArgv) {
      const echoed = annotate(`${last} // => ?`, "javascript").code.replace(/\s*\/\/ => \?$/, "");
      if (echoed.startsWith("_echo(")) {
        lines.splice(from, stmt.length, echoed);
        code = `${lines.join("\n")}\n`;
        echoedLast = true;
        completions.push(
          `printed the value of the last expression, \`${last.trim().replace(/;$/, "")}\`, as a REPL shows it (the snippet prints nothing itself)`,
        );
        scan = codeOnly(code, "js");
      }
    }
    // The snippet ends by declaring the value it is about (`const cookies = cookie.parse(…);`, then "gives" and
    // the object): the name's value is what the reporter looked at, so it is printed as a REPL shows it.
    const declared = echoedLast ? null : lastDeclaration(code);
    if (declared) {
      code = `${code.trimEnd()}\n_echo(${declared});\n`;
      echoedLast = true;
      completions.push(
        `printed \`${declared}\`, the value the snippet's last statement declares, as a REPL shows it (the snippet prints nothing itself)`,
      );
      scan = codeOnly(code, "js");
    }
  }

  const esmSyntax = /^[ \t]*(import\s[\w${*]|import\s+['"]|export\s)/m.test(scan);
  if (sharedEcho && !echoedLast && !main.some((b) => b.usesEcho)) {
    // REPL sessions only: echoed as the prompt echoes (`util.inspect`), as each session alone would be.
    code = `${esmSyntax ? 'import { inspect as _inspect } from "node:util";' : 'const _inspect = require("node:util").inspect;'}\n${TRANSCRIPT_ECHO}\n${code}`;
    scan = codeOnly(code, "js");
  } else if (echoedLast || sharedEcho || main.some((b) => b.usesEcho)) {
    code = `${esmSyntax ? JS_ECHO_PRELUDE_ESM : JS_ECHO_PRELUDE}\n${code}`;
    if (!echoedLast && main.some((b) => b.usesEcho)) completions.push(echoNote(main));
    scan = codeOnly(code, "js");
  }
  const usesRequire = /\brequire\(\s*['"]/.test(scan);
  const tla = hasTopLevelAwait(scan);
  let format: "esm" | "cjs" = esmSyntax || (tla && !usesRequire) ? "esm" : "cjs";

  // Missing imports: packages the report names, and Node builtins, used but never bound.
  const bound = jsBoundNames(scan);
  // Jest-style `expect(…).toBe(…)` (and `test`/`it`/`describe`) called without an import: the runner's globals.
  const testGlobals = testGlobalsNeeded(scan, bound, jsSpecifiers(code), knownPackages);
  if (testGlobals.length > 0) {
    code = `${testGlobalsPrelude(testGlobals)}${code}`;
    for (const name of testGlobals) bound.add(name);
    completions.push(
      `defined the test runner's globals the snippet uses without importing them (${testGlobals.map((n) => `\`${n}\``).join(", ")}): a failing \`expect\` throws an AssertionError`,
    );
  }
  const add: string[] = [];
  const candidates = new Map<string, string>();
  for (const [ident, pkg] of Object.entries(NPM_GLOBALS)) candidates.set(ident, pkg);
  // A conventional global two packages share (`_`: lodash and underscore) is the repository's package's, in its
  // own repository's report.
  const own = repository ? NPM_IDENTIFIERS[repository.name] : undefined;
  if (own && candidates.has(own)) candidates.set(own, repository!.name);
  for (const pkg of reportPackages)
    if (/^(@[\w.-]+\/)?[a-z0-9][\w.-]*$/.test(pkg)) {
      candidates.set(npmIdentifier(pkg), pkg);
      // `ipaddr.js` is bound as `ipaddr` (its README's name): the `.js` of a package's name is no part of it.
      const bare = pkg.replace(/\.js$/, "");
      if (bare !== pkg && !candidates.has(npmIdentifier(bare))) candidates.set(npmIdentifier(bare), pkg);
    }
  for (const b of [
    "assert",
    "fs",
    "path",
    "util",
    "os",
    "crypto",
    "events",
    "url",
    "child_process",
    "zlib",
    "stream",
  ]) {
    candidates.set(b === "child_process" ? "childProcess" : b, `node:${b}`);
  }
  for (const [ident, spec] of candidates) {
    if (bound.has(ident)) continue;
    const escaped = ident.replace(/\$/g, "\\$");
    if (!new RegExp(`(?<![\\w$.])(?:new\\s+)?${escaped}\\s*[.(]`).test(scan)) continue;
    // Already imported whole under another name: that binding is the reporter's. Imported only by named members
    // (`import { add } from 'lodash'` beside a `_.add(…)` from a `<script>` build): the global still needs its own.
    if (wholeModuleImported(code, spec)) continue;
    add.push(format === "esm" ? `import ${ident} from "${spec}";` : `const ${ident} = require("${spec}");`);
  }
  // The repository's package called by its own name (`matcher.isMatch(…)`, a README example quoted) where
  // another block of the report imports it under a name of its own (`const m = require('matcher')`): the
  // reader knows both are the package, and the run-time binder below only acts on code that never imports it.
  if (repository) {
    const own = npmIdentifier(repository.name);
    const escaped = own.replace(/\$/g, "\\$");
    if (
      /^[A-Za-z_$][\w$]*$/.test(own) &&
      !bound.has(own) &&
      !add.some((l) => new RegExp(`(?:const|import)\\s+${escaped}\\s`).test(l)) &&
      new RegExp(`(?<![\\w$.])${escaped}\\s*[.(]`).test(scan) &&
      // Assigned at a prompt without a declaration (`dayjs = require('dayjs')`): the code binds it itself.
      !new RegExp(`(?<![\\w$.])${escaped}\\s*=(?![=>])`).test(scan) &&
      jsSpecifiers(code).some((x) => npmPackageOf(x) === repository.name)
    ) {
      add.push(
        format === "esm"
          ? `import ${own} from "${repository.name}";`
          : `const ${own} = require("${repository.name}");`,
      );
    }
  }
  for (const [ident, pkg] of Object.entries(NPM_NAMED_EXPORTS)) {
    if (bound.has(ident) || add.some((l) => l.includes(` ${ident} `))) continue;
    if (!new RegExp(`(?<![\\w$.])${ident}\\s*[.(]`).test(scan)) continue;
    add.push(
      format === "esm" ? `import { ${ident} } from "${pkg}";` : `const { ${ident} } = require("${pkg}");`,
    );
  }
  // Plugins passed to `pkg.extend(plugin)` without an import: `dayjs.extend(utc)` → `dayjs/plugin/utc`.
  for (const m of scan.matchAll(/(?<![\w$.])([\w$]+)\.extend\(\s*([A-Za-z_$][\w$]*)\s*\)/g)) {
    const pkg = NPM_GLOBALS[m[1]!] ?? (knownPackages.includes(m[1]!) ? m[1]! : null);
    if (!pkg || bound.has(m[2]!) || add.some((l) => l.includes(` ${m[2]} `))) continue;
    add.push(
      format === "esm"
        ? `import ${m[2]} from "${pkg}/plugin/${m[2]}.js";`
        : `const ${m[2]} = require("${pkg}/plugin/${m[2]}");`,
    );
  }
  // Functions called bare but never defined, when the report names exactly one package and imports nothing
  // from it: taken as that package's named exports (`format(d, 'yyyy')` in a date-fns report). A wrong guess
  // fails to run (not a function), it never prints the reported value.
  const namedPackages = reportPackages.filter((p) => /^(@[\w.-]+\/)?[a-z0-9][\w.-]*$/.test(p));
  if (
    namedPackages.length === 1 &&
    !jsSpecifiers(code).some((spec) => npmPackageOf(spec) === namedPackages[0])
  ) {
    const pkg = namedPackages[0]!;
    const free = [...scan.matchAll(/(?<![\w$.]|\bnew\s)([a-z_$][\w$]*)\s*\(/g)]
      .map((m) => m[1]!)
      .filter(
        (name, i, all) =>
          all.indexOf(name) === i &&
          !bound.has(name) &&
          !JS_KEYWORDS.has(name) &&
          !(name in globalThis) &&
          !add.some((l) => l.includes(` ${name} `)) &&
          name !== npmIdentifier(pkg) &&
          // The repository's package's own name (`sizeOf` in size-of's repository) is that package's.
          !(repository && sameProduct(name, repository.name)) &&
          // A method or a function defined here, or a parameter (a callback) called inside its function.
          !new RegExp(`(?<![\\w$.])${name}\\s*\\([^()]*\\)\\s*\\{`).test(scan) &&
          !new RegExp(`\\([^()]*(?<![\\w$.])${name}\\b[^()]*\\)\\s*(?:=>|\\{)`).test(scan),
      );
    if (free.length > 0)
      add.push(
        format === "esm"
          ? `import { ${free.join(", ")} } from "${pkg}";`
          : `const { ${free.join(", ")} } = require("${pkg}");`,
      );
  }
  // Time-zone APIs that only a plugin adds, called on a library the completion imports: `moment.tz(…)` is
  // moment-timezone's (which exports moment itself), `dayjs.tz(…)` / `.tz()` / `dayjs.utc(…)` need dayjs's
  // utc and timezone plugins extended (what a reader sets up, as the dayjs docs do, before the snippet runs).
  const momentAt = add.findIndex((l) => /^(?:const moment = require|import moment from)\b/.test(l));
  if (momentAt >= 0 && /(?<![\w$.])moment\.tz\s*[.(]/.test(scan))
    add[momentAt] = add[momentAt]!.replace(/(["'])moment\1/, '"moment-timezone"');
  const dayjsAt = add.findIndex((l) => /^(?:const dayjs = require|import dayjs from)\b/.test(l));
  if (dayjsAt >= 0 && !/\.extend\s*\(/.test(scan)) {
    const plugins = [
      ...(/(?<![\w$.])dayjs\.(?:utc|tz)\b|\.(?:tz|utc)\(/.test(scan) ? ["utc"] : []),
      ...(/(?<![\w$.])dayjs\.tz\b|\.tz\(/.test(scan) ? ["timezone"] : []),
    ];
    add.splice(
      dayjsAt + 1,
      0,
      ...plugins.map((p) =>
        format === "esm"
          ? `import ${p} from "dayjs/plugin/${p}.js"; dayjs.extend(${p});`
          : `const ${p} = require("dayjs/plugin/${p}"); dayjs.extend(${p});`,
      ),
    );
  }
  // The repository's package, never named by the report, used without an import: bound at run time to the
  // names the snippet leaves free (repository-binding.ts). A CommonJS script that needs nothing of CommonJS
  // runs as a module, so an ES-module-only release loads (pretty-bytes 7, superjson 2).
  let binding: string[] = [];
  // A report that names the package (a `"croner": "~4.1.96"` line, a version in prose) but never imports it
  // in its code is bound the same way: naming the package is not importing it.
  const repo = repository ? repository.name : null;
  if (repo && ![code, ...add].some((c) => jsSpecifiers(c).some((s) => npmPackageOf(s) === repo))) {
    const taken = new Set([...bound, ...add.flatMap((l) => [...jsBoundNames(l)])]);
    const undeclared = jsUndeclaredAssignments(scan, taken);
    const free = jsFreeBindings(
      scan,
      new Set([...taken, ...undeclared]),
      repo,
      jsDefaultAliases(repository!.texts, repo),
    );
    if (free.length > 0) {
      if (format === "cjs" && !needsCommonJs(scan)) {
        if (undeclared.length > 0) {
          add.push(`var ${undeclared.join(", ")};`);
          completions.push(
            `declared ${undeclared.map((n) => `\`${n}\``).join(", ")}, assigned at a prompt without a declaration (a module is strict)`,
          );
        }
        format = "esm";
        completions.push("ran it as an ES module, so the package loads whichever module system it ships");
      }
      binding = jsBindingLines(repo, free, format, scan);
      completions.push(
        `bound ${free.map((b) => `\`${b.name}\``).join(", ")}, used without an import in a report filed in the repository of \`${repo}\`, to what \`${repo}\` exports under ${free.length > 1 ? "those names" : "that name"} (or the package itself, for its own name or an object whose members the snippet reads)`,
      );
    }
  }
  if (binding.length > 0) code = `${binding.join("\n")}\n${code}`;
  if (add.length > 0) {
    code = `${add.join("\n")}\n${code}`;
    completions.push(
      `added missing import${add.length > 1 ? "s" : ""}: ${add.map((l) => `\`${l}\``).join(", ")}`,
    );
    scan = codeOnly(code, "js");
  }

  if (format === "esm" && /\brequire\(\s*['"]/.test(codeOnly(code, "js"))) {
    code = `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${code}`;
    completions.push("made `require` available in the ES module with `createRequire`");
  }
  if (format === "cjs" && tla) {
    const lines = code.split("\n");
    const head = lines.filter((l) => /^(const|let|var)\s+\S+\s*=\s*require\(/.test(l));
    const body = lines.filter((l) => !head.includes(l));
    code = [
      ...head,
      "",
      "(async () => {",
      ...body.map((l) => (l === "" ? "" : `  ${l}`)),
      "})().catch((error) => {",
      "  // Rethrown outside the promise so Node reports it as an uncaught exception.",
      "  setImmediate(() => {",
      "    throw error;",
      "  });",
      "});",
      "",
    ].join("\n");
    completions.push("wrapped the top-level `await` code in an async function (the snippet uses `require`)");
  } else if (!tla) {
    const asyncMain = /^[ \t]*async\s+function\s+main\s*\(\s*\)/m.test(scan);
    const syncMain =
      /^[ \t]*function\s+main\s*\(\s*\)/m.test(scan) ||
      /^[ \t]*(const|let)\s+main\s*=\s*(async\s*)?\(\s*\)\s*=>/m.test(scan);
    const calledMain = scan
      .split("\n")
      .some((l) => /^(await\s+)?main\s*\(/.test(l.trim()) && !/function/.test(l));
    if ((asyncMain || syncMain) && !calledMain) {
      if (format === "esm") code = `${code.trimEnd()}\n\nawait main();\n`;
      else if (asyncMain || /async\s*\(/.test(scan))
        code = `${code.trimEnd()}\n\nmain().catch((error) => {\n  setImmediate(() => {\n    throw error;\n  });\n});\n`;
      else code = `${code.trimEnd()}\n\nmain();\n`;
      completions.push("added a call to `main()`, which the snippet defines but never calls");
    }
  }
  if (tla && format === "esm" && !esmSyntax)
    completions.push("ran it as an ES module so its top-level `await` is legal");

  const all = `${code}\n${Object.values(files).join("\n")}`;
  const localNames = new Set(Object.keys(files).map((f) => f.replace(/\.[cm]?[jt]s$/, "")));
  const deps = jsSpecifiers(all)
    .filter((s) => !localNames.has(s.replace(/^\.\//, "").replace(/\.[cm]?[jt]s$/, "")))
    .map(npmPackageOf)
    .filter((p): p is string => p !== null && !NODE_BUILTINS.has(p));
  if (sourceTreeOf) deps.push(sourceTreeOf);
  format = format satisfies "esm" | "cjs";
  // `import … from "date-fns/fp"`: a package's inner path without an extension is how bundlers (webpack, babel)
  // resolve imports, not how Node's ES modules do (ERR_UNSUPPORTED_DIR_IMPORT, ERR_MODULE_NOT_FOUND). Such a
  // snippet was written for a bundler, and runs as one would run it: its imports as `require`, hoisted.
  if (format === "esm" && !typescript && !tla) {
    const bundled = asBundlerCommonJs(code);
    if (bundled) {
      code = bundled;
      format = "cjs";
      completions.push(
        "ran the imports as a bundler resolves them (`require`): the snippet imports a package's inner path without an extension, which Node's ES modules do not resolve",
      );
    }
  }
  const entry = typescript ? "reproduction.ts" : format === "esm" ? "reproduction.mjs" : "reproduction.cjs";
  files[entry] = code;
  return {
    language: typescript ? "typescript" : "javascript",
    runtime: "node",
    files,
    entry,
    moduleFormat: format,
    completions,
    dependencies: [...new Set(deps)],
    ecosystem: "npm",
    placeholders: findPlaceholders(all),
  };
}

/**
 * The name the program's last statement declares (`const x = f(…);`, over lines of its own too), when that
 * statement starts unindented and is not a `require`/`import` binding; null otherwise.
 */
export function lastDeclaration(code: string): string | null {
  const lines = code.trimEnd().split("\n");
  let from = lines.length - 1;
  while (from > 0 && !/^\S/.test(lines[from]!)) from--;
  // A statement closed on its own line (`});`) starts at the unindented line above it.
  if (/^[}\])]/.test(lines[from]!)) {
    from--;
    while (from > 0 && !/^\S/.test(lines[from]!)) from--;
  }
  const m = /^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=(?![=>])\s*(\S.*)$/.exec(lines[from] ?? "");
  if (!m?.[1] || /^(?:require\s*\(|await\s+import\s*\()/.test(m[2]!)) return null;
  const rest = [m[2]!, ...lines.slice(from + 1)].join("\n");
  const scan = codeOnly(rest, "js");
  let depth = 0;
  for (const ch of scan) {
    if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth--;
    if (depth < 0) return null;
  }
  return depth === 0 && !/[,=+\-*/&|?:]\s*$/.test(scan.trimEnd()) ? m[1] : null;
}

/** `var x = require('pkg')` on a line of its own (the binding only). */
const BINDING_REQUIRE =
  /^[ \t]*(?:const|let|var)[ \t]+([A-Za-z_$][\w$]*)[ \t]*=[ \t]*require\([ \t]*['"][^'"\n]+['"][ \t]*\)[ \t;]*$/gm;

/**
 * Blocks combined in the report's order where a later block holds the `require` an earlier one needs (the
 * reporter's first snippet used `pluralize` and the full one under it starts with its require): those require
 * lines, taken out of their block, to run first. Only a binding an earlier block uses and does not bind itself.
 */
function hoistLaterRequires(parts: string[]): string[] {
  const hoisted: string[] = [];
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    for (const m of [...part.matchAll(BINDING_REQUIRE)]) {
      const name = m[1]!;
      const uses = new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}(?![\\w$])`);
      const binds = new RegExp(
        `\\b(?:const|let|var|function|class|import)\\b[^\\n]*\\b${name.replace(/\$/g, "\\$")}\\b`,
      );
      const earlier = parts.slice(0, i);
      if (!earlier.some((p) => uses.test(codeOnly(p, "js")) && !binds.test(p))) continue;
      parts[i] = parts[i]!.replace(m[0], "");
      hoisted.push(m[0].trim());
    }
  }
  return hoisted;
}

/**
 * The code binds module `spec` whole: `x = require(spec)` (declared or, as typed at a REPL, not), a default or a
 * namespace import (not named members).
 */
function wholeModuleImported(code: string, spec: string): boolean {
  const names = [spec, spec.replace(/^node:/, "")].map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  const q = `["'](?:${names.join("|")})["']`;
  const id = "[A-Za-z_$][\\w$]*";
  return new RegExp(
    `(?<![\\w$.])${id}\\s*=\\s*require\\(\\s*${q}\\s*\\)|\\bimport\\s+(?:${id}|\\*\\s*as\\s+${id})(?:\\s*,\\s*\\{[^}]*\\})?\\s+from\\s+${q}`,
  ).test(code);
}

/**
 * The first line of the statement ending at `lines[from]` when that line closes brackets opened on lines above:
 * the nearest line at the left margin from which the lines balance, with the line before it (if any) ending a
 * statement (`;`, `}` or blank). `from` itself otherwise.
 */
export function bracketedStatementStart(lines: string[], from: number): number {
  if (scanCode(lines[from] ?? "").lowest >= 0) return from;
  // A call handed a function (`it('…', () => { … })`, `init({ handler: function () { … } })`) registers it: its
  // value is no output the reporter looked at.
  const fn = /\bfunction\b|=>/;
  for (let start = from - 1; start >= 0 && from - start <= 200; start--) {
    const slice = lines.slice(start, from + 1).join("\n");
    const scan = scanCode(slice);
    if (scan.inString || scan.depth !== 0 || scan.lowest < 0) continue;
    const before = start > 0 ? lines[start - 1]!.trim() : "";
    if (
      /^\S/.test(lines[start]!) &&
      (before === "" || /[;}]$/.test(before)) &&
      !fn.test(lines.slice(start, from + 1).join("\n"))
    )
      return start;
    return from;
  }
  return from;
}
