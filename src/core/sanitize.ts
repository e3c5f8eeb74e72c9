/**
 * Sanitizer for untrusted GitHub text (issue bodies, comments) before it reaches a prompt.
 *
 * Removes what a reader of the rendered issue does not see but a model would: HTML comments (only where the
 * markdown parser reads raw HTML, as GitHub does: a `<!--` in prose is shown as text), hidden elements
 * (`hidden`, `display:none`, `visibility:hidden`, `<template>`), link reference definitions (`[x]: url "t"`,
 * never rendered; a reference that uses one gets its URL inline), image alt text, link and image titles,
 * `alt`/`title` attributes, zero-width, bidi and other invisible/control characters. Decodes
 * HTML entities in prose (so `&#8203;` cannot smuggle a zero-width space past the filter).
 *
 * Code blocks (fenced and indented) and code spans are kept BYTE-FOR-BYTE: they are located with the
 * markdown parser (mdast-util-from-markdown + GFM) by source position, never by regex over the text.
 * Invisible characters inside code are reported (`codeWarnings`), not changed.
 */
import { decodeNamedCharacterReference } from "decode-named-character-reference";
import type { Nodes, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { decodeNumericCharacterReference } from "micromark-util-decode-numeric-character-reference";

export interface SanitizeReport {
  text: string;
  /** What was removed, by kind (counts). */
  removed: {
    comments: number;
    hiddenElements: number;
    invisibleChars: number;
    altTexts: number;
    titles: number;
    /** Link reference definitions (`[label]: url "title"`): never rendered, so dropped. */
    definitions: number;
  };
  /** Invisible or bidi characters found inside code (kept as is): one line per code block affected. */
  codeWarnings: string[];
}

interface Range {
  start: number;
  end: number;
}
interface Edit extends Range {
  replacement: string;
  /** What the edit removed, for the report (null: nothing was hidden, e.g. an image without alt text). */
  kind: "altTexts" | "titles" | "definitions" | null;
}

/**
 * Characters a reader does not see: format characters (zero-width, bidi controls, soft hyphen, BOM, tags),
 * control characters other than tab/newline/carriage return, and variation selectors used to hide text.
 */
const INVISIBLE =
  /[\p{Cf}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u115F\u1160\u3164\uFFA0]|[\u{E0100}-\u{E01EF}]/gu;
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);
const OPEN_TAG =
  /<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=<]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/g;
const HIDING_STYLE =
  /(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d])|opacity\s*:\s*0(?![.\d]))/i;

function isHidden(tag: string, attrs: string): boolean {
  const name = tag.toLowerCase();
  if (name === "template" || name === "script" || name === "style") return true;
  if (/(?:^|\s)hidden(?=\s|=|$)/i.test(attrs)) return true;
  const style = /(?:^|\s)style\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
  return style !== null && HIDING_STYLE.test(style[1] ?? style[2] ?? style[3] ?? "");
}

const inside = (pos: number, ranges: Range[]) => ranges.some((r) => pos >= r.start && pos < r.end);

