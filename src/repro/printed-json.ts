/**
 * Output compared as printed: a program whose last expression is `JSON.stringify(…, null, 4)` has its string
 * echoed the way Node's inspector shows a string (`'{\n' +` / `'    "qWE": [\n' +` … or one escaped line), while
 * the report shows the JSON as it reads, often hand-written with trailing commas. The two are the same output
 * when the string's contents, parsed as JSON, equal the report's block parsed as JSON with trailing commas
 * allowed: structurally, value for value, never a looser text match. Only objects and arrays count. Pure.
 */

/** The string an inspector literal (`'…'`, `"…"`, `` `…` ``) stands for, or null when it is not one. */
function decodeLiteral(literal: string): string | null {
  const q = literal[0];
  if ((q !== "'" && q !== '"' && q !== "`") || literal.length < 2 || literal[literal.length - 1] !== q)
    return null;
  const body = literal.slice(1, -1);
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === q) return null;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const n = body[++i];
    if (n === undefined) return null;
    const simple: Record<string, string> = {
      n: "\n",
      t: "\t",
      r: "\r",
      b: "\b",
      f: "\f",
      v: "\v",
      "0": "\0",
    };
    if (n in simple) out += simple[n];
    else if (n === "x" && /^[0-9a-fA-F]{2}$/.test(body.slice(i + 1, i + 3))) {
      out += String.fromCharCode(Number.parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (n === "u" && /^[0-9a-fA-F]{4}$/.test(body.slice(i + 1, i + 5))) {
      out += String.fromCharCode(Number.parseInt(body.slice(i + 1, i + 5), 16));
      i += 4;
    } else if (n === "\\" || n === "'" || n === '"' || n === "`") out += n;
    else return null;
  }
  return out;
}

const LITERAL = String.raw`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\x60(?:[^\x60\\\n]|\\.)*\x60`;
const SEGMENT = new RegExp(`^\\s*(${LITERAL})\\s*(\\+)?\\s*$`);

/** The strings the inspector printed in `text`: one literal on a line, or literals joined with `+` across lines. */
export function printedStrings(text: string): string[] {
  const found: string[] = [];
  let parts: string[] | null = null;
  for (const line of text.split("\n")) {
    const m = SEGMENT.exec(line);
    if (!m) {
      parts = null;
      continue;
    }
    const s = decodeLiteral(m[1]!);
    if (s === null) {
      parts = null;
      continue;
    }
    parts = parts ? [...parts, s] : [s];
    if (!m[2]) {
      found.push(parts.join(""));
      parts = null;
    }
  }
  return found;
}

/** JSON with trailing commas allowed (outside strings), as a reporter writes it by hand; null when it is not JSON. */
export function lenientJson(text: string): unknown {
  const cleaned = text.replace(/"(?:[^"\\]|\\.)*"|,(\s*[}\]])/g, (all, close: string | undefined) =>
    close === undefined ? all : close,
  );
  try {
    return JSON.parse(cleaned);
  } catch {
    return null;
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** The reported lines, read as one JSON object or array, equal a string the run printed, parsed as JSON. */
export function printedJsonMatches(reported: string[], observedText: string): boolean {
  const want = lenientJson(reported.join("\n"));
  if (typeof want !== "object" || want === null) return false;
  return printedStrings(observedText).some((s) => {
    const got = lenientJson(s);
    return typeof got === "object" && got !== null && sameValue(want, got);
  });
}
