/**
 * A linear pre-scan that takes the shapes whose parse cost grows faster than the text away before the markdown
 * parser sees a report (issue 14: a 65,536-character report of `[*` repeated cost 16 s of CPU per parse, `*a_`
 * 46 s, `>` repeated overflowed the stack). Real reports never use these shapes, and on a report without them
 * the text is returned unchanged (the same string), so its code blocks, expectations and versions are too:
 *
 * - **Nesting**: a line opening more than MAX_NESTING quote or list containers keeps the first MAX_NESTING and
 *   loses the other markers (its text stays); leading whitespace longer than MAX_INDENT characters is cut to
 *   MAX_INDENT (a list nested one level per two spaces, 2,000 levels deep).
 * - **Delimiter runs**: a paragraph (lines between blank lines) holding more than MAX_DELIMITERS emphasis or
 *   link delimiters (`*`, `_` not between letters or digits, `[`, `]`) has them backslash-escaped: the parser
 *   then reads them as the literal characters they are (its text is the same), with no opener to match.
 *
 * Lines inside a fenced code block opened in the first column (so at the top level: no quote or list holds it,
 * and the parser reads it until its closing fence or the end) are left as written. A fence indented or inside a
 * container is read as prose here, the safe side: a list item's fence ends with the item, and lines the parser
 * reads as prose after it must not pass as code. What this still misreads (a fence line inside an HTML block,
 * which the parser reads as HTML) stays under the parse's CPU time limit (`parseTimeMs`).
 */

/** Quote or list containers one line may open; real reports use a handful. */
export const MAX_NESTING = 16;
/** Leading whitespace kept on a line, in characters. */
export const MAX_INDENT = 64;
/** Emphasis and link delimiters in one paragraph before they are escaped. */
export const MAX_DELIMITERS = 128;
/**
 * Emphasis and link delimiters a report's prose may hold at all. Escaped or not, the parser spends about 10 µs on
 * each (a report of nothing else cost 1.1 s of CPU, parsed twice, escaped); the most in any bundled report is 46,
 * so past this the report is refused, unread, in linear time.
 */
export const MAX_REPORT_DELIMITERS = 2_048;

const WORD = /[\p{L}\p{N}]/u;

/** The end of the line's container prefix after `keep` levels, and its level count (linear in the line). */
function containerPrefix(line: string, keep: number): { levels: number; cut: number; end: number } {
  let p = 0;
  let levels = 0;
  let cut = -1;
  for (;;) {
    let q = p;
    while (q < line.length && (line[q] === " " || line[q] === "\t")) q++;
    let next = -1;
    const c = line[q];
    if (c === ">") next = q + 1;
    else if ((c === "-" || c === "*" || c === "+") && (q + 1 === line.length || /[ \t]/.test(line[q + 1]!)))
      next = q + 1;
    else {
      let d = q;
      while (d < line.length && d - q < 9 && line[d]! >= "0" && line[d]! <= "9") d++;
      if (
        d > q &&
        (line[d] === "." || line[d] === ")") &&
        (d + 1 === line.length || /[ \t]/.test(line[d + 1]!))
      )
        next = d + 1;
    }
    if (next < 0) return { levels, cut, end: p };
    if (levels === keep) cut = p;
    levels++;
    p = next;
  }
}

function isDelimiter(text: string, i: number): boolean {
  const c = text[i];
  if (c === "*" || c === "[" || c === "]") return text[i - 1] !== "\\";
  if (c !== "_" || text[i - 1] === "\\") return false;
  const before = text[i - 1];
  const after = text[i + 1];
  return !(before !== undefined && after !== undefined && WORD.test(before) && WORD.test(after));
}

function escapeDelimiters(line: string): string {
  let out = "";
  for (let i = 0; i < line.length; i++) out += isDelimiter(line, i) ? `\\${line[i]}` : line[i];
  return out;
}

/** The report's markdown with pathological nesting and delimiter runs neutralised (see the module's comment). */
export function boundMarkdown(markdown: string): string {
  return scan(markdown).text;
}

/** Emphasis and link delimiters outside first-column fences, over the whole report. */
export function delimiterCount(markdown: string): number {
  return scan(markdown).total;
}

/** The text the parser is given, or why the report is not read (too many delimiters in its prose). */
export function boundReport(markdown: string): { text: string; refused: string | null } {
  const { text, total } = scan(markdown);
  if (total > MAX_REPORT_DELIMITERS)
    return {
      text: "",
      refused: `the report's prose holds ${total} emphasis or link delimiters (\`*\`, \`_\`, \`[\`, \`]\`), over the ${MAX_REPORT_DELIMITERS} a report is read with`,
    };
  return { text, refused: null };
}

function scan(markdown: string): { text: string; total: number } {
  let total = 0;
  const lines = markdown.split("\n");
  let changed = false;
  let fence: { char: string; length: number } | null = null;
  // The paragraph being read: its line indexes and delimiter count.
  let paragraph: number[] = [];
  let delimiters = 0;
  const endParagraph = () => {
    total += delimiters;
    if (delimiters > MAX_DELIMITERS) {
      for (const i of paragraph) lines[i] = escapeDelimiters(lines[i]!);
      changed = true;
    }
    paragraph = [];
    delimiters = 0;
  };
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (fence) {
      const close = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length) fence = null;
      continue;
    }
    const open = /^(`{3,}|~{3,})([^`]*)$/.exec(line) ?? /^(~{3,})(.*)$/.exec(line);
    if (open) {
      endParagraph();
      fence = { char: open[1]![0]!, length: open[1]!.length };
      continue;
    }
    const prefix = containerPrefix(line, MAX_NESTING);
    if (prefix.levels > MAX_NESTING) {
      line = line.slice(0, prefix.cut) + line.slice(prefix.end);
      changed = true;
    }
    const indent = /^[ \t]*/.exec(line)![0].length;
    if (indent > MAX_INDENT) {
      line = " ".repeat(MAX_INDENT) + line.slice(indent);
      changed = true;
    }
    lines[i] = line;
    if (/^[ \t>]*$/.test(line)) {
      endParagraph();
      continue;
    }
    paragraph.push(i);
    // A link reference definition's label (`[a]: <b>` on every line) is read once, not matched against others.
    const label = /^ {0,3}\[[^[\]\\]{1,999}\]:/.exec(line);
    for (let j = label ? label[0].length : 0; j < line.length; j++) if (isDelimiter(line, j)) delimiters++;
  }
  endParagraph();
  return { text: changed ? lines.join("\n") : markdown, total };
}
