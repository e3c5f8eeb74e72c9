/**
 * The reproduction report: the markdown comment posted on the issue (and `report.md`). Three shapes:
 * reproduced (summary, evidence, versions, reproduction steps), partial (what matched and what did not,
 * questions), cannot reproduce / needs info (what was attempted, specific questions for the author).
 */
import { code, fence } from "./markdown.ts";
import { exitText, type ReproResult } from "../repro/result.ts";

const HEADLINE: Record<ReproResult["verdict"], string> = {
  REPRODUCED: "✅ Reproduced",
  PARTIAL: "⚠️ Partly reproduced",
  NOT_REPRODUCED: "❌ Not reproduced",
  NEEDS_INFO: "❓ Needs more information",
};

function reportedText(r: ReproResult): string {
  const rep = r.reported;
  switch (rep.kind) {
    case "exception":
      return `${code(`${rep.exceptionType}${rep.exceptionMessage ? `: ${rep.exceptionMessage}` : ""}`)} (from ${code(rep.source)})`;
    case "output":
      return `the output ${rep.output.length === 1 ? code(rep.output[0]!) : `of ${rep.output.length} lines`} (from ${code(rep.source)})`;
    case "hang":
      return "a hang (the program never finishes)";
    case "exit":
      return `${exitText(rep)} (from ${code(rep.source)})`;
    case "error-unspecified":
      return "an error, without quoting it";
    default:
      return "nothing specific";
  }
}

function observedText(r: ReproResult): string {
  const e = r.evidence;
  if (e.runs === 0) return "not run";
  if (e.stoppedBy)
    return `stopped by the sandbox (${e.stoppedBy}) after ${(e.durationMs / 1000).toFixed(1)} s`;
  if (e.exceptionType)
    return `${code(`${e.exceptionType}${e.exceptionMessage ? `: ${e.exceptionMessage}` : ""}`)} (exit code ${e.exitCode})`;
  // What the run printed, not only how it ended: the first lines of its output.
  const lines = e.outputExcerpt
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && l !== "…");
  if (lines.length === 0) return `nothing printed (exit code ${e.exitCode})`;
  const shown = lines.slice(0, 3).map((l) => code(l.length > 100 ? `${l.slice(0, 100)}…` : l));
  return `printed ${shown.join(", ")}${lines.length > 3 ? ` and ${lines.length - 3} more line(s)` : ""} (exit code ${e.exitCode})`;
}

