/**
 * The program for a call plan read from a report's prose (`prose-call.ts`), and the verdict its runs decide.
 *
 * The program is the sandbox's probe and the call at once: it loads the installed package at the resolved version
 * (`import()`, so an ES-module-only release loads too), looks up each name the report gives (a named export, a
 * member of the package's own name, `Case.title`), and goes on only when exactly one function answers: none, or
 * several different ones, prints why and calls nothing. Each call prints its input and what it gave, one line each.
 *
 * The verdict: REPRODUCED only when every call printed exactly the value the report claims for it (and the
 * existing matcher agrees); NOT_REPRODUCED when the calls ran and gave other values (named); NEEDS_INFO, with
 * the call Retrace tried, when a call threw, gave a Promise, looks like a callback API, or no single function
 * answered. Never PARTIAL, never a verdict from a value the report did not claim. Pure: text in, text out.
 */
import type { AttemptOutcome } from "./attempt.ts";
import type { Program } from "./complete.ts";
import { normalizeText } from "./normalize.ts";
import { type ProseCall, type ProseCallPlan, readProseCall } from "./prose-call.ts";
import type { ReportedBehaviour } from "./result.ts";
import { sameProduct } from "./versions.ts";

/** The first line of every such program: how the verdict knows the program was written from the prose. */
export const PROSE_CALL_HEADER =
  "// Retrace wrote this program from the report's prose: the report has no code that runs.";
const MARK = "RETRACE-PROSE-CALL";
const SEP = " => ";

/** The call as a reader would write it (`parseDate("31st march, 2016")`). */
export function callText(plan: ProseCallPlan, call: ProseCall, pkg: string, callee?: string): string {
  const name =
    callee ??
    (plan.names.length === 1 ? plan.names[0]! : plan.names.length === 0 ? camel(pkg) : plan.names.join("|"));
  return `${name}(${call.args})`;
}

