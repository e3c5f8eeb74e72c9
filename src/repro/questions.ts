/**
 * NEEDS_INFO questions that name what is missing in THIS report, from what the parser already found: the code
 * only in prose or inline code (quoted), screenshots instead of text, blocks that show an outcome but not the code,
 * output no one says is wrong (quoted, with its line), a name the code uses but never defines (and its line), a
 * line that does not parse (and its line), and only the versions the report does not give. Never a generic list
 * that asks for what the report already says. Pure: the words change, never a verdict.
 */
import type { ReproContext } from "./context.ts";
import type { ParsedReport, ReportBlock } from "./parse-report.ts";
import { pythonFreeNames } from "./python-names.ts";
import type { ReportedExpectations } from "./reported-behaviour.ts";

/** At most this many questions per NEEDS_INFO: the most decisive first. */
export const MAX_QUESTIONS = 3;

export interface QuestionInput {
  report: ParsedReport;
  expectations: ReportedExpectations;
  /** The report's markdown as written (for screenshots, which the parser does not keep). */
  markdown: string;
  /** The text the parser read (sanitized; its line numbers are the blocks'): the markdown when not given. */
  text: string;
  /** The package the issue's repository publishes, when known. */
  package: string | null;
}

/** The question input of a pipeline context. */
export function questionInput(
  ctx: Pick<ReproContext, "report" | "expectations" | "spec" | "sanitized">,
): QuestionInput {
  return {
    text: ctx.sanitized.text || ctx.spec.markdown,
    report: ctx.report,
    expectations: ctx.expectations,
    markdown: ctx.spec.markdown,
    package: ctx.spec.package ?? null,
  };
}

const quote = (s: string, max = 80) => {
  const one = s.replace(/\s+/g, " ").trim();
  return `\`${one.length > max ? `${one.slice(0, max - 1)}…` : one}\``;
};

/** Screenshots in the markdown (`![alt](url)`, `<img …>`), counted; bounded patterns (the report is ≤ 65,536 chars). */
export function screenshotCount(markdown: string): number {
  // An `<img>` counts only with a `src` that is an address (a pasted screenshot's tag); an HTML input quoted in
  // the prose (`<img src=1 onerror=alert(1)>`, `<<img<canvas>img …>`) is the report's data, not a picture.
  return (
    markdown.match(
      /!\[[^\]\n]{0,300}\]\([^)\n]{1,1000}\)|<img\s[^>\n]{0,2000}?\bsrc\s*=\s*["']?(?:https?:\/\/|data:image\/|\.{0,2}\/)[^>\n]{0,2000}>/gi,
    ) ?? []
  ).length;
}

/**
 * Calls written in the report's sentences outside backticks ("yup.string().email() returns true", "My
 * configuration: sanitizeHtml(this.value, {"): a dotted, camelCase or snake_case name opening its arguments at
 * once, with its chained calls, up to the end of its line (`…` when the arguments go on past it). A word before a
 * bracket (`URL(s)`, `Node.js (v18)`, `function(s)`) is not one.
 */
