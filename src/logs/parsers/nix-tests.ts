/**
 * Nix's make-based test harness (`make installcheck` in Nix 2.x, `mk/tests.mk`), as `nix build`/`nix log` show
 * a failed Nix build: one result line per test script, `running test tests/x.sh... [PASS]` (`[FAIL]`, `[SKIP]`),
 * and under a failing one the script's own output indented by four spaces (its `set -x` trace).
 *
 * The id is the script as printed (`tests/build-remote.sh`), what `make installcheck` runs; it is a file of the
 * repository, the failure's place (no line: a shell trace names none). A name must look like a path (`/` or an
 * extension): `running test suite... [FAIL]` names no script.
 */
import { BlockBuffer, type FormatDefinition, type ParserSink } from "../parser.ts";

const RESULT =
  /^running test ((?:[\w.-]+\/)*[\w-]+\.[\w]+|(?:[\w.-]+\/)+[\w.-]+)\.\.\. \[(PASS|FAIL|SKIP)\]$/;
const MAX = 10_000;

export function createNixTestsParser(sink: ParserSink) {
  let open: { name: string; buf: BlockBuffer } | null = null;
  let seen = 0;

  function close(): void {
    if (!open) return;
    const { name, buf } = open;
    open = null;
    // The message: the last lines of the output that are not the shell's trace (`+ cmd`).
    const said = buf.lines
      .slice(1)
      .map((l) => l.trim())
      .filter((l) => l !== "" && !/^\++ /.test(l));
    sink.failure({
      category: "test",
      test: name,
      file: sink.path(name),
      line: null,
      message: said.slice(-3).join("\n") || `${name} failed`,
      stack: buf.text(),
      start: buf.start,
      end: buf.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      const m = text.startsWith("running test ") ? RESULT.exec(text) : null;
      if (m) {
        close();
        if (seen++ >= MAX) return true;
        const verdict = m[2]!;
        sink.test(
          m[1]!,
          verdict === "PASS" ? "passed" : verdict === "SKIP" ? "skipped" : "failed",
          sink.path(m[1]!),
        );
        if (verdict === "FAIL") {
          open = { name: m[1]!, buf: new BlockBuffer(200, 16_000) };
          open.buf.push(text, lineNo);
        }
        return true;
      }
      if (open) {
        if (text.startsWith("    ") || text.trim() === "") {
          open.buf.push(text, lineNo);
          return true;
        }
        close();
      }
      return false;
    },
    end(): void {
      close();
    },
  };
}

export const nixTestsFormat: FormatDefinition = {
  name: "nix-tests",
  description: "Nix's make-based test harness (`running test tests/x.sh... [FAIL]`)",
  create: createNixTestsParser,
};
