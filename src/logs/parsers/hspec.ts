/**
 * Haskell's hspec: the `Failures:` list, each entry a location line (`  test/FooSpec.hs:93: `, hspec 2.4+ with the
 * column `:93:5:`) above `  1) Foo.bar, does x` and the reason indented under it, `  To rerun use: --match "/…/"`.
 * Counts from `N examples, M failures` (which RSpec shares; read here only once an hspec entry was seen).
 * The id is what hspec prints after `N) ` (the spec path joined with `, `); the place is the location line's.
 * hspec before 1.x's location lines printed its entry at the margin with no location (`1) rand works returns x`,
 * the path joined with spaces): such an entry is read only with HUnit's two-line reason right under it
 * (`expected: False`, ` but got: True`), and has no place.
 * Each entry closes with its rerun line, whose `--match "/Foo.bar/does x/"` is the same spec path joined with `/`: a
 * rerun line with no entry read since the previous one (a paste cut inside the entry, above it) names that entry's
 * test (the path's parts joined with `, `), with no place.
 *
 * hspec 1.x marks each margin entry with ` FAILED` (`1) Foo.bar, does x FAILED`; its specdoc items read
 * `  - does x FAILED [1]`), the mark not the name's. Such an entry is read with whatever reason follows it, but only
 * once hspec's own lines confirm the runner: an item line with its ` FAILED [n]` mark, `Randomized with seed N` at the
 * margin or the `N examples, M failures` count below the entries. Its reason is the lines up to the next blank one; no place.
 */
import { BlockBuffer, type FormatDefinition, own, type ParserSink } from "../parser.ts";

const LOCATION = /^ {2}(\S+\.l?hs):(\d+)(?::\d+)?: ?$/;
const ENTRY = /^ {2}(\d+)\) (\S.*)$/;
const RERUN = /^ {2}To rerun use: --match /;
/** The rerun line's path, as Haskell's `show` quotes it (`\"` and `\\` escaped); later options may follow. */
const RERUN_PATH = /^ {2}To rerun use: --match "\/((?:[^"\\]|\\.)+)\/"(?: .*)?$/;
const OLD_ENTRY = /^\d+\) (\S.*)$/;
const OLD_EXPECTED = /^expected: \S/;
const OLD_GOT = /^ but got: \S/;
const COUNT = /^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?$/;
/** hspec 1.x: a margin entry's ` FAILED` mark, an item's ` FAILED [n]`, the seed line after the list's entries. */
const MARKED_ENTRY = /^\d+\) (\S.*?) FAILED\s*$/;
const MARKED_ITEM = /^\s*- \S.* FAILED \[\d+\]\s*$/;
const SEED = /^Randomized with seed \d+\s*$/;

