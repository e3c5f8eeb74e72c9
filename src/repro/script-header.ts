/**
 * The reproduction file written next to the report: a header comment (date, runtime, package versions, the
 * verdict and the completions made), then the script exactly as it ran.
 */
import type { ReproResult } from "./result.ts";

export function reproductionFile(
  result: ReproResult,
  date: Date,
): { filename: string; content: string } | null {
  const script = result.script;
  if (!script) return null;
  const py = result.language === "python";
  const runtime = `${result.runtime.name === "python" ? "Python" : "Node.js"} ${result.runtime.version ?? "(version unknown)"}`;
  const packages = result.versions.map((v) => `${v.name} ${v.version}`).join(", ") || "standard library only";
  const lines = [
    `Reproduction of: ${result.title}`,
    `Verdict: ${result.verdict} (${result.evidence.reproducedRuns}/${result.evidence.runs} runs) on ${date.toISOString().slice(0, 10)}`,
    `Runtime: ${runtime} | Packages: ${packages}`,
    ...(result.matrixSummary ? [`Versions: ${result.matrixSummary}`] : []),
    ...(script.completions.length > 0
      ? [
          "Completed by Retrace (the reporter's logic is unchanged):",
          ...script.completions.map((c) => `  - ${c}`),
        ]
      : []),
    `Run: ${py ? "python3" : result.language === "typescript" ? "npx tsx" : "node"} ${script.filename}`,
  ];
  const header = py
    ? `"""\n${lines.map((l) => l.replace(/"""/g, "'''")).join("\n")}\n"""\n`
    : `/*\n${lines.map((l) => ` * ${l.replace(/\*\//g, "* /")}`).join("\n")}\n */\n`;
  // A shebang-free script: the header goes first; Python keeps `from __future__` imports working only at the top.
  let code = script.code;
  if (py && /^from __future__ import/m.test(code)) {
    const futures = code.split("\n").filter((l) => l.startsWith("from __future__ import"));
    code = [...futures, ...code.split("\n").filter((l) => !l.startsWith("from __future__ import"))].join(
      "\n",
    );
    return {
      filename: script.filename,
      content: `${futures.join("\n")}\n${header}${code.split("\n").slice(futures.length).join("\n")}`,
    };
  }
  return { filename: script.filename, content: `${header}\n${code}` };
}
