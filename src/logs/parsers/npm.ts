/**
 * npm failures: consecutive `npm ERR!` (npm ≤ 9) or `npm error` (npm ≥ 10) lines form one failure,
 * its `code` line giving the error type. Install problems (ERESOLVE, E404, ETARGET, EINTEGRITY,
 * ENOTCACHED, …) are `install` failures; a failed lifecycle script is only a consequence of the
 * real failure above it, so it is kept only when nothing else failed (npm 6's `npm test` ends with `Test failed.  See
 * above for more details.`, the same consequence).
 */
import { BlockBuffer, type FormatDefinition, type ParserSink } from "../parser.ts";

const LINE = /^npm (?:ERR!|error)(?: (.*))?$/;
const NOISE =
  /^(A complete log of this run can be found in|For a full report see|Log files were not written|You can rerun the command with|\/\S+\.(?:log|txt)$|[A-Za-z]:\\\S+\.(?:log|txt)$)/;
const SCRIPT =
  /^(?:code ELIFECYCLE|errno \d+|Lifecycle script .* failed|Exit status \d+|Failed at the .* script|command failed|path |workspace |location |command sh -c|signal |This is probably not a problem with npm|Test failed\. {2}See above|\S+@\S+ \S+: `)/;

export function createNpmParser(sink: ParserSink) {
  let block: { code: string | null; lines: string[]; buf: BlockBuffer } | null = null;

  function flush(): void {
    if (!block) return;
    const b = block;
    block = null;
    const meaningful = b.lines.filter((l) => !NOISE.test(l.trim()) && !/^(code|errno|syscall|path) /.test(l));
    const lifecycle =
      b.code === "ELIFECYCLE" ||
      b.lines.some((l) => /^Lifecycle script .* failed|^command failed$|^Test failed\. {2}See above/.test(l));
    // The first paragraph says what went wrong; when it is one line, the next one says why.
    const paragraphs: string[][] = [[]];
    for (const l of meaningful) {
      if (l.trim() === "") {
        if (paragraphs[paragraphs.length - 1]!.length > 0) paragraphs.push([]);
      } else paragraphs[paragraphs.length - 1]!.push(l);
    }
    const [p1 = [], p2 = []] = paragraphs.filter((p) => p.length > 0);
    const message = (p1.length === 1 ? [...p1, ...p2] : p1).slice(0, 12).join("\n") || b.code || "npm failed";
    const path = b.lines.map((l) => /^path (\S+)/.exec(l)?.[1]).find((p) => p);
    sink.failure({
      category: lifecycle ? "build" : "install",
      file: b.code === "ENOENT" && path ? sink.path(path) : null,
      errorType: b.code,
      message,
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
      secondary: lifecycle || meaningful.every((l) => l.trim() === "" || SCRIPT.test(l)),
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      const m = LINE.exec(text);
      if (!m) {
        flush();
        return false;
      }
      const content = m[1] ?? "";
      if (!block) block = { code: null, lines: [], buf: new BlockBuffer(80, 8_000) };
      block.buf.push(text, lineNo);
      const code = /^code (\w+)$/.exec(content);
      if (code && !block.code) block.code = code[1]!;
      if (block.lines.length < 200) block.lines.push(content);
      return true;
    },
    end(): void {
      flush();
    },
  };
}

export const npmFormat: FormatDefinition = {
  name: "npm",
  description: "npm ERR! / npm error blocks (install failures, failed scripts)",
  create: createNpmParser,
};
