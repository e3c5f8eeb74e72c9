/**
 * CPython's regression test runner (`python -m test`, `make test`, regrtest): one progress line per test module,
 * `0:07:26 load avg: 1.02 [354/408/136] test_tuple -- test_ttk_textonly failed` (3.7 and earlier name the module
 * that just finished after ` -- `), `0:00:05 load avg: 0.9 [ 12/421/1] test_x failed (2 failures)` (3.8 and later
 * name it first, maybe followed by ` -- running: …`), the module's own verdict line `test test_x failed -- <why>`,
 * and the closing list `2 tests failed:` with the names on indented lines under it (`    test_socket test_ssl`).
 *
 * The id is the test module's name as regrtest prints it (`test_unicode`, `test_asyncio.test_tasks`), what
 * `python -m test NAME` takes (docs/test-ids.md). Every id starts with `test_`. `failed` and `crashed` fail the
 * module; `(env changed)` does not (the module passed and left the environment altered). A progress line counts only
 * in its whole shape (the `[i/n]` or `[i/n/f]` index, i ≤ n). A closing list cut by the end of the log drops its last
 * name (it may be cut inside the name).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const NAME = String.raw`test_[\w.]*\w`;
const PROGRESS = new RegExp(
  String.raw`^(?:\d+:\d\d:\d\d )?(?:load avg: \d+(?:\.\d+)? )?\[ *(\d+)\/(\d+)(?:\/\d+)?\] (${NAME})(?: (.*))?$`,
);
const VERDICT = new RegExp(String.raw`^test (${NAME}) (failed|crashed)\b(?: -- (.*))?$`);
const FAILED_WORD = /^(failed|crashed)\b(?! \(env changed\))(.*)$/;
const AFTER = new RegExp(String.raw`^-- (${NAME}) (failed|crashed)\b(?! \(env changed\))`);
const LIST_HEAD = /^(\d+) tests? failed(?: again)?:$/;
const LIST_LINE = new RegExp(`^    (${NAME}(?: ${NAME})*)$`);

export function createRegrtestParser(sink: ParserSink) {
  const failed = new Set<string>();
  /** The names of a closing list being read, its line numbers, and whether the list is still open. */
  let list: { id: string; lineNo: number; text: string }[] | null = null;

  function fail(id: string, message: string, lineNo: number, text: string): void {
    if (failed.has(id)) return;
    failed.add(own(id));
    sink.test(id, "failed");
    sink.failure({ category: "test", test: id, message, stack: text, start: lineNo, end: lineNo });
  }

  function closeList(cut: boolean): void {
    if (!list) return;
    const names = cut ? list.slice(0, -1) : list;
    list = null;
    for (const n of names) fail(n.id, `${n.id} failed`, n.lineNo, n.text);
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (list) {
        const l = LIST_LINE.exec(text);
        if (l) {
          for (const id of l[1]!.split(" ")) if (list.length < 5_000) list.push({ id, lineNo, text });
          return true;
        }
        closeList(false);
      }
      const h = LIST_HEAD.exec(text);
      if (h) {
        list = [];
        return true;
      }
      if (text.startsWith("test ")) {
        const v = VERDICT.exec(text);
        if (!v) return false;
        fail(v[1]!, v[3] ? `${v[1]} ${v[2]}: ${v[3]}` : `${v[1]} ${v[2]}`, lineNo, text);
        return true;
      }
      if (!text.includes("] test_")) return false;
      const p = PROGRESS.exec(text);
      if (!p || Number(p[1]) > Number(p[2])) return false;
      const rest = p[4] ?? "";
      const own = FAILED_WORD.exec(rest);
      // A bare name is the module starting (3.7) or finished (3.8+): no verdict is read from it.
      if (own) fail(p[3]!, `${p[3]} ${own[1]}${own[2]!.replace(/ -- .*$/, "")}`, lineNo, text);
      const a = AFTER.exec(rest);
      if (a) fail(a[1]!, `${a[1]} ${a[2]}`, lineNo, text);
      return true;
    },
    end(): void {
      closeList(true);
    },
  };
}

export const regrtestFormat: FormatDefinition = {
  name: "regrtest",
  description:
    "CPython's regression test runner (python -m test): [i/n] progress lines, `test test_x failed`",
  create: createRegrtestParser,
  wakesOn: [/^test test_/, /^\d+ tests? failed/, /^(?:\d+:\d\d:\d\d )?(?:load avg: [\d.]+ )?\[ *\d+\/\d+/],
};