export function proseCalls(prose: string): string[] {
  const out: string[] = [];
  const text = prose.replace(/\x60[^\x60\n]*\x60/g, " ");
  for (const m of text.matchAll(/(?<![\w$.])((?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*)\(/g)) {
    const name = m[1]!;
    if (!/\.|[a-z0-9][A-Z]|[a-z]_[a-z]/.test(name) || /^(?:e\.g|i\.e|etc|vs)\b/i.test(name)) continue;
    let depth = 0;
    let end = m.index + name.length;
    for (; end < text.length && text[end] !== "\n"; end++) {
      const ch = text[end]!;
      if (ch === "(" || ch === "[" || ch === "{") depth++;
      else if (ch === ")" || ch === "]" || ch === "}") {
        depth--;
        // Closed: done, unless a chained call follows (`yup.string().email()`).
        if (depth === 0 && !/^\.[A-Za-z_$][\w$]*\(/.test(text.slice(end + 1))) {
          end++;
          break;
        }
      }
    }
    const call = text.slice(m.index, end).trim();
    out.push(depth > 0 ? `${call}…` : call);
  }
  return [...new Set(out)].filter((c) => c.length <= 120);
}

/** Versions, paths and file names among inline code: what a report names, not the data it runs on. */
const NOT_A_VALUE =
  /^(?:v?\d+(?:\.\d+)+\S*|(?:@[\w.-]+\/)?[\w.-]+@\S+|\.{0,2}\/\S*|[\w./-]*\.(?:[cm]?[jt]sx?|py|json|md|txt|ya?ml|toml|lock|cfg|ini|env)|\.[\w.-]+)$/i;

/**
 * Inline code a report writes in its sentences, split into data — an input or output it quotes (a cron expression,
 * `bureau`, `true`) — and names of the API it is about (`copy.replace`, `__all__`, `format_record`, `toSorted`,
 * and `copy` beside
 * `copy.replace`). Calls, versions, paths and file names, and the package's own name, are neither.
 */
function inlineMentions(report: ParsedReport, pkg: string | null): { values: string[]; names: string[] } {
  const spans = [
    ...new Set(
      report.inlineCode
        .map((c) => c.value.trim())
        .filter(
          (v) =>
            v !== "" &&
            v.length <= 100 &&
            !/[\w$)\]]\(/.test(v) &&
            !NOT_A_VALUE.test(v) &&
            v.toLowerCase() !== pkg?.toLowerCase(),
        ),
    ),
  ];
  const identifier = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
  const isName = (v: string) =>
    identifier.test(v) && (/[._]|[a-z0-9][A-Z]/.test(v) || spans.some((o) => o.startsWith(`${v}.`)));
  const names = spans.filter(isName);
  // `copy.replace` says more than `copy`: a root is named only when nothing under it is.
  return {
    values: spans.filter((v) => !isName(v)),
    names: names.filter((n) => !names.some((o) => o.startsWith(`${n}.`))),
  };
}

/**
 * A Python session pasted in the report's sentences rather than a code block (its `>>> ` and `... ` lines), and
 * the names it uses without ever binding them (`c` in `>>> c['a']`): null when the prose has no such lines.
 */
export function proseSession(prose: string): { first: string; unbound: string[] } | null {
  const lines = prose.split("\n").filter((l) => /^\s*(?:>>>|\.\.\.)\s+\S/.test(l));
  if (lines.length === 0) return null;
  const code = lines
    .map((l) => l.replace(/^\s*(?:>>>|\.\.\.)\s+/, ""))
    .map((l) => l.replace(/'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"/g, '""').replace(/#.*$/, ""))
    .join("\n");
  const bound = new Set<string>();
  for (const m of code.matchAll(
    /^[ \t]*([A-Za-z_]\w*)[ \t]*(?:=(?!=)|:)|\bfor\s+([A-Za-z_]\w*)\s+in\b|\b(?:import|def|class|as)\s+([A-Za-z_]\w*)/gm,
  ))
    bound.add(m[1] ?? m[2] ?? m[3]!);
  return { first: lines[0]!.trim(), unbound: pythonFreeNames(code, bound) };
}

/** Inline code spans that read as a call (`qs.parse('a[]=b')`), the code the report shows only in its prose. */
function inlineCalls(report: ParsedReport): string[] {
  return [
    ...new Set(
      report.inlineCode.map((c) => c.value.trim()).filter((v) => /[\w$)\]]\(/.test(v) && v.length <= 100),
    ),
  ];
}

/** The runtime the report's code is for, from its blocks or its named runtime. */
function runtimeOf(report: ParsedReport): "node" | "python" | null {
  if (report.runtime) return report.runtime.name;
  if (
    report.blocks.some(
      (b) => b.kind === "python-transcript" || /^Traceback \(most recent call last\)/m.test(b.value),
    )
  )
    return "python";
  if (report.blocks.some((b) => b.kind === "node-transcript")) return "node";
  const langs = report.blocks.map((b) => b.language as string);
  if (langs.some((l) => /^(python|py)/.test(l))) return "python";
  if (langs.some((l) => /^(javascript|typescript|js|ts|node)/.test(l))) return "node";
  return null;
}

/** A version mention's name that reads as a package, not a word of the sentence around it ("be 0.67"). */
const PACKAGE_LIKE = /^[@a-z0-9][\w.@/-]*[a-z0-9]$/i;
const PROSE_WORDS = new Set(
  (
    "a an be is was are to of in on at by for from with and or as it this that version v against since " +
    "upgrading upgraded using tested release releases suite until after before"
  ).split(" "),
);

const RUNTIME_LABEL = { node: "Node.js (`node --version`)", python: "Python (`python --version`)" };

/**
 * The versions the report does NOT give, as one question naming what it does give; null when it gives all that
 * matters (the package's version and the runtime's). `packages`: the packages the code uses.
 */
export function versionQuestion(input: QuestionInput, packages: string[]): string | null {
  const { report } = input;
  // CPython's own reports: the package is the runtime.
  const stdlib = input.package !== null && /^c?python$/i.test(input.package);
  const names = [...new Set([...packages, ...(input.package && !stdlib ? [input.package] : [])])];
  const packageLike = (name: string) => PACKAGE_LIKE.test(name) && !PROSE_WORDS.has(name.toLowerCase());
  const named = (p: string) => report.versions.some((v) => v.name.toLowerCase() === p.toLowerCase());
  // "I ran it against 1.1.0": a version whose "name" is a word of the sentence is a bare version.
  const bare = [
    ...new Set([
      ...report.bareVersions,
      ...report.versions.filter((v) => !packageLike(v.name)).map((v) => v.version),
    ]),
  ].filter((b) => !report.versions.some((v) => packageLike(v.name) && v.version === b));
  // A bare version is the package's when there is one package to give it to.
  const bareCovers = bare.length > 0 && names.length <= 1;
  const missing = bareCovers ? [] : names.filter((p) => !named(p));
  const runtime = stdlib ? "python" : runtimeOf(report);
  const needRuntime = !report.runtime;
  const given = [
    ...report.versions
      .filter((v) => packageLike(v.name))
      .slice(0, 3)
      .map((v) => `\`${v.name} ${v.version}\``),
    ...bare.slice(0, 2).map((v) => `\`${v}\``),
    ...(report.runtime ? [`\`${report.runtime.name} ${report.runtime.version}\``] : []),
  ];
  const asks = [
    ...missing.slice(0, 2).map((p) => `of \`${p}\``),
    ...(needRuntime && (missing.length > 0 || given.length > 0 || runtime)
      ? [runtime ? `of ${RUNTIME_LABEL[runtime]}` : "of the runtime (`node --version` or `python --version`)"]
      : []),
  ];
  if (asks.length === 0) return null;
  if (given.length === 0 && missing.length === 0 && !runtime)
    return "The report names no versions: which runtime do you run it on (`node --version` or `python --version`), and which version of the package?";
  return `Which version ${asks.join(" and which version ")} do you use? ${
    given.length > 0
      ? `The report gives ${given.join(", ")}, but not ${asks.length > 1 ? "these" : "this one"}.`
      : "The report names none."
  }`;
}

/** Names every Node.js or Python program has: never "missing" from a report. */
const BUILTINS = new Set(
  (
    "console JSON Math Object Array String Number Boolean Date RegExp Symbol Map Set WeakMap Promise BigInt Buffer " +
    "process require module exports globalThis this parseInt parseFloat isNaN isFinite encodeURIComponent " +
    "decodeURIComponent encodeURI decodeURI setTimeout setInterval structuredClone Intl Reflect Proxy Error " +
    "print len str int float list dict set tuple bytes repr range sorted open type isinstance super"
  ).split(" "),
);

/** The first identifier a call in inline code starts from (`qs` in `qs.parse(…)`), to name its missing import. */
function callRoot(call: string): string | null {
  const m = /^(?:await\s+|new\s+)?([A-Za-z_$][\w$]*)[.(]/.exec(call);
  return m && !BUILTINS.has(m[1]!) ? m[1]! : null;
}

/** The blocks that show an outcome but no code: their kind, line and first line. */
function outcomeBlocks(report: ParsedReport): ReportBlock[] {
  return report.blocks.filter(
    (b) => b.kind === "output" || b.kind === "traceback" || b.kind === "error-output",
  );
}

const BLOCK_WORD: Record<string, string> = {
  output: "output",
  traceback: "a traceback",
  "error-output": "an error",
  versions: "a version listing",
  shell: "a shell command",
};

/** The line of a block that says most: an error block's last line (the exception), an output block's first. */
function telling(b: ReportBlock): string {
  const lines = b.value.split("\n").filter((l) => l.trim() !== "");
  if (b.kind === "output") return lines[0] ?? "";
  return (
    lines.findLast((l) => /^\s*(?:[\w.]+(?:Error|Exception|Warning)\b|Error\b)/.test(l)) ?? lines.at(-1) ?? ""
  );
}

/** The reported behaviour in words, for "the report shows … but not the code". */
function shownBehaviour(e: ReportedExpectations): string | null {
  const a = e.actual;
  if (a.kind === "exception" && a.exceptionType)
    return `the error ${quote(`${a.exceptionType}${a.exceptionMessage ? `: ${a.exceptionMessage}` : ""}`)}`;
  if (a.kind === "output" && a.output.length > 0)
    return `the output ${a.output
      .slice(0, 2)
      .map((o) => quote(o, 60))
      .join(", ")}`;
  return null;
}

/** What the report says about the outcome is missing: which side, named. Null when it states what goes wrong. */
export function behaviourQuestion(e: ReportedExpectations): string | null {
  const a = e.actual;
  if (a.kind === "error-unspecified")
    return "The report says it fails but quotes no error: could you paste the full error message and traceback (or stack trace) as text?";
  if (a.kind !== "unknown") return null;
  if (e.expectedOutput.length > 0)
    return `The report says what it expects (${e.expectedOutput
      .slice(0, 2)
      .map((x) => quote(x, 60))
      .join(", ")}) but not what you get instead: what exactly is printed or raised, verbatim?`;
  if (e.expectedException)
    return `The report expects ${quote(`${e.expectedException.type}: ${e.expectedException.message}`)} but does not say what happens instead: what exactly is printed or raised, verbatim?`;
  return "The report quotes no output or error of its own: what exactly do you see (verbatim), and what did you expect instead?";
}

/** The package the code would import (none for CPython's own reports: the standard library is the runtime). */
const packageOf = (input: QuestionInput) =>
  input.package && !/^c?python$/i.test(input.package) ? input.package : null;
const usingPackage = (input: QuestionInput) => (packageOf(input) ? ` using \`${packageOf(input)}\`` : "");

/** Questions for a report with no runnable code: what it has, what it lacks, most decisive first (≤ 3). */
export function noCodeQuestions(input: QuestionInput): string[] {
  const { report, expectations } = input;
  const calls = [...inlineCalls(report), ...proseCalls(report.proseWithCode)];
  const shots = screenshotCount(input.markdown);
  const outcomes = outcomeBlocks(report);
  const has = shownBehaviour(expectations);
  const { values, names } = inlineMentions(report, packageOf(input));
  // A session in the sentences, or one a block holds that the parser kept as a transcript (nothing ran from it).
  const session =
    proseSession(report.proseWithCode) ??
    report.blocks
      .filter((b) => b.kind === "python-transcript")
      .map((b) => proseSession(b.value))
      .find((x) => x !== null) ??
    null;
  const packages: string[] = [];
  const out: string[] = [];
  if (calls.length > 0) {
    const roots = [...new Set(calls.map(callRoot).filter((r): r is string => r !== null))];
    const pkg = packageOf(input);
    out.push(
      `The report shows the code only inline in its text (${calls
        .slice(0, 2)
        .map((c) => quote(c))
        .join(" and ")}), not as a program: could you paste it as one code block${
        roots.length > 0
          ? ` that also defines or imports ${roots
              .slice(0, 2)
              .map((r) => `\`${r}\``)
              .join(" and ")}`
          : ` with its imports${pkg ? ` (of \`${pkg}\`)` : ""}`
      } and prints the result, so it runs as-is?`,
    );
  } else if (shots > 0 && report.blocks.length === 0) {
    out.push(
      `The report shows the problem only in ${shots === 1 ? "a screenshot" : `${shots} screenshots`}, which cannot be run or compared: could you paste the code you run and what it prints as text (code blocks)?`,
    );
  } else if (outcomes.length > 0) {
    const b = outcomes[0]!;
    out.push(
      `The block at line ${b.line} shows ${BLOCK_WORD[b.kind] ?? b.kind} (${quote(telling(b))}) but the report has no code that produces it: could you add the code you run, as one file we can run as-is${packageOf(input) ? ` (with its import of \`${packageOf(input)}\`)` : ""}?`,
    );
  } else if (session) {
    out.push(
      `The report's Python session is in its text, not in a code block (${quote(session.first)})${
        session.unbound.length > 0
          ? `, and it uses ${session.unbound
              .slice(0, 2)
              .map((n) => `\`${n}\``)
              .join(" and ")}, which it never defines`
          : ""
      }: could you paste the whole session as one code block${
        session.unbound.length > 0 ? ", from the line that makes it" : ""
      }, so it runs as-is?`,
    );
  } else if (report.blocks.length > 0) {
    out.push(
      `The report's only block${report.blocks.length > 1 ? "s are" : " is"} ${report.blocks
        .slice(0, 2)
        .map((x) => `${BLOCK_WORD[x.kind] ?? x.kind} (line ${x.line})`)
        .join(
          " and ",
        )}, not code that shows the problem: could you add the code you run, as one file we can run as-is?`,
    );
  } else if (values.length > 0 && !has) {
    const pkg = packageOf(input);
    out.push(
      `The report quotes ${values
        .slice(0, 2)
        .map((v) => quote(v, 60))
        .join(" and ")} in its text but no code that ${
        pkg ? `calls \`${pkg}\`` : "uses them"
      }: which call do you make${pkg ? ` to \`${pkg}\`` : ""}, and on which input? Could you add it as one file that prints the result, so it runs as-is?`,
    );
  } else if (has) {
    out.push(
      `The report shows ${has} but not the code that produces it: could you add a minimal program${usingPackage(input)} that shows it, as one file we can run as-is?`,
    );
  } else if (names.length > 0) {
    out.push(
      `The report names ${names
        .slice(0, 2)
        .map((n) => `\`${n}\``)
        .join(
          " and ",
        )} but shows no code that uses ${names.length > 1 ? "them" : "it"}: could you add a minimal program that shows the problem and prints what you see, as one file we can run as-is?`,
    );
  } else {
    out.push(
      `The report describes the problem in words only (no code block${report.inlineCode.length > 0 ? "" : ", no inline code"}${shots > 0 ? "" : ", no screenshot"}): could you add a minimal program${usingPackage(input)} that shows it, as one file we can run as-is?`,
    );
  }
  const behaviour = behaviourQuestion(expectations);
  // A report that quotes values inline does show something: ask which of them is what it gets.
  if (
    behaviour &&
    values.length > 0 &&
    expectations.actual.kind === "unknown" &&
    expectations.expectedOutput.length === 0 &&
    !expectations.expectedException
  )
    out.push("Which of the quoted values is what you get, and what did you expect instead (verbatim)?");
  else if (behaviour) out.push(behaviour);
  const versions = versionQuestion(input, packages);
  if (versions) out.push(versions);
  return out.slice(0, MAX_QUESTIONS);
}

/** The report's line of a code line (1-based), from the block that holds it; null when no block does. */
export function reportLineOf(report: ParsedReport, text: string, markdown: string): number | null {
  const want = text.trim();
  if (!want) return null;
  for (const b of report.blocks) {
    const lines = b.value.split("\n");
    const i = lines.findIndex((l) => l.trim() === want || (want.length >= 8 && l.includes(want)));
    if (i >= 0) return b.line + i + firstCodeLine(b, markdown);
  }
  return null;
}

/**
 * A line that defines one of Retrace's own helpers (its echo, its package binder, their imports): `_echo(…)`
 * around the report's expression is the report's line and is not one of them.
 */
const RETRACE_DEFINITION =
  /^(?:function\s+_(?:echo|bindPackage)\b|(?:const|let|var)\s+_(?:echo|inspect|default)\b|_bindPackage\(_repositoryPackage\b|import\s+(?:\*\s+as\s+_repositoryPackage|sys\s+as\s+_sys|\{\s*inspect\s+as\s+_inspect\s*\})\b|_echo\s*=\s*(?:_?sys)\.displayhook\b)/;

/**
 * True when a line of the program that ran is one Retrace wrote, not the report: it defines one of Retrace's
 * helpers, and the report's text nowhere holds it.
 */
export function ownGeneratedLine(line: string, reportText: string): boolean {
  const want = line.trim();
  return RETRACE_DEFINITION.test(want) && !reportText.includes(want);
}

/** 1 when the block's line is its opening fence (its code starts on the next line), 0 for indented or plain code. */
function firstCodeLine(b: ReportBlock, markdown: string): number {
  if (b.plain) return 0;
  const line = markdown.split("\n", b.line)[b.line - 1] ?? "";
  return /^[ \t]*(?:`{3,}|~{3,})/.test(line) ? 1 : 0;
}

/** The first line of the report's code that uses `name` as a word: its report line and text. */
export function firstUse(
  report: ParsedReport,
  name: string,
  markdown: string,
): { line: number; text: string } | null {
  const word = new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}(?![\\w$])`);
  for (const b of report.blocks) {
    if (b.kind !== "code" && !b.kind.endsWith("transcript") && b.kind !== "shell") continue;
    const lines = b.value.split("\n");
    const i = lines.findIndex((l) => word.test(l));
    if (i >= 0) return { line: b.line + i + firstCodeLine(b, markdown), text: lines[i]!.trim() };
  }
  return null;
}

/**
 * The run completed and the report says which output is wrong nowhere: quote what ran here and the blocks whose
 * role the report does not state, so the reporter answers about this output, not in general.
 */
export function unclaimedOutputQuestion(input: QuestionInput, printed: string): string {
  const lines = printed
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== "");
  const ran =
    lines.length === 0
      ? "The code runs here without an error and prints nothing"
      : `The code runs here without an error and prints ${lines
          .slice(0, 3)
          .map((l) => quote(l, 60))
          .join(", ")}${lines.length > 3 ? ` (and ${lines.length - 3} more line(s))` : ""}`;
  const unlabelled = outcomeBlocks(input.report)[0];
  const block = unlabelled
    ? `; the block at line ${unlabelled.line} (${quote(telling(unlabelled), 60)}) is not marked as what you get or what you expect`
    : "; the report quotes no output or error of its own";
  const expected = input.expectations.expectedOutput;
  const ask =
    expected.length > 0
      ? `Is that what you see? The report expects ${expected
          .slice(0, 2)
          .map((x) => quote(x, 60))
          .join(", ")}: which line is wrong?`
      : "Is that what you see? Which line is wrong, and what did you expect it to be?";
  return `${ran}${block}. ${ask}`;
}

/** The run's NEEDS_INFO, as the matcher folded it: what its question can name. */
export interface FoldFindings {
  verdict: string;
  missingName?: string;
  badLine?: string;
  noClaim?: boolean;
  questions: string[];
}

/**
 * The run's questions made specific to the report: the undefined name with the report's line that uses it, the
 * line that does not parse with its number, the output no one says is wrong quoted. Other verdicts' questions and
 * findings with nothing to add pass through unchanged.
 */
export function runQuestions(input: QuestionInput, fold: FoldFindings, printed: string): string[] {
  if (fold.verdict !== "NEEDS_INFO") return fold.questions;
  const { report } = input;
  if (fold.noClaim) return [unclaimedOutputQuestion(input, printed)];
  if (fold.missingName) {
    const name = fold.missingName;
    const use = firstUse(report, name, input.text);
    if (use)
      return [
        `The code uses \`${name}\` at line ${use.line} of the report (${quote(use.text)}) but never defines or imports it: could you include where \`${name}\` comes from (its value, or the import), so the snippet runs on its own?`,
      ];
  }
  if (fold.badLine !== undefined) {
    const n = reportLineOf(report, fold.badLine, input.text);
    const questions = fold.questions.map(python2Question);
    if (n !== null)
      return questions.map((q) =>
        q.replace(/^This line of the code does not parse:/, `Line ${n} of the report does not parse:`),
      );
    return questions;
  }
  return fold.questions;
}

