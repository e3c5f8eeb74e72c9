/**
 * A Node REPL session pasted outside a fence: as a markdown quote (`> var b = new X('a')` / `undefined` /
 * `> b.size`, the answers under each prompt read by markdown as the quote's continuation), or one line per inline
 * code span (`` `> b.contains('x')` `` / `` `false` ``). Neither parses as a program (`>` opens no statement): read
 * as the transcript it is, the prompted lines run and the lines under them the answers they gave (issue 12,
 * hold25). Pure.
 *
 * Only when the first line is a prompt, every prompted line holds a JavaScript statement (a declaration, an
 * assignment, a call or subscript of a name, a property read), and at least one line is an unprompted answer: a
 * quote whose every line starts with `> ` is a quotation, and a quoted sentence (`> Note: it fails.`) is no
 * statement.
 */

const JS_STATEMENT =
  /^(?:(?:var|let|const)[ \t]+[\w${}, \t]+=[^=>]|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*[ \t]*(?:[([]|=[^=>])|(?:new|await)[ \t]+[A-Za-z_$])/;
/** A bare property read (`b.size`): a statement only of a name an earlier prompt bound (`> out.txt` is a redirect). */
const PROPERTY_READ = /^([A-Za-z_$][\w$]*)(?:\.[A-Za-z_$][\w$]*)+[ \t]*;?$/;
const BINDING = /^(?:(?:var|let|const)[ \t]+)?([A-Za-z_$][\w$]*)[ \t]*=[^=>]/;

/** The session with Node's `> ` prompts (a closing empty prompt dropped), or null when the text is not one. */
export function angleAsNode(text: string): string | null {
  const lines = text
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((l) => l.trimEnd());
  while (lines.length > 0 && (lines[lines.length - 1] === "" || lines[lines.length - 1] === ">")) lines.pop();
  const first = lines.findIndex((l) => l.trim() !== "");
  if (first < 0 || !/^> \S/.test(lines[first]!)) return null;
  if (lines.some((l) => /^>\s*>/.test(l) || /^>(?! \S)/.test(l))) return null;
  const prompted = lines.filter((l) => l.startsWith(">")).map((l) => l.slice(2).trim());
  const bound = new Set<string>();
  for (const p of prompted) {
    const read = PROPERTY_READ.exec(p);
    if (!JS_STATEMENT.test(p) && !(read && bound.has(read[1]!))) return null;
    const b = BINDING.exec(p);
    if (b) bound.add(b[1]!);
  }
  if (!lines.some((l, i) => i > first && l.trim() !== "" && !l.startsWith(">"))) return null;
  return lines.join("\n");
}

/** A paragraph whose every line is one inline code span: the spans' text, a line each; null otherwise. */
export function tickedLines(raw: string): string | null {
  const lines = raw
    .replace(/\r\n/g, "\n")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const spans = lines.map((l) => /^[ \t]*`([^`\n]+)`[ \t]*$/.exec(l)?.[1] ?? null);
  if (spans.length < 2 || spans.some((s) => s === null)) return null;
  return spans.join("\n");
}