/** A URL that can be written inline as `(url)` without quoting: otherwise a resolved reference drops it. */
const SIMPLE_URL = /^[^\s()<>\\"'`]+$/;

/**
 * Code ranges, raw HTML ranges (what the parser reports as `html` nodes, block or inline) and AST-based edits
 * (images, titles, link reference definitions and the references that use them), by source offset.
 */
function collect(tree: Root, source: string): { code: Range[]; html: Range[]; edits: Edit[] } {
  const code: Range[] = [];
  const html: Range[] = [];
  const edits: Edit[] = [];
  // The first definition of a label wins (CommonMark); its URL is written inline where a reference uses it.
  const urls = new Map<string, string>();
  const define = (node: Nodes) => {
    if (node.type === "definition" && !urls.has(node.identifier)) urls.set(node.identifier, node.url);
    if ("children" in node) for (const child of node.children) define(child as Nodes);
  };
  define(tree);
  const inlineUrl = (identifier: string) => {
    const url = urls.get(identifier);
    return url !== undefined && SIMPLE_URL.test(url) ? `(${url})` : "";
  };

  const visit = (node: Nodes) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start !== undefined && end !== undefined) {
      if (node.type === "code" || node.type === "inlineCode") {
        code.push({ start, end });
        return;
      }
      if (node.type === "html") {
        html.push({ start, end });
        return;
      }
      if (node.type === "definition") {
        // Never rendered: its URL and title are text no reader sees. The line goes too when it holds nothing else.
        const lineStart = source.lastIndexOf("\n", start - 1) + 1;
        const wholeLine = /^[ \t]*$/.test(source.slice(lineStart, start)) && /^\r?\n/.test(source.slice(end));
        edits.push({
          start: wholeLine ? lineStart : start,
          end: wholeLine ? end + (source[end] === "\r" ? 2 : 1) : end,
          replacement: "",
          kind: "definitions",
        });
        return;
      }
      if (node.type === "image") {
        edits.push({
          start,
          end,
          replacement: `![image](${node.url})`,
          kind: node.alt ? "altTexts" : node.title ? "titles" : null,
        });
        return;
      }
      if (node.type === "imageReference") {
        edits.push({
          start,
          end,
          replacement: `![image]${inlineUrl(node.identifier)}`,
          kind: node.alt ? "altTexts" : null,
        });
        return;
      }
      if (node.type === "linkReference") {
        // The definition is dropped, so the reference becomes an inline link (or plain bracketed text).
        const raw = source.slice(start, end);
        const suffix =
          node.referenceType === "full"
            ? /\]\[(?:[^\]\\]|\\.)*\]$/.exec(raw)
            : node.referenceType === "collapsed"
              ? /\]\[\]$/.exec(raw)
              : /\]$/.exec(raw);
        if (suffix) {
          edits.push({
            start: start + suffix.index,
            end,
            replacement: `]${inlineUrl(node.identifier)}`,
            kind: null,
          });
        }
      }
      if (node.type === "link" && node.title) {
        const raw = source.slice(start, end);
        const m = /\s+(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\))\s*\)$/.exec(raw);
        if (m) edits.push({ start: start + m.index, end, replacement: ")", kind: "titles" });
      }
    }
    if ("children" in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(tree);
  return { code, html, edits };
}

/** The end (exclusive) of the first comment end (`-->` or `--!>`) in [from, to), or -1. */
function commentClose(source: string, from: number, to: number): number {
  const a = source.indexOf("-->", from);
  const b = source.indexOf("--!>", from);
  const ends = [a >= 0 && a + 3 <= to ? a + 3 : -1, b >= 0 && b + 4 <= to ? b + 4 : -1].filter((e) => e >= 0);
  return ends.length ? Math.min(...ends) : -1;
}

/**
 * HTML comments, found only inside raw HTML (a `<!--` that the parser reads as text is shown as text on
 * GitHub). Per the HTML spec `<!-->` and `<!--->` are complete, empty comments. A comment still open at the
 * end of its HTML node hides everything up to the first comment end in a later HTML node, or to the end.
 */
function commentRanges(source: string, html: Range[]): Range[] {
  const ranges: Range[] = [];
  let open = -1;
  for (const node of [...html].sort((a, b) => a.start - b.start)) {
    let i = node.start;
    while (i < node.end) {
      if (open >= 0) {
        const close = commentClose(source, i, node.end);
        if (close < 0) break;
        ranges.push({ start: open, end: close });
        open = -1;
        i = close;
        continue;
      }
      const s = source.indexOf("<!--", i);
      if (s < 0 || s + 4 > node.end) break;
      const empty = source.startsWith(">", s + 4) ? 5 : source.startsWith("->", s + 4) ? 6 : 0;
      if (empty) {
        ranges.push({ start: s, end: s + empty });
        i = s + empty;
        continue;
      }
      open = s;
      i = s + 4;
    }
  }
  if (open >= 0) ranges.push({ start: open, end: source.length });
  return ranges;
}

/** Ranges of HTML comments and hidden elements, ignoring anything that starts inside code. */
function hiddenRanges(
  source: string,
  code: Range[],
  html: Range[],
): { ranges: Range[]; comments: number; elements: number } {
  const ranges: Range[] = commentRanges(source, html);
  const comments = ranges.length;
  let elements = 0;
  const paragraphEnd = (from: number) => {
    const i = source.indexOf("\n\n", from);
    return i < 0 ? source.length : i;
  };
  const covered = (pos: number) => inside(pos, ranges);

  OPEN_TAG.lastIndex = 0;
  for (let m = OPEN_TAG.exec(source); m; m = OPEN_TAG.exec(source)) {
    const start = m.index;
    const tag = (m[1] ?? "").toLowerCase();
    if (inside(start, code) || covered(start) || !isHidden(tag, m[2] ?? "")) continue;
    let end = start + m[0].length;
    if (!(m[3] === "/" || VOID_ELEMENTS.has(tag))) {
      // Find the matching close tag, counting nested elements of the same name and skipping code.
      const re = new RegExp(`<(/?)${tag}(?=[\\s/>])[^>]*>`, "gi");
      re.lastIndex = end;
      let depth = 1;
      let closeEnd = -1;
      for (let t = re.exec(source); t; t = re.exec(source)) {
        if (inside(t.index, code)) continue;
        if (t[1] === "/") depth--;
        else if (!t[0].endsWith("/>")) depth++;
        if (depth === 0) {
          closeEnd = t.index + t[0].length;
          break;
        }
      }
      // An unclosed hidden element hides the rest of its paragraph.
      end = closeEnd >= 0 ? closeEnd : paragraphEnd(end);
    }
    ranges.push({ start, end });
    elements++;
    OPEN_TAG.lastIndex = end;
  }
  ranges.sort((a, b) => a.start - b.start);
  return { ranges, comments, elements };
}

