/**
 * A name the code uses for data the report gives in words (issue 12, hold15, nashwaan/xml-js#51): the code calls
 * `xml2json(xmlString, options)` and never defines `xmlString`, while the prose says "The input XML string:"
 * and quotes the XML in one inline span. The name is the label's words (`xmlString`, `xml_string`, `inputXml`
 * for "input XML"); the value is that span, as a string. Only a name of two words or more that the code never
 * binds, and only when exactly one labelled span gives it: a one-word name (`message`, `data`) is too common to
 * be read off a label, and two candidate values are a question for the reporter, not a guess.
 */
import { jsParameterNames } from "./repository-binding.ts";

export interface LabelledData {
  name: string;
  value: string;
  label: string;
}

const STRING_QUOTES = /"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/g;

function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_$]+/g, " ")
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== "");
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Whether the code binds the name itself (a declaration, an assignment, a parameter, an import). */
function boundIn(code: string, name: string, language: "python" | "js"): boolean {
  const n = escapeRe(name);
  if (language === "js")
    return (
      jsParameterNames(code).has(name) ||
      new RegExp(
        `\\b(?:let|const|var)\\s+[^=;\\n]*?(?<![\\w$.])${n}(?![\\w$])|\\bimport\\b[^;\\n]*(?<![\\w$.])${n}(?![\\w$])|\\b(?:function\\*?|class)\\s+${n}(?![\\w$])|(?<![\\w$.])${n}\\s*=(?![=>])`,
      ).test(code)
    );
  return new RegExp(
    `(?<![\\w.])${n}\\s*(?::[^=\\n]*)?=(?!=)|\\b(?:def|class)\\s+${n}\\b|\\bdef\\s+\\w+\\s*\\([^)]*(?<![\\w.])${n}\\b|\\blambda\\b[^:\\n]*(?<![\\w.])${n}\\b|\\b(?:as|import|global|nonlocal)\\b[^\\n]*(?<![\\w.])${n}\\b|\\bfor\\b[^\\n]*(?<![\\w.])${n}\\b[^\\n]*\\bin\\b`,
  ).test(code);
}

/** Names of two words or more the code reads and never binds, each bound to the one span its label quotes. */
export function labelledData(code: string, language: "python" | "js", prose: string): LabelledData[] {
  const scan = code.replace(STRING_QUOTES, '""').replace(language === "js" ? /\/\/[^\n]*/g : /#[^\n]*/g, "");
  const names = new Set<string>();
  for (const m of scan.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)(?![\w$])(?!\s*[:(])/g)) names.add(m[1]!);
  const lines = prose.split("\n");
  const out: LabelledData[] = [];
  for (const name of names) {
    const words = wordsOf(name);
    if (words.length < 2 || words.length > 5 || words.some((w) => !/^[a-z]+\d*$/.test(w))) continue;
    if (boundIn(scan, name, language)) continue;
    const label = new RegExp(
      `(?:^|[^\\w])${words.map(escapeRe).join("[\\s_-]+")}\\b[^\`\\n]{0,40}:\\s*$`,
      "i",
    );
    const sameLine = new RegExp(
      `(?:^|[^\\w])${words.map(escapeRe).join("[\\s_-]+")}\\b[^\`\\n]{0,40}:\\s*\`([^\`\\n]+)\`\\s*\\.?$`,
      "i",
    );
    const found: LabelledData[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const here = sameLine.exec(line);
      if (here) {
        found.push({ name, value: here[1]!, label: line.trim() });
        continue;
      }
      if (!label.test(line)) continue;
      const next = /^\s*`([^`\n]+)`\s*$/.exec(lines[i + 1] ?? "");
      if (next) found.push({ name, value: next[1]!, label: line.trim() });
    }
    if (found.length === 1) out.push(found[0]!);
  }
  return out;
}