function camel(pkg: string): string {
  return pkg.replace(/^@[^/]+\//, "").replace(/[-_.]+([a-z0-9])/gi, (_m, c: string) => c.toUpperCase());
}

/** The reproduction program for `plan` on the npm package `pkg`. */
export function proseCallProgram(plan: ProseCallPlan, pkg: string): Program {
  const names = plan.names.map((n) => {
    const path = n.split(".");
    return [path, path.length > 1 && sameProduct(path[0]!, pkg)] as const;
  });
  const calls = plan.calls.map((c) => `  [${JSON.stringify(c.label)}, () => [${c.args}]],`);
  const code = [
    PROSE_CALL_HEADER,
    `// Read from ${plan.source}. Each call prints its input and what it gave; the names the report gives are`,
    "// looked up in the package as installed, and the calls run only when exactly one function answers.",
    'const _util = require("util");',
    `const _names = ${JSON.stringify(names)};`,
    "const _calls = [",
    ...calls,
    "];",
    "function _at(root, path) {",
    "  let self;",
    "  let v = root;",
    "  for (const k of path) {",
    '    if (v == null || (typeof v !== "object" && typeof v !== "function") || !(k in v)) return null;',
    "    self = v;",
    "    v = v[k];",
    "  }",
    '  return typeof v === "function" ? { fn: v, self } : null;',
    "}",
    "function _show(v) {",
    '  if (typeof v === "string") return v.includes("\\n") ? JSON.stringify(v) : v;',
    "  if (v instanceof Date) return String(v);",
    '  if (v === null || typeof v !== "object") return String(v);',
    "  return _util.inspect(v, { depth: 6, breakLength: Infinity });",
    "}",
    "(async () => {",
    `  const ns = await import(${JSON.stringify(pkg)});`,
    "  const roots = [ns];",
    "  for (const r of [ns.default, ns.default && ns.default.default])",
    "    if (r != null && !roots.includes(r)) roots.push(r);",
    "  const found = [];",
    "  if (_names.length === 0) {",
    '    const whole = roots.filter((r) => typeof r === "function");',
    `    if (whole.length > 0) found.push({ name: ${JSON.stringify(camel(pkg))}, fn: whole[0], self: undefined });`,
    "  }",
    "  for (const [path, own] of _names) {",
    "    let hit = null;",
    "    for (const p of own ? [path.slice(1), path] : [path])",
    "      for (const r of roots)",
    '        if (!hit) hit = p.length > 0 ? _at(r, p) : typeof r === "function" ? { fn: r, self: undefined } : null;',
    '    if (hit) found.push({ name: path.join("."), ...hit });',
    "  }",
    "  const fns = [...new Set(found.map((f) => f.fn))];",
    "  if (fns.length !== 1) {",
    "    const exported = [...new Set(roots.flatMap((r) => Object.keys(r)))].slice(0, 30);",
    `    console.log(${JSON.stringify(`${MARK} unresolved `)} + JSON.stringify({ found: found.map((f) => f.name), exported }));`,
    "    return;",
    "  }",
    "  const { fn, self, name } = found[0];",
    `  console.log(${JSON.stringify(`${MARK} callee `)} + JSON.stringify({ name }));`,
    "  for (const [label, args] of _calls) {",
    "    let v;",
    "    try {",
    "      v = fn.apply(self, args());",
    "    } catch (e) {",
    `      console.log(${JSON.stringify(`${MARK} threw `)} + JSON.stringify({ label, error: String((e && e.stack) || e).split("\\n")[0] }));`,
    "      continue;",
    "    }",
    '    if (v != null && typeof v.then === "function") {',
    "      if (typeof v.catch === 'function') v.catch(() => {});",
    `      console.log(${JSON.stringify(`${MARK} promise `)} + JSON.stringify({ label }));`,
    "      continue;",
    "    }",
    "    if (v === undefined && fn.length > args().length) {",
    `      console.log(${JSON.stringify(`${MARK} callback `)} + JSON.stringify({ label, arity: fn.length }));`,
    "      continue;",
    "    }",
    `    console.log(label + ${JSON.stringify(SEP)} + _show(v));`,
    "  }",
    "})();",
    "",
  ].join("\n");
  return {
    language: "javascript",
    runtime: "node",
    files: { "reproduction.cjs": code },
    entry: "reproduction.cjs",
    moduleFormat: "cjs",
    completions: [
      `the report has no code that runs: Retrace wrote the call from the report's prose (${plan.source}): ${plan.calls
        .slice(0, 4)
        .map((c) => `\`${callText(plan, c, pkg)}\``)
        .join(", ")}${plan.calls.length > 4 ? ", …" : ""}`,
    ],
    dependencies: [pkg],
    ecosystem: "npm",
    placeholders: [],
  };
}

/** What the report claims the calls print, for the existing matcher. */
export function proseCallClaim(plan: ProseCallPlan): ReportedBehaviour {
  return {
    kind: "output",
    exceptionType: null,
    exceptionMessage: null,
    output: plan.calls.filter((c) => c.side === "bad").map((c) => `${c.label}${SEP}${c.claimed}`),
    source: `the report's prose (${plan.source})`,
  };
}

export function isProseCallProgram(program: Program): boolean {
  return (program.files[program.entry] ?? "").startsWith(PROSE_CALL_HEADER);
}

const DATE_STRING = /^(\w{3} \w{3} \d{2} \d{4} \d{2}:\d{2}:\d{2}) GMT[+-]\d{4}\b/;

/** How a printed value compares with the claimed one: equal, equal but for a Date's time zone, or different. */
export function compareValue(claimed: string, seen: string): "same" | "zone" | "differs" {
  const norm = (s: string) => normalizeText(s.trim(), { times: false }).trim();
  if (norm(claimed) === norm(seen)) return "same";
  const a = DATE_STRING.exec(claimed.trim());
  const b = DATE_STRING.exec(seen.trim());
  if (a && b && a[1] === b[1]) return "zone";
  return "differs";
}