/**
 * A parse error Python 3 gives only to Python 2 code (`print x`, `exec code`): the code is not incomplete, it is
 * written for a runtime the sandbox does not have, and the question says so instead of asking for "the exact code".
 */
export function python2Question(q: string): string {
  const m = /\(SyntaxError: Missing parentheses in call to '(print|exec)'.*?\)\.\s/.exec(q);
  if (!m) return q;
  return `${q.slice(0, m.index + m[0].length)}It is Python 2 code (a \`${m[1]}\` statement), and the sandbox runs Python 3: could you give the code as it runs on Python 3, and say whether the problem shows there?`;
}

/**
 * What the report lacks, as facts for the model's prompt (the same findings the questions name), one line each:
 * screenshots, code only inline in prose, no stated wrong outcome, versions not given.
 */
export function reportGaps(input: QuestionInput): string[] {
  const { report, expectations } = input;
  const out: string[] = [];
  const shots = screenshotCount(input.markdown);
  if (shots > 0) out.push(`${shots} screenshot(s): their content is not in the text`);
  // Code a fence holds (lines of prose the parser read as code are still code only in the prose).
  const hasCode = report.blocks.some(
    (b) => !b.plain && (b.kind === "code" || b.kind.endsWith("transcript") || b.kind === "shell"),
  );
  const calls = [...inlineCalls(report), ...proseCalls(report.proseWithCode)];
  if (!hasCode && calls.length > 0)
    out.push(
      `code only inline in the prose: ${calls
        .slice(0, 3)
        .map((c) => quote(c))
        .join(", ")}`,
    );
  if (!hasCode && calls.length === 0) out.push("no code at all (no code block, no inline call)");
  if (expectations.actual.kind === "unknown")
    out.push("no stated wrong output or error (what the run must show)");
  if (expectations.actual.kind === "error-unspecified") out.push("an error is described but not quoted");
  const versions = versionQuestion(input, []);
  if (versions)
    out.push(
      `the version ${versions
        .replace(/^Which version /, "")
        .replace(/ and which version /g, " and ")
        .replace(/ do you use\?.*$/, "")}`,
    );
  return out.map((g) => `missing from the report: ${g}`);
}
