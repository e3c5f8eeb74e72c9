/**
 * TKG, the test kit (testkitgen) that runs OpenJDK builds' test targets (AdoptOpenJDK/Adoptium CI): its summary
 * lists the targets by verdict, `FAILED test targets:` then one indented target per line (`\tUnsafeTests_0`),
 * and ends with its count line `TOTAL: 211   EXECUTED: 129   PASSED: 128   FAILED: 1   SKIPPED: 82`.
 *
 * The id is the target as listed (`UnsafeTests_0`), what TKG reruns. A list is read only when TKG's count line
 * follows it and counts failures: an indented name under some other `FAILED … targets:` line is not one. Jenkins'
 * timestamper's clock (`06:39:56  `) may leave a space before each line.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const SECTION = /^\s*(PASSED|FAILED|DISABLED|SKIPPED) test targets:$/;
const TARGET = /^\s+([\w.+-]+)(?: - .*)?$/;
const TOTAL =
  /^\s*TOTAL: (\d+)\s+EXECUTED: (\d+)\s+PASSED: (\d+)\s+FAILED: (\d+)\s+(?:DISABLED: \d+\s+)?SKIPPED: (\d+)\s*$/;
const MAX = 10_000;

export function createTkgParser(sink: ParserSink) {
  let section: string | null = null;
  let failed: { name: string; lineNo: number; text: string }[] = [];
  let passed: string[] = [];

  return {
    line(text: string, lineNo: number): boolean {
      const s = text.endsWith("test targets:") ? SECTION.exec(text) : null;
      if (s) {
        section = s[1]!;
        return true;
      }
      if (section) {
        const t = TARGET.exec(text);
        if (t) {
          if (section === "FAILED" && failed.length < MAX) failed.push({ name: t[1]!, lineNo, text });
          else if (section === "PASSED" && passed.length < MAX) passed.push(t[1]!);
          return true;
        }
        section = null;
      }
      const total = text.includes("TOTAL: ") ? TOTAL.exec(text) : null;
      if (total) {
        const nFailed = Number(total[4]);
        sink.summary({ passed: Number(total[3]), failed: nFailed, skipped: Number(total[5]) });
        for (const p of passed) sink.test(p, "passed");
        if (nFailed > 0) {
          for (const f of failed) {
            sink.failure({
              category: "test",
              test: f.name,
              message: `test target ${f.name} failed`,
              stack: f.text,
              start: f.lineNo,
              end: f.lineNo,
            });
            sink.test(f.name, "failed");
          }
        }
        failed = [];
        passed = [];
        return true;
      }
      return false;
    },
    end(): void {
      // A list no count line confirmed is not read.
    },
  };
}

export const tkgFormat: FormatDefinition = {
  name: "tkg",
  description: "TKG (OpenJDK test kit) target summary (`FAILED test targets:`, `TOTAL: … FAILED: 1 …`)",
  create: createTkgParser,
};
