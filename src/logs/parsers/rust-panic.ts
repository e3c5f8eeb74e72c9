/** Reading a Rust test's panic: `thread 'x' panicked at src/lib.rs:15:9:` then the message (both the 1.73+ and the older one-line form). */
import type { ParserSink } from "../parser.ts";

const PANIC_NEW = /^thread '(.+?)'(?: \(\d+\))? panicked at (.+?):(\d+):(\d+):$/;
// Before Rust 1.14 the place had no column (`src/cli/main.rs:90`).
const PANIC_OLD = /^thread '(.+?)'(?: \(\d+\))? panicked at '(.*)', (.+?):(\d+)(?::(\d+))?$/;

const PANIC_OLD_OPEN = /^thread '(.+?)'(?: \(\d+\))? panicked at '(.*)$/;
const PANIC_OLD_CLOSE = /^(.*)', (.+?):(\d+)(?::(\d+))?$/;

/** A panic's first line: the thread that panicked and where (the message may follow on later lines), or null. */
export function panicHead(
  line: string,
): { thread: string; file: string; line: number; column: number | null; message: string } | null {
  const l = line.trim();
  const n = PANIC_NEW.exec(l);
  if (n) return { thread: n[1]!, file: n[2]!, line: Number(n[3]), column: Number(n[4]), message: "" };
  const o = PANIC_OLD.exec(l);
  if (o)
    return {
      thread: o[1]!,
      file: o[3]!,
      line: Number(o[4]),
      column: o[5] ? Number(o[5]) : null,
      message: o[2]!,
    };
  return null;
}

/** A dependency's source (cargo's registry or git checkouts) or the standard library's (`/rustc/<hash>/`): no place in the repository. */
const OUTSIDE = /(?:^|\/)\.cargo\/(?:registry|git)\/|^\/rustc\/[0-9a-f]{7,}\//;

export function summarizePanic(
  lines: readonly string[],
  sink: ParserSink,
): { file: string | null; line: number | null; column: number | null; message: string } {
  const p = summarizePanicAt(lines, sink);
  return p.file !== null && OUTSIDE.test(p.file) ? { ...p, file: null, line: null, column: null } : p;
}

function summarizePanicAt(
  lines: readonly string[],
  sink: ParserSink,
): { file: string | null; line: number | null; column: number | null; message: string } {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    const n = PANIC_NEW.exec(l);
    if (n) {
      const msg: string[] = [];
      for (let j = i + 1; j < lines.length && msg.length < 20; j++) {
        const t = lines[j]!.trim();
        if (t === "" || t.startsWith("stack backtrace:") || t.startsWith("note: ")) break;
        msg.push(t);
      }
      return { file: sink.path(n[2]!), line: Number(n[3]), column: Number(n[4]), message: msg.join("\n") };
    }
    const o = PANIC_OLD.exec(l);
    if (o)
      return {
        file: sink.path(o[3]!),
        line: Number(o[4]),
        column: o[5] ? Number(o[5]) : null,
        message: o[2]!,
      };
    // The old form with a message over several lines (`assert_eq!`'s left/right): it closes with `', file:line:col`.
    const open = PANIC_OLD_OPEN.exec(l);
    if (open) {
      const msg = [open[2]!];
      for (let j = i + 1; j < lines.length && j <= i + 40; j++) {
        const t = lines[j]!;
        const close = PANIC_OLD_CLOSE.exec(t);
        if (close) {
          msg.push(close[1]!);
          return {
            file: sink.path(close[2]!),
            line: Number(close[3]),
            column: close[4] ? Number(close[4]) : null,
            message: msg.join("\n"),
          };
        }
        msg.push(t);
      }
    }
  }
  return { file: null, line: null, column: null, message: "" };
}

/**
 * The old form's first line when its message runs on (`thread 'x' panicked at 'assertion failed: …` with `left`/`right`
 * below, closed by `', src/x.rs:57:9`): the thread; the place comes from `summarizePanic` over the lines. Null otherwise.
 */
export function openPanicHead(
  line: string,
): { thread: string; file: string; line: number; column: number | null; message: string } | null {
  const o = PANIC_OLD_OPEN.exec(line.trim());
  return o ? { thread: o[1]!, file: "", line: 0, column: null, message: o[2]! } : null;
}