export function renderReproReport(r: ReproResult, options: { scriptPath?: string } = {}): string {
  const out: string[] = [];
  out.push(`## Retrace: ${HEADLINE[r.verdict]}`, "");
  out.push(`**Issue:** ${code(r.title)}`, "", fence(r.summary, "text"), "");
  if (r.matrixSummary) out.push(`**Versions:** ${r.matrixSummary}`, "");

  if (r.evidence.runs > 0) {
    out.push("### Evidence", "");
    out.push("| | |", "|---|---|");
    out.push(`| Reported | ${reportedText(r).replace(/\|/g, "\\|")} |`);
    out.push(`| Observed | ${observedText(r).replace(/\|/g, "\\|")} |`);
    out.push(`| Runs | ${r.evidence.reproducedRuns} of ${r.evidence.runs} reproduced |`);
    out.push(`| Duration | ${r.evidence.durationMs} ms (median) |`);
    out.push("");
    if (r.differences.length > 0) {
      out.push("**Difference:**", "", ...r.differences.map((d) => `- ${code(d)}`), "");
    }
    if (r.evidence.outputExcerpt) {
      out.push(
        "<details><summary>Output of the run</summary>",
        "",
        fence(r.evidence.outputExcerpt, "text"),
        "",
        "</details>",
        "",
      );
    }
  }

  if (r.versions.length > 0 || r.runtime.version || r.matrix.length > 1) {
    out.push("### Versions", "");
    const runtimeName =
      r.runtime.name === "python" ? "Python" : r.runtime.name === "node" ? "Node.js" : r.runtime.name;
    // The sandbox's version is known only once something ran; never print "Python unknown".
    const runtimeLine = r.runtime.version
      ? `- Runtime: ${runtimeName} ${r.runtime.version}${r.runtime.reported ? ` (the report names ${r.runtime.reported})` : ""}`
      : r.runtime.reported
        ? `- Runtime: the report names ${runtimeName} ${r.runtime.reported}; nothing ran here`
        : null;
    if (runtimeLine) out.push(runtimeLine);
    for (const v of r.versions) {
      out.push(
        `- ${code(v.name)} ${v.version}${v.source === "unpinned" ? " (the report names no version; latest used)" : " (as reported)"}`,
      );
    }
    if (r.matrix.length > 1) {
      out.push("", "| configuration | packages | result |", "|---|---|---|");
      for (const m of r.matrix) {
        const pk = m.packages.map((p) => `${p.name} ${p.version}`).join(", ") || "—";
        const res =
          m.reproduced === null
            ? m.note
            : `${m.reproduced === "yes" ? "reproduces" : m.reproduced === "partial" ? "partly" : "does not reproduce"} (${m.reproducedRuns}/${m.runs})`;
        out.push(`| ${m.label} | ${pk} | ${res.replace(/\|/g, "\\|")} |`);
      }
    }
    out.push("");
  }

  if (r.reasons.length > 0) {
    out.push(
      r.verdict === "NEEDS_INFO" ? "### Why it could not run" : "### Notes",
      "",
      ...r.reasons.map((x) => `- ${code(x)}`),
      "",
    );
  }
  if (r.risks.length > 0) {
    out.push(
      "### Risky calls in the model-written script",
      "",
      "Found before it ran (the sandbox stayed offline and locked down):",
      "",
      ...r.risks.map((x) => `- ${code(x)}`),
      "",
    );
  }

  if (r.script && r.evidence.runs > 0) {
    const lang = r.language === "python" ? "python" : r.language === "typescript" ? "ts" : "js";
    const cmd = r.language === "python" ? "python3" : r.language === "typescript" ? "npx tsx" : "node";
    out.push(r.verdict === "REPRODUCED" ? "### Reproduction" : "### What was run", "");
    if (r.script.completions.length > 0) {
      out.push(
        `${r.script.author === "model" ? "Written by the model, then" : "Extracted from the report and"} completed (the reporter's logic is unchanged):`,
        "",
      );
      out.push(...r.script.completions.map((c) => `- ${c}`), "");
    } else if (r.script.author === "model") {
      out.push("Written by the model from the report's description:", "");
    }
    out.push(fence(r.script.code, lang), "");
    const deps = r.versions.filter((v) => v.source !== "latest");
    if (r.verdict === "REPRODUCED") {
      const install =
        deps.length === 0
          ? null
          : r.language === "python"
            ? `pip install ${deps.map((d) => `${d.name}==${d.version}`).join(" ")}`
            : `npm install ${deps.map((d) => `${d.name}@${d.version}`).join(" ")}`;
      out.push(
        "Steps:",
        "",
        ...(install ? [`1. \`${install}\``] : []),
        `${install ? "2" : "1"}. \`${cmd} ${options.scriptPath ?? r.script.filename}\``,
        "",
      );
    }
  }

  if (r.questions.length > 0) {
    out.push("### Questions for the author", "", ...r.questions.map((q, i) => `${i + 1}. ${code(q)}`), "");
  }
  const cost = r.model
    ? ` · model ${r.model}, ${r.tokens} tokens, $${r.costUsd.toFixed(4)}`
    : " · no model (deterministic)";
  out.push(
    `<sub>Retrace · ${r.attempts} attempt(s)${cost} · ${(r.durationMs / 1000).toFixed(1)} s</sub>`,
    "",
  );
  return out.join("\n");
}
