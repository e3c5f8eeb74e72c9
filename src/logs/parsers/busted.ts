/**
 * busted, Lua's test runner (`busted`, `luarocks test`). Its terminal output handlers (`utfTerminal`, the default, and
 * `plainTerminal`) print one mark per test (`●`/`◼`/`✱`/`◌`, plain `+`/`-`/`*`/`.`), then the count line `33 successes
 * / 5 failures / 0 errors / 0 pending : 0.6 seconds`, then a block per pending, failed and errored test:
 * `Failure → tests/frame_spec.lua @ 14` (`Failure -> …` in plain output; `Error →`, `Pending →`), the test's full name
 * (its describes and title joined by spaces) on the next line, then the message (`tests/frame_spec.lua:14: Expected
 * objects to be equal.`) up to a blank line. busted 1.x ended with `27 successes, 0 failures, and 4 pending in 0.03
 * seconds.`.
 *
 * The id is the full name as busted prints it under the block's header (docs/test-ids.md). Blocks count only under
 * busted's own count line above them (busted prints the counts first), so a `Failure → x @ N` line of anything else
 * names nothing. The place is the header's `file @ line`; a path busted shortened (`...\spec\x_spec.lua`) is none.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const COUNTS =
  /^(\d+) success(?:es)? \/ (\d+) failures? \/ (\d+) errors? \/ (\d+) pending\b(?: : [\d.]+ seconds?)?\s*$/;
const COUNTS_1X = /^(\d+) success(?:es)?, (\d+) failures?, and (\d+) pending in [\d.]+ seconds?\.?\s*$/;
const HEADER = /^(Failure|Error|Pending) (?:→|->) (.+?)\s*$/;
const AT = /^(.+?) @ (\d+)$/;

export function createBustedParser(sink: ParserSink) {
  /** Failures and errors busted's count line announced: blocks are read only under such a line. */
  let counted = false;
  let block: {
    kind: string;
    file: string | null;
    line: number | null;
    name: string | null;
    message: string[];
    start: number;
    end: number;
  } | null = null;
  const reported = new Set<string>();

  function close(): void {
    const b = block;
    block = null;
    if (!b || b.kind === "Pending" || b.name === null) return;
    if (reported.has(b.name) || reported.size >= 10_000) return;
    reported.add(b.name);
    const category = "test";
    sink.test(b.name, b.kind === "Error" ? "error" : "failed", b.file);
    sink.failure({
      category,
      test: b.name,
      file: b.file,
      line: b.line,
      errorType: b.kind === "Error" ? "error" : null,
      message: b.message.join("\n") || `${b.name}: ${b.kind.toLowerCase()}`,
      start: b.start,
      end: b.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      const c = COUNTS.exec(text);
      if (c) {
        close();
        counted = Number(c[2]) + Number(c[3]) > 0;
        sink.summary({
          passed: Number(c[1]),
          failed: Number(c[2]),
          error: Number(c[3]),
          skipped: Number(c[4]),
        });
        return true;
      }
      const c1 = text.includes(" pending in ") ? COUNTS_1X.exec(text) : null;
      if (c1) {
        close();
        counted = false;
        sink.summary({ passed: Number(c1[1]), failed: Number(c1[2]), skipped: Number(c1[3]) });
        return true;
      }
      if (!counted) return false;
      const h = HEADER.exec(text);
      if (h) {
        close();
        const at = AT.exec(h[2]!);
        // A short_src busted cut to fit (`...opbox\Lua projects\spec\x_spec.lua`) is no path of the repository.
        const file = at && !at[1]!.startsWith("...") ? own(sink.path(at[1]!)) : null;
        block = {
          kind: h[1]!,
          file,
          line: file !== null && at ? Number(at[2]) : null,
          // Without a place (a test with no trace), the header itself carries the name.
          name: at ? null : own(h[2]!),
          message: [],
          start: lineNo,
          end: lineNo,
        };
        return true;
      }
      if (block) {
        if (text.trim() === "") {
          if (block.name !== null) close();
          return block === null;
        }
        if (block.name === null) block.name = own(text.trim());
        else if (block.message.length < 40) block.message.push(own(text));
        block.end = lineNo;
        return true;
      }
      return false;
    },
    end(): void {
      close();
    },
  };
}

export const bustedFormat: FormatDefinition = {
  name: "busted",
  description: "busted (Lua): `N successes / N failures / …` and its `Failure → file @ N` blocks",
  create: createBustedParser,
  wakesOn: [/^\d+ success/],
};
