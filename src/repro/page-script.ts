/**
 * Python written into an HTML page for an in-browser interpreter (Brython, PyScript): `<script
 * type="text/python">…</script>`, `<py-script>…</py-script>`. The page itself is no program a sandbox runs; the
 * Python inside it is the report's code, judged on our runtime like any other Python (another runtime's bug is
 * judged on ours). Pure.
 */

const PAGE = /<(?:!doctype\s+html|html|head|body|script)\b/i;
const PYTHON_SCRIPT =
  /<script\b[^>]*\btype\s*=\s*["']?text\/(?:x-)?python3?["']?[^>]*>([\s\S]*?)<\/script\s*>|<py-script\b[^>]*>([\s\S]*?)<\/py-script\s*>/gi;

/** The Python of a page's `text/python` scripts, each dedented, joined in page order; null when it has none. */
export function pythonInPage(value: string): string | null {
  if (!PAGE.test(value)) return null;
  const parts: string[] = [];
  for (const m of value.matchAll(PYTHON_SCRIPT)) {
    const body = dedent(m[1] ?? m[2] ?? "");
    if (body.trim() !== "") parts.push(body);
  }
  return parts.length > 0 ? parts.join("\n") : null;
}

function dedent(text: string): string {
  const lines = text
    .replace(/^\s*\n/, "")
    .replace(/\s+$/, "")
    .split("\n");
  const indents = lines.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut)).join("\n");
}