interface RunReading {
  values: Map<string, string>;
  problem: string | null;
  callee: string | null;
}

function readRun(plan: ProseCallPlan, stdout: string, pkg: string): RunReading {
  const values = new Map<string, string>();
  let callee: string | null = null;
  for (const line of stdout.replace(/\r\n?/g, "\n").split("\n")) {
    if (line.startsWith(`${MARK} `)) {
      const [, what, json] = /^\S+ (\w+) (.*)$/.exec(line) ?? [];
      let info: { label?: string; error?: string; found?: string[]; exported?: string[]; name?: string } = {};
      try {
        info = JSON.parse(json ?? "{}");
      } catch {}
      const call = plan.calls.find((c) => c.label === info.label);
      if (what === "callee") {
        callee = info.name ?? null;
        continue;
      }
      const tried = call ? `\`${callText(plan, call, pkg, callee ?? undefined)}\`` : "the call";
      if (what === "unresolved") {
        const named = plan.names.length > 0 ? plan.names.map((n) => `\`${n}\``).join(", ") : "no function";
        return {
          values,
          callee,
          problem:
            (info.found?.length ?? 0) > 1
              ? `the report names ${named}, and the package gives more than one of them as different functions (${info.found!.join(", ")}), so Retrace does not guess which one is meant`
              : `the report names ${named}, and the installed package gives ${plan.names.length > 0 ? "none of them as a function" : "no single function of its own"} (its exports: ${(info.exported ?? []).slice(0, 12).join(", ") || "none"})`,
        };
      }
      if (what === "threw")
        return { values, callee, problem: `${tried} threw \`${info.error ?? "an error"}\`` };
      if (what === "promise")
        return {
          values,
          callee,
          problem: `${tried} returned a Promise, an asynchronous API Retrace does not guess how to await`,
        };
      if (what === "callback")
        return {
          values,
          callee,
          problem: `${tried} returned nothing and takes more arguments (a callback API, it seems)`,
        };
      continue;
    }
    const at = line.indexOf(SEP);
    if (at < 0) continue;
    const label = line.slice(0, at);
    if (plan.calls.some((c) => c.label === label) && !values.has(label))
      values.set(label, line.slice(at + SEP.length));
  }
  return { values, problem: null, callee };
}

/**
 * The verdict of a prose call's attempt, from its runs: the outcome as it is for anything but a finished run
 * (an install failure, a runtime shortfall), else REPRODUCED / NOT_REPRODUCED / NEEDS_INFO as the module says.
 */
