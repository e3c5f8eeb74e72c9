/**
 * phpspec's failure sections (its progress and dot formatters print them after the run; phpspec 2–7):
 * `----  failed examples` (`----  broken examples`), then per spec its resource as the spec describes it, indented
 * (`        Acme/Pantry/Jar`), and per example the example's line in the spec file and its title, `  62  ✘ pours a cup`
 * (`!` for a broken one), the message, a diff, the code excerpt and a trace indented under it; the run ends in
 * `N specs` and `N examples (P passed, F failed, B broken)`.
 *
 * An example counts only under one of those section headings and a resource line. The id is the resource and the
 * title as printed, joined by ` > ` (phpspec's method name is not printed); placed at the example's line in the spec
 * file, `spec/<resource>Spec.php` (phpspec's default spec path and naming).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const HEAD = /^-{4}\s+(failed|broken) examples\s*$/;
const RESOURCE = /^\s{2,}([A-Z]\w*(?:[/\\][A-Za-z_]\w*)*)\s*$/;
const EXAMPLE = /^\s+(\d+)\s+[✘!]\s+(\S.*?)\s*$/;
const COUNT = /^\s*(\d+) examples? \((.*)\)\s*$/;

export function createPhpspecParser(sink: ParserSink) {
  let inSection = false;
  let resource: string | null = null;
  let open: { test: string; file: string; line: number; start: number; end: number; lines: string[] } | null =
    null;
  const seen = new Set<string>();

  function flush(): void {
    if (!open) return;
    if (!seen.has(open.test) && seen.size < 10_000) {
      seen.add(open.test);
      sink.test(open.test, "failed", open.file);
      sink.failure({
        category: "test",
        test: open.test,
        file: open.file,
        line: open.line,
        message: open.lines.join("\n") || `phpspec example failed: ${open.test}`,
        start: open.start,
        end: open.end,
      });
    }
    open = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (HEAD.test(text)) {
        flush();
        inSection = true;
        resource = null;
        return true;
      }
      if (!inSection) return false;
      const c = COUNT.exec(text);
      if (c) {
        flush();
        inSection = false;
        const n = { passed: 0, failed: 0, error: 0, skipped: 0 };
        for (const m of c[2]!.matchAll(/(\d+) (passed|failed|broken|pending|skipped)/g)) {
          const k =
            m[2] === "passed"
              ? "passed"
              : m[2] === "failed"
                ? "failed"
                : m[2] === "broken"
                  ? "error"
                  : "skipped";
          n[k] += Number(m[1]);
        }
        sink.summary(n);
        return true;
      }
      const e = EXAMPLE.exec(text);
      if (e && resource !== null) {
        flush();
        const test = own(`${resource} > ${e[2]!}`);
        open = {
          test,
          file: `spec/${resource}Spec.php`,
          line: Number(e[1]),
          start: lineNo,
          end: lineNo,
          lines: [],
        };
        return true;
      }
      const r = RESOURCE.exec(text);
      if (r && !open?.lines.length) {
        resource = own(r[1]!.replace(/\\/g, "/"));
        return true;
      }
      if (r && open && /^\s{8}\S/.test(text) && !/^\s{9}/.test(text)) {
        // A resource line at the indentation phpspec gives it, after an example's block: the next spec.
        flush();
        resource = own(r[1]!.replace(/\\/g, "/"));
        return true;
      }
      if (open) {
        if (text.trim() === "" || /^\s/.test(text)) {
          open.end = lineNo;
          if (text.trim() !== "" && open.lines.length < 60) open.lines.push(own(text.trim()));
          return true;
        }
        flush();
      }
      if (text.trim() === "") return true;
      if (!/^\s/.test(text)) inSection = false;
      return false;
    },
    end(): void {
      flush();
    },
  };
}

export const phpspecFormat: FormatDefinition = {
  name: "phpspec",
  description: "phpspec's `----  failed examples` section: `  N  ✘ title` under the spec's resource",
  create: createPhpspecParser,
  wakesOn: [/^-{4}\s+(?:failed|broken) examples/],
};
