/**
 * as-pect (AssemblyScript's test framework), its summary reporter: a line per test file,
 * `✔ assembly/__tests__/kiln.spec.ts Pass: 5 / 5 Todo: 0 Time: 1.632ms` (`❌` when a test failed), and under a failed
 * file its failed groups (`  Kiln`, indented by two spaces, then the group's `  Reason: …` line) with each failed test,
 * `    ❌ heats - message`, and its `[Expected]:` / `[Actual]  :` lines. A `❌ name` entry counts only under a failed
 * file's header line, whose `Pass: N / M Todo: T Time:` tail is as-pect's own; a reader's paste may join the
 * entry to the `Reason:` line above it, which is read through.
 *
 * The id is `file > group > test`, as jest and vitest name a test in a describe (docs/test-ids.md); no place (the
 * reporter prints none).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const FILE = /^(✔|❌|✖) (\S+\.ts) Pass: (\d+) \/ (\d+) Todo: \d+ Time: /u;
const ENTRY = /(?:^|\s)❌ (.+?) - ?(.*)$/u;

export function createAsPectParser(sink: ParserSink) {
  let file: string | null = null;
  let group: string | null = null;
  let last: { test: string; message: string[]; start: number; end: number } | null = null;
  let count = 0;

  function close(): void {
    const l = last;
    last = null;
    if (!l || count >= 10_000) return;
    count++;
    sink.test(l.test, "failed");
    sink.failure({
      category: "test",
      test: l.test,
      message: own(l.message.join("\n")) || `${l.test} failed`,
      start: l.start,
      end: l.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (text.includes(" Pass: ")) {
        const f = FILE.exec(text);
        if (f) {
          close();
          const passed = Number(f[3]);
          const total = Number(f[4]);
          sink.summary({ passed, failed: total - passed });
          file = f[1] === "✔" ? null : f[2]!;
          group = null;
          return true;
        }
      }
      if (file === null) return false;
      if (!/^\s/.test(text) || text.trim() === "") {
        close();
        file = null;
        return false;
      }
      const e = text.includes("❌ ") ? ENTRY.exec(text) : null;
      if (e) {
        close();
        const test = own(`${file} > ${group !== null ? `${group} > ` : ""}${e[1]!.trim()}`);
        last = { test, message: e[2]!.trim() ? [e[2]!.trim()] : [], start: lineNo, end: lineNo };
        return true;
      }
      if (last && /^\s{4,}\S/.test(text)) {
        if (last.message.length < 20) last.message.push(text.trim());
        last.end = lineNo;
        return true;
      }
      close();
      const body = text.trim();
      if (/^ {2}\S/.test(text) && !body.startsWith("Reason:")) group = body;
      return true;
    },
    end(): void {
      close();
    },
  };
}

export const asPectFormat: FormatDefinition = {
  name: "as-pect",
  description:
    "as-pect (AssemblyScript): `❌ file Pass: N / M` headers and the `❌ test - message` entries under them",
  create: createAsPectParser,
};
