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
 *
 * A paste cut below the count line (an excerpt of the blocks alone, often behind a build service's `[   22s] ` prefix,
 * which the engine strips as framing) has none: there, a `Failure`/`Error` block counts when its header names a Lua
 * spec file (`.lua`, `.moon`) and Lua's own `stack traceback:` follows its message (busted prints the failing
 * function's traceback under the block). A log with a count line anywhere never takes a block without one.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const COUNTS =
  /^(\d+) success(?:es)? \/ (\d+) failures? \/ (\d+) errors? \/ (\d+) pending\b(?: : [\d.]+ seconds?)?\s*$/;
const COUNTS_1X = /^(\d+) success(?:es)?, (\d+) failures?, and (\d+) pending in [\d.]+ seconds?\.?\s*$/;
const HEADER = /^(Failure|Error|Pending) (?:→|->) (.+?)\s*$/;
const AT = /^(.+?) @ (\d+)$/;
/** A spec file busted runs: Lua or MoonScript. */
const LUA_SPEC = /\.(?:lua|moon)$/;
/** Lua's traceback heading, under an uncounted block's message. */
const TRACEBACK = /^stack traceback:\s*$/;

export function createBustedParser(sink: ParserSink) {
  /** Failures and errors busted's count line announced: blocks are read only under such a line. */
  let counted = false;
  /** Any busted count line seen: then no block is read without one above it. */
  let sawCounts = false;
  /** An uncounted block, closed, waiting for Lua's `stack traceback:` to confirm it (blank lines between). */
  let awaiting: NonNullable<typeof block> | null = null;
  let block: {
    kind: string;
    file: string | null;
    line: number | null;
    name: string | null;
    message: string[];
    start: number;
    end: number;
    /** Read with no count line above it: reported only once Lua's traceback follows. */
    uncounted: boolean;
  } | null = null;
  const reported = new Set<string>();

  function close(): void {
    const b = block;
    block = null;
    if (!b || b.kind === "Pending" || b.name === null) return;
    if (b.uncounted) {
      awaiting = b;
      return;
    }
    emit(b);
  }

  function emit(b: NonNullable<typeof block>): void {
    if (b.name === null) return;
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
        awaiting = null;
        sawCounts = true;
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
        awaiting = null;
        sawCounts = true;
        counted = false;
        sink.summary({ passed: Number(c1[1]), failed: Number(c1[2]), skipped: Number(c1[3]) });
        return true;
      }
      if (awaiting && !block) {
        if (TRACEBACK.test(text)) {
          const b = awaiting;
          awaiting = null;
          emit(b);
          return true;
        }
        if (text.trim() !== "") awaiting = null;
      }
      const h = text.includes(" @ ") || counted ? HEADER.exec(text) : null;
      const at = h ? AT.exec(h[2]!) : null;
      const uncounted =
        !counted && !sawCounts && h !== null && h[1] !== "Pending" && at !== null && LUA_SPEC.test(at[1]!);
      if (!counted && !uncounted && !block) return false;
      if (h) {
        close();
        awaiting = null;
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
          uncounted,
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
  wakesOn: [/^\d+ success/, /^(?:Failure|Error) (?:→|->) .+ @ \d+\s*$/],
};
