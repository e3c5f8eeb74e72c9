/**
 * NUnitLite's text runner as Xamarin's Touch.Unit prints it (`[FAIL] Class.Method :   Expected: True`, the
 * assertion's lines and a mono stack below it: `  at Ns.Class.Method () [0x00052] in /path/X.fs:34`). The line names
 * the class without its namespace: the failure is read only when a frame below it, before the next `[…]` line, names
 * the same `Class.Method` under its namespace, which gives the full name (`Ns.Class.Method`, NUnit's own full name).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const FAIL = /^[ \t]*\[FAIL\] ([A-Za-z_][\w`+]*\.[A-Za-z_]\w*) :[ \t]*(.*)$/;
const FRAME =
  /^[ \t]*at ((?:[A-Za-z_][\w`+]*\.)+[A-Za-z_]\w*) \((.*?)\)(?: \[0x[0-9a-f]+\])?(?: in (.+?):(\d+))?$/;
const MARK = /^[ \t]*\[[A-Z]+\] /;

export function createTouchUnitParser(sink: ParserSink) {
  let entry: { name: string; lines: string[]; start: number; end: number } | null = null;
  let count = 0;

  function close(): void {
    const e = entry;
    entry = null;
    if (!e || count >= 10_000) return;
    for (const l of e.lines) {
      const f = FRAME.exec(l);
      if (!f || !f[1]!.endsWith(`.${e.name}`)) continue;
      count++;
      const test = own(f[1]!);
      sink.test(test, "failed");
      sink.failure({
        category: "test",
        test,
        file: f[3] ? sink.path(f[3]) : null,
        line: f[4] ? Number(f[4]) : null,
        message:
          own(
            e.lines
              .filter((x) => !/^[ \t]*at /.test(x))
              .join("\n")
              .trim(),
          ) || "test failed",
        stack: own(e.lines.join("\n")),
        start: e.start,
        end: e.end,
      });
      return;
    }
  }

  return {
    line(text: string, lineNo: number): boolean {
      const m = text.includes("[FAIL] ") ? FAIL.exec(text) : null;
      if (m) {
        close();
        entry = { name: m[1]!, lines: [m[2]!], start: lineNo, end: lineNo };
        return true;
      }
      if (!entry) return false;
      if (MARK.test(text) || text.trim() === "" || entry.lines.length >= 60) {
        close();
        return false;
      }
      entry.lines.push(text.trim());
      entry.end = lineNo;
      return true;
    },
    end(): void {
      close();
    },
  };
}

export const touchUnitFormat: FormatDefinition = {
  name: "touch-unit",
  description:
    "NUnitLite's text runner under Xamarin's Touch.Unit: `[FAIL] Class.Method : message` and its mono stack",
  create: createTouchUnitParser,
  wakesOn: /\[FAIL\] /,
};