export function createHspecParser(sink: ParserSink) {
  let located: { file: string; line: number; text: string; lineNo: number } | null = null;
  let block: { name: string; file: string; line: number; buf: BlockBuffer } | null = null;
  let seen = false;
  /** An entry was read since the last rerun line. */
  let entrySinceRerun = false;
  /** An old-style margin entry and the reason lines read under it so far (0, 1: `expected:`). */
  let old: { name: string; lines: string[]; start: number } | null = null;
  /** hspec 1.x's marked entries read before its own lines confirmed the runner, and the one whose reason is read. */
  let marked: { name: string; lines: string[]; start: number; end: number }[] = [];
  let markedOpen: { name: string; lines: string[]; start: number; end: number } | null = null;
  let markedSure = false;
  const oldReported = new Set<string>();

  function reportMarked(m: { name: string; lines: string[]; start: number; end: number }): void {
    if (oldReported.has(m.name) || oldReported.size >= 10_000) return;
    oldReported.add(m.name);
    const reason = m.lines.slice(1).map((l) => l.trim());
    sink.failure({
      category: "test",
      test: m.name,
      message: reason.slice(0, 20).join("\n").slice(0, 4000) || `${m.name} failed`,
      stack: m.lines.join("\n").slice(0, 12_000),
      start: m.start,
      end: m.end,
    });
    sink.test(m.name, "failed");
  }

  /** hspec 1.x's marked entries and the lines that confirm them; true when the line was hspec's. */
  function readMarked(text: string, lineNo: number): boolean {
    const c0 = text.charCodeAt(0);
    const e = c0 >= 49 && c0 <= 57 && text.length < 2000 ? MARKED_ENTRY.exec(text) : null;
    if (e) {
      markedOpen = { name: own(e[1]!.trimEnd()), lines: [text], start: lineNo, end: lineNo };
      if (markedSure) return true;
      if (marked.length < 1000) marked.push(markedOpen);
      return false;
    }
    // The seed and count lines (RSpec prints them too) confirm only entries read above them.
    const sure =
      (text.includes(" FAILED [") && MARKED_ITEM.test(text)) ||
      (marked.length > 0 &&
        ((c0 === 82 /* R */ && SEED.test(text)) || (c0 >= 48 && c0 <= 57 && COUNT.test(text))));
    if (markedOpen && !sure && text.trim() !== "") {
      if (markedOpen.lines.length < 40) markedOpen.lines.push(own(text));
      markedOpen.end = lineNo;
      return markedSure;
    }
    if (markedOpen && markedSure) reportMarked(markedOpen);
    markedOpen = null;
    if (sure && !markedSure) {
      markedSure = true;
      seen = true;
      for (const m of marked) reportMarked(m);
      marked = [];
    }
    return sure && c0 !== 32 && !COUNT.test(text);
  }

  function readOld(text: string, lineNo: number): boolean {
    const o = old;
    old = null;
    if (o && o.lines.length === 1 && OLD_EXPECTED.test(text)) {
      old = { ...o, lines: [...o.lines, text] };
      return false;
    }
    if (o && o.lines.length === 2 && OLD_GOT.test(text)) {
      seen = true;
      if (oldReported.has(o.name)) return true;
      oldReported.add(o.name);
      sink.failure({
        category: "test",
        test: o.name,
        message: [o.lines[1]!, text.trim()].join("\n"),
        stack: [...o.lines, text].join("\n"),
        start: o.start,
        end: lineNo,
      });
      sink.test(o.name, "failed");
      return true;
    }
    const e =
      text.length < 2000 && text.charCodeAt(0) >= 49 && text.charCodeAt(0) <= 57
        ? OLD_ENTRY.exec(text)
        : null;
    if (e) old = { name: e[1]!.trimEnd().replace(/ FAILED$/, ""), lines: [text], start: lineNo };
    return false;
  }

  function close(): void {
    const b = block;
    block = null;
    if (!b) return;
    const body = b.buf.lines.slice(2).map((l) => l.trim());
    const message = body.filter((l) => l !== "").slice(0, 20);
    sink.failure({
      category: "test",
      test: b.name,
      file: b.file,
      line: b.line,
      message: message.join("\n") || "failed",
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
    sink.test(b.name, "failed", b.file);
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (readMarked(text, lineNo)) return true;
      if ((old !== null || !text.startsWith(" ")) && readOld(text, lineNo)) return true;
      // LOCATION opens with a space and holds `hs:` (`.hs:` or `.lhs:`): other lines are not asked.
      const loc =
        text.charCodeAt(0) === 32 && text.length < 2000 && text.indexOf("hs:") !== -1
          ? LOCATION.exec(text)
          : null;
      if (loc) {
        close();
        located = { file: sink.path(loc[1]!), line: Number(loc[2]), text, lineNo };
        return true;
      }
      const at = located;
      located = null;
      if (at) {
        const e = ENTRY.exec(text);
        if (e) {
          seen = true;
          entrySinceRerun = true;
          block = { name: e[2]!.trimEnd(), file: at.file, line: at.line, buf: new BlockBuffer(120, 12_000) };
          block.buf.push(at.text, at.lineNo);
          block.buf.push(text, lineNo);
          return true;
        }
      }
      const rr = text.startsWith('  To rerun use: --match "/') ? RERUN_PATH.exec(text) : null;
      if (rr) {
        close();
        const named = entrySinceRerun;
        entrySinceRerun = false;
        if (!named) {
          const parts = rr[1]!.replace(/\\(.)/g, "$1").split("/");
          if (parts.every((p) => p.trim() !== "")) {
            seen = true;
            const name = own(parts.join(", "));
            sink.failure({
              category: "test",
              test: name,
              message: name,
              stack: text,
              start: lineNo,
              end: lineNo,
            });
            sink.test(name, "failed");
          }
        }
        return true;
      }
      if (!seen) return false;
      if (block && /^ {5}/.test(text)) {
        block.buf.push(text, lineNo);
        return true;
      }
      close();
      if (RERUN.test(text)) return true;
      const c = COUNT.exec(text);
      if (c) {
        sink.summary({ passed: Number(c[1]) - Number(c[2]) - Number(c[3] ?? 0), failed: Number(c[2]) });
        return true;
      }
      return false;
    },
    end(): void {
      close();
      if (markedOpen && markedSure) reportMarked(markedOpen);
      markedOpen = null;
    },
  };
}

export const hspecFormat: FormatDefinition = {
  name: "hspec",
  description: "Haskell hspec (Failures: list with location lines)",
  create: createHspecParser,
  // Fresh, only a LOCATION line is asked (a line after one, once it is seen).
  wakesOn: [/^ {2}\S+hs:/, /^\d+\) \S/, /^ {2}To rerun use: --match "\//, /^\s*- \S.* FAILED \[\d+\]/],
};
