/**
 * A log's text cut into lines and normalized (`normalizeText`) ahead of the parsers, in batches: what `retrace
 * parse-log`'s reading thread (src/cli/parse-log-worker.ts) hands the parsing thread, which feeds each batch to
 * `LogParser.batch`. The cut is the engine's own (`LogParser.write`): a line still without its end after
 * `LONG_LINE` characters is handed on as its head (normalized) and then its raw pieces as they arrived, so the
 * parsers see exactly what `write` would have given them, chunk boundaries included.
 *
 * A batch is one op per line or piece and the texts of those that have one, as separate strings (one joined
 * string, split again by the parsing thread, made every kept test id a slice of it, which held each whole batch in
 * memory: 250 MB peak on the bench's 50 MB log, against 150 MB for separate strings); `raw` is the characters of input it covers (the host-time budget counts raw input), `lines` the
 * line ends among its ops.
 */
import { createPathMapper, normalizeText, type PathOptions } from "./normalize.ts";

/** A line still without its end after this many characters is handed on in pieces as it arrives. */
export const LONG_LINE = 1 << 20;

/** A whole line: its normalized text follows. */
export const OP_LINE = 0;
/** A whole line that was an `##[error]` annotation: its normalized text follows. */
export const OP_LINE_ERROR = 1;
/** A whole line that carries nothing (normalized to null): no text. */
export const OP_LINE_NONE = 2;
/** The head of an over-long line: its normalized text follows. */
export const OP_LONG = 3;
/** The head of an over-long `##[error]` line. */
export const OP_LONG_ERROR = 4;
/** The head of an over-long line that carries nothing: no text. */
export const OP_LONG_NONE = 5;
/** A raw piece of the over-long line being handed on. */
export const OP_MORE = 6;
/** The over-long line's last raw piece (its end). */
export const OP_LONG_END = 7;

export interface LineBatch {
  ops: Uint8Array;
  /** How many of `ops` are used. */
  n: number;
  /** The texts of the ops that have one, in order. */
  texts: string[];
  raw: number;
  lines: number;
}

const OPS = 16_384;

/**
 * Cuts and normalizes chunks of a log as `LogParser.write` would, handing `emit` a batch each time about
 * `batchChars` characters of input were written (and at `end`).
 */
export function createLineBatcher(
  options: PathOptions,
  emit: (batch: LineBatch) => void,
  batchChars = 256 * 1024,
): { write(chunk: string): void; end(): void } {
  const mapPaths = createPathMapper(options);
  const flags = { ghError: false };
  let ops = new Uint8Array(OPS);
  let n = 0;
  let parts: string[] = [];
  let raw = 0;
  let lines = 0;
  let pending: string[] = [];
  let pendingChars = 0;
  let long = false;

  const flush = (): void => {
    if (n === 0 && raw === 0) return;
    const batch = { ops, n, texts: parts, raw, lines };
    ops = new Uint8Array(OPS);
    n = 0;
    parts = [];
    raw = 0;
    lines = 0;
    emit(batch);
  };
  const op = (code: number): void => {
    if (n === OPS) flush();
    ops[n++] = code;
  };
  const withText = (code: number, text: string): void => {
    op(code);
    parts.push(text);
  };
  /** A line (or an over-long line's head), normalized: `plain` is its op, `plain + 1` an `##[error]`, `+ 2` nothing. */
  const normalized = (text: string, plain: number): void => {
    const t = normalizeText(text, mapPaths, flags);
    if (t === null) op(plain + 2);
    else withText(flags.ghError ? plain + 1 : plain, t);
  };
  const takePending = (tail: string): string => {
    if (pending.length === 0) return tail;
    const text = pending.join("") + tail;
    pending = [];
    pendingChars = 0;
    return text;
  };
  const endLine = (tail: string): void => {
    lines++;
    if (long) {
      withText(OP_LONG_END, tail);
      long = false;
    } else normalized(takePending(tail), OP_LINE);
  };
  return {
    write(chunk) {
      raw += chunk.length;
      let from = 0;
      let nl = chunk.indexOf("\n");
      while (nl !== -1) {
        endLine(chunk.slice(from, nl));
        from = nl + 1;
        nl = chunk.indexOf("\n", from);
      }
      if (from < chunk.length) {
        const rest = from === 0 ? chunk : chunk.slice(from);
        if (long) withText(OP_MORE, rest);
        else {
          pending.push(rest);
          pendingChars += rest.length;
          if (pendingChars > LONG_LINE) {
            normalized(takePending(""), OP_LONG);
            long = true;
          }
        }
      }
      if (raw >= batchChars) flush();
    },
    end() {
      if (long) long = false;
      else if (pendingChars > 0) normalized(takePending(""), OP_LINE);
      flush();
    },
  };
}