export function settleProseCall(plan: ProseCallPlan, pkg: string, outcome: AttemptOutcome): AttemptOutcome {
  if (outcome.runs.length === 0 || outcome.runtimeShortfall) return outcome;
  const readings = outcome.runs.map((r) => ({ run: r, reading: readRun(plan, r.stdout, pkg) }));
  const callee = readings.find((x) => x.reading.callee)?.reading.callee ?? undefined;
  const shown = plan.calls.map((c) => `\`${callText(plan, c, pkg, callee)}\``).join(", ");
  const built = `The report has no code that runs; Retrace wrote the call from its prose (${plan.source}) and ran ${shown}.`;
  const ask = (problem: string): AttemptOutcome => ({
    ...outcome,
    verdict: "NEEDS_INFO",
    fold: outcome.fold ? { ...outcome.fold, verdict: "NEEDS_INFO", detail: problem, questions: [] } : null,
    questions: [
      `Retrace tried ${shown} from the report's words, but ${problem}. Could you add a short snippet that calls the package as you do, with its output?`,
    ],
    reasons: [built, `Not decided: ${problem}.`],
  });
  const problem = readings.find((x) => x.reading.problem)?.reading.problem;
  if (problem) return ask(problem);
  const failed = readings.find((x) => x.run.exitCode !== 0 || x.run.exception || x.run.stoppedBy);
  if (failed) {
    const why = failed.run.exception
      ? `the run stopped on \`${failed.run.exception.type}: ${failed.run.exception.message.split("\n")[0]}\``
      : failed.run.stoppedBy
        ? `the run was stopped (${failed.run.stoppedBy})`
        : `the run exited with status ${failed.run.exitCode}`;
    return ask(why);
  }
  const missing = plan.calls.find((c) => readings.some((x) => !x.reading.values.has(c.label)));
  if (missing) return ask(`\`${callText(plan, missing, pkg, callee)}\` printed no result`);
  const differs: string[] = [];
  const goodFails: string[] = [];
  let zoneOnly = false;
  for (const c of plan.calls) {
    for (const { reading } of readings) {
      const seen = reading.values.get(c.label)!;
      const cmp = compareValue(c.claimed, seen);
      if (cmp === "zone") zoneOnly = true;
      if (cmp === "differs") {
        const said = `\`${callText(plan, c, pkg, callee)}\` gives \`${seen}\`, where the report says \`${c.claimed}\``;
        (c.side === "bad" ? differs : goodFails).push(said);
        break;
      }
    }
  }
  // The report's own working case does not hold here: what it compares against is not what it says.
  if (goodFails.length > 0 && differs.length === 0)
    return ask(`the report's working case does not hold here (${goodFails.join("; ")})`);
  if (differs.length > 0) {
    const detail = `the calls give other values than the report claims: ${differs.join("; ")}`;
    return {
      ...outcome,
      verdict: "NOT_REPRODUCED",
      fold: outcome.fold
        ? { ...outcome.fold, verdict: "NOT_REPRODUCED", reproducedRuns: 0, detail, questions: [] }
        : null,
      questions: [],
      reasons: [built, `Not reproduced: ${detail}.`],
    };
  }
  if (zoneOnly)
    return ask(
      "the dates printed are the ones the report shows but in another time zone than the reporter's",
    );
  if (outcome.fold?.verdict !== "REPRODUCED")
    return ask(
      `the values printed are the claimed ones, but the run did not match the report (${outcome.fold?.detail ?? "no detail"})`,
    );
  return {
    ...outcome,
    verdict: "REPRODUCED",
    questions: [],
    reasons: [
      built,
      `Every call gave the value the report claims: ${plan.calls.map((c) => `\`${callText(plan, c, pkg, callee)}\` → \`${c.claimed}\``).join(", ")}.`,
    ],
  };
}

/**
 * The prose call of a report whose code Retrace could not run: a program and its claim, an `ask` (a question
 * naming what is missing), or null. Only for an npm package the report is filed against, never a Python report.
 */
export function proseCallFor(
  report: { title: string; runtime: { name: string } | null; blocks: { language: string }[] },
  markdown: string,
  pkg: string | undefined,
): { program: Program; actual: ReportedBehaviour } | { ask: { question: string; reason: string } } | null {
  if (!pkg) return null;
  if (report.runtime?.name === "python" || report.blocks.some((b) => b.language === "python")) return null;
  if (/\b(?:pip3?\s+install|python[23]?|pypi|conda)\b/i.test(markdown)) return null;
  const reading = readProseCall(report.title, markdown, pkg);
  if (!reading) return null;
  if (reading.kind === "ask") return { ask: { question: reading.question, reason: reading.reason } };
  return { program: proseCallProgram(reading.plan, pkg), actual: proseCallClaim(reading.plan) };
}

/** The plan again, from the same report (pure: the same text reads the same), for settling the runs. */
export function proseCallPlanOf(title: string, markdown: string, pkg: string): ProseCallPlan | null {
  const reading = readProseCall(title, markdown, pkg);
  return reading?.kind === "plan" ? reading.plan : null;
}