function decodeEntities(text: string): string {
  return text.replace(
    /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g,
    (whole, body: string) => {
      if (body.startsWith("#x") || body.startsWith("#X"))
        return decodeNumericCharacterReference(body.slice(2), 16);
      if (body.startsWith("#")) return decodeNumericCharacterReference(body.slice(1), 10);
      const named = decodeNamedCharacterReference(body);
      return named === false ? whole : named;
    },
  );
}

/** Prose outside code: drop alt/title attributes of HTML tags, decode entities, drop invisible characters. */
function cleanProse(text: string, removed: SanitizeReport["removed"]): string {
  let out = text.replace(OPEN_TAG, (tag: string) =>
    tag.replace(/\s+(alt|title)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+)/gi, (_m, attr: string) => {
      if (attr.toLowerCase() === "alt") removed.altTexts++;
      else removed.titles++;
      return "";
    }),
  );
  out = decodeEntities(out);
  out = out.replace(/[\u2028\u2029]/g, "\n");
  return out.replace(INVISIBLE, () => {
    removed.invisibleChars++;
    return "";
  });
}

export function sanitizeReport(markdown: string): SanitizeReport {
  const source = markdown;
  const tree = fromMarkdown(source, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const { code, html, edits } = collect(tree, source);
  const hidden = hiddenRanges(source, code, html);
  const removed: SanitizeReport["removed"] = {
    comments: hidden.comments,
    hiddenElements: hidden.elements,
    invisibleChars: 0,
    altTexts: 0,
    titles: 0,
    definitions: 0,
  };
  const codeWarnings: string[] = [];

  type Piece = { start: number; end: number; kind: "hidden" | "code" | "edit"; edit?: Edit };
  const pieces: Piece[] = [
    ...hidden.ranges.map((r) => ({ ...r, kind: "hidden" as const })),
    ...code.filter((c) => !inside(c.start, hidden.ranges)).map((r) => ({ ...r, kind: "code" as const })),
    ...edits
      .filter((e) => !inside(e.start, hidden.ranges))
      .map((e) => ({ start: e.start, end: e.end, kind: "edit" as const, edit: e })),
  ].sort((a, b) => a.start - b.start || b.end - a.end);

  let out = "";
  let pos = 0;
  for (const p of pieces) {
    if (p.start < pos) continue; // nested in a piece already handled (e.g. code inside a hidden element)
    out += cleanProse(source.slice(pos, p.start), removed);
    if (p.kind === "code") {
      const body = source.slice(p.start, p.end);
      out += body;
      INVISIBLE.lastIndex = 0;
      if (INVISIBLE.test(body)) {
        const line = source.slice(0, p.start).split("\n").length;
        codeWarnings.push(
          `code at line ${line} contains ${BIDI.test(body) ? "bidi control" : "invisible"} characters (kept as written)`,
        );
      }
      INVISIBLE.lastIndex = 0;
    } else if (p.kind === "edit" && p.edit) {
      out += p.edit.replacement;
      if (p.edit.kind) removed[p.edit.kind]++;
    }
    pos = p.end;
  }
  out += cleanProse(source.slice(pos), removed);
  return { text: out, removed, codeWarnings };
}

/**
 * Untrusted text that is not the issue (what a report's code printed, a reported message quoted from a code
 * block) made safe for a prompt without losing information: every invisible, bidi or control character is
 * shown as `<U+XXXX>`, so the model sees that it is there and cannot be steered by what it hides.
 */
export function escapeInvisible(text: string): string {
  return text.replace(
    INVISIBLE,
    (c) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}>`,
  );
}

/** The sanitized text only. */
export function sanitize(markdown: string): string {
  return sanitizeReport(markdown).text;
}
