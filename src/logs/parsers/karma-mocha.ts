/**
 * karma-mocha-reporter's failure summary (Karma with mocha, or any framework under this reporter): after `FAILED
 * TESTS:` it prints the failed tests' spec tree, each failed test as `✖ title` with the browsers it failed in on the
 * lines under it (`Chrome Headless 123.0.6312.87 (Mac OS 10.15.7)`), then the error, a diff and its frames.
 *
 * A `✖ title` line is read only when a browser label follows it: that is what sets this reporter apart from other
 * `✖` lists (AVA, a linter's). The describes are the lines directly above a test (no blank line between), each
 * indented less than the next; a test after a blank line keeps the describes of the tests before it at lower
 * indentation. The id is mocha's (`describe > test`, docs/test-ids.md); the place is the first frame in the project.
 */
import { type FormatDefinition, jsFrameLocation, own, type ParserSink } from "../parser.ts";

const MARK = /^( *)(?:✖|✗|×) (.+?)\s*$/;
const RING = 8;
const NON_BLANK = /\S/;
const HEADING = /^\s*(?:FAILED TESTS|SUMMARY):\s*$/;
const BROWSER = /^\s+[A-Z][\w]*(?: [A-Z][\w]*)* \d+(?:\.\d+)+ \([^)]*\)\s*$/;

export function createKarmaMochaParser(sink: ParserSink) {
  /** Describes by indentation. */
  const describes: { indent: number; name: string }[] = [];
  /** The last non-blank lines since a blank line (a ring): the describes right above a test are read back from them. */
  const ring: string[] = new Array(RING);
  let head = 0;
  let count = 0;
  function paragraph(): { indent: number; text: string }[] {
    const out: { indent: number; text: string }[] = [];
    for (let i = count; i > 0; i--) {
      const t = ring[(head - i + RING) % RING]!;
      out.push({ indent: t.length - t.trimStart().length, text: own(t.trim()) });
    }
    return out;
  }
  /** A `✖` line waiting for its browser label. */
  let marked: {
    indent: number;
    title: string;
    above: { indent: number; text: string }[];
    lineNo: number;
  } | null = null;
  let open: { id: string; lines: string[]; blanks: number; start: number; end: number } | null = null;
  const reported = new Set<string>();

  function close(): void {
    if (!open) return;
    const o = open;
    open = null;
    if (reported.has(o.id)) return;
    if (reported.size < 10_000) reported.add(o.id);
    const at = jsFrameLocation(o.lines, sink);
    const body = o.lines.map((l) => l.trim()).filter((l) => l !== "");
    const message = body.filter((l) => !l.startsWith("at ")).slice(0, 20);
    sink.test(o.id, "failed", at?.file ?? null);
    sink.failure({
      category: "test",
      test: o.id,
      file: at?.file ?? null,
      line: at?.line ?? null,
      column: at?.column ?? null,
      errorType: /^(\w*Error)\b/.exec(message[0] ?? "")?.[1] ?? null,
      message: message.join("\n") || `${o.id} failed`,
      stack: o.lines.join("\n"),
      start: o.start,
      end: o.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (marked) {
        const m = marked;
        marked = null;
        if (BROWSER.test(text)) {
          close();
          // The describes right above the test: a chain of lines, each indented less than the one below it.
          const chain: { indent: number; text: string }[] = [];
          let below = m.indent;
          for (let i = m.above.length - 1; i >= 0; i--) {
            const a = m.above[i]!;
            if (a.indent >= below) break;
            chain.unshift(a);
            below = a.indent;
          }
          for (const c of chain) {
            while (describes.length > 0 && describes[describes.length - 1]!.indent >= c.indent)
              describes.pop();
            describes.push({ indent: c.indent, name: c.text });
          }
          while (describes.length > 0 && describes[describes.length - 1]!.indent >= m.indent) describes.pop();
          const id = own([...describes.map((d) => d.name), m.title].join(" > "));
          open = { id, lines: [], blanks: 0, start: m.lineNo, end: lineNo };
          count = 0;
          return true;
        }
      }
      const c = text.charCodeAt(text.length - text.trimStart().length);
      // ✖ ✗ ×
      if (c === 0x2716 || c === 0x2717 || c === 0xd7) {
        const k = MARK.exec(text);
        if (k) {
          marked = { indent: k[1]!.length, title: own(k[2]!), above: paragraph(), lineNo };
          count = 0;
          return false;
        }
      }
      const blank = text.length === 0 || !NON_BLANK.test(text);
      if (open) {
        if (blank) open.blanks++;
        else if (open.blanks >= 3 || text.startsWith("====")) close();
        else open.blanks = 0;
        if (open) {
          if (open.lines.length < 60) open.lines.push(own(text));
          open.end = lineNo;
        }
      }
      // The reporter's heading above the tree is no describe.
      if (blank || HEADING.test(text)) count = 0;
      else {
        ring[head] = text;
        head = (head + 1) % RING;
        if (count < RING) count++;
      }
      return open !== null;
    },
    end(): void {
      close();
    },
  };
}

export const karmaMochaFormat: FormatDefinition = {
  name: "karma-mocha",
  description: "karma-mocha-reporter's failure tree: ✖ tests with their browser labels, errors and frames",
  create: createKarmaMochaParser,
};
