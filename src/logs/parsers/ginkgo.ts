/**
 * Ginkgo (v1 and v2, Go's BDD runner) console output: its closing summary. After a run with failures Ginkgo prints
 * `Summarizing N Failures:` and one line per failed spec, `[Fail] Outer Inner [It] spec text` (v1) or
 * `[FAIL] Outer Inner [It] spec text` (v2; `[Panic!]`, `[PANICKED!]`, `[TIMEDOUT]`, `[INTERRUPTED]` alike), the bracket
 * marking the node that failed (`[It]`, `[BeforeEach]`, `[BeforeSuite]`…), with the spec's place on the next line;
 * then `Ran 5 of 5 Specs in 0.002 seconds` and `FAIL! -- 4 Passed | 1 Failed | 0 Pending | 0 Skipped`.
 *
 * A spec line counts only when Ginkgo's own frame confirms it: the `Summarizing` heading above, or the `FAIL!`
 * count line after it, or (a log ending in the list, no `SUCCESS!` line after it) every spec line followed by its place. The id is the spec's full text (containers and spec joined by spaces) without the node marker.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";
import { own } from "../parser.ts";

const SUMMARIZING = /^\s*Summarizing \d+ Failures?:\s*$/;
const NODE =
  /\[(?:It|BeforeEach|JustBeforeEach|AfterEach|JustAfterEach|BeforeAll|AfterAll|BeforeSuite|AfterSuite|SynchronizedBeforeSuite|SynchronizedAfterSuite|ReportBeforeSuite|ReportAfterSuite|ReportBeforeEach|ReportAfterEach|Measure|DeferCleanup(?: \([^)\]]*\))?)\]/;
const SPEC = /^\s*\[(?:Fail|FAIL|Panic!|PANICKED!|TIMEDOUT|INTERRUPTED)\] (.+?)\s*$/;
const PLACE = /^\s*(\S+\.go):(\d+)\s*$/;
const COUNTS =
  /^\s*(FAIL|SUCCESS)! -- (\d+) Passed \| (\d+) Failed \| (?:\d+ Flaked \| )?(\d+) Pending \| (\d+) Skipped\s*$/;
const RAN = /^\s*Ran \d+ of \d+ Specs? in [\d.]+ seconds\s*$/;
/**
 * A place under a GOPATH checkout (`/home/u/go/src/github.com/onsi/ginkgo/integration/flags_test.go`, Go before
 * modules): the repository is the import path's first three parts on a code host, the file the rest.
 */
const GOPATH_FILE = /^\/(?:[^/]+\/)*src\/(?:github\.com|gitlab\.com|bitbucket\.org)\/[^/]+\/[^/]+\/(.+)$/;

interface Spec {
  id: string;
  text: string;
  file: string | null;
  line: number | null;
  start: number;
  end: number;
}

export function createGinkgoParser(sink: ParserSink) {
  let specs: Spec[] = [];
  /** The `Summarizing` heading was seen above the pending spec lines. */
  let headed = false;
  /** The spec whose place may be on the next line. */
  let last: Spec | null = null;

  function emit(): void {
    for (const s of specs)
      sink.failure({
        category: "test",
        test: s.id,
        file: s.file,
        line: s.line,
        message: s.text,
        stack: s.text,
        start: s.start,
        end: s.end,
      });
    specs = [];
    headed = false;
    last = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      const prev = last;
      last = null;
      if (SUMMARIZING.test(text)) {
        specs = [];
        headed = true;
        return true;
      }
      if (text.includes("] ")) {
        const m = SPEC.exec(text);
        if (m && NODE.test(m[1]!)) {
          const id = m[1]!.replace(NODE, " ").replace(/\s+/g, " ").trim();
          if (id !== "" && specs.length < 5_000) {
            const s: Spec = {
              id: own(id),
              text: own(text.trim()),
              file: null,
              line: null,
              start: lineNo,
              end: lineNo,
            };
            specs.push(s);
            last = s;
          }
          return true;
        }
      }
      if (prev) {
        const p = PLACE.exec(text);
        if (p) {
          const file = sink.path(p[1]!);
          prev.file = GOPATH_FILE.exec(file)?.[1] ?? file;
          prev.line = Number(p[2]);
          prev.end = lineNo;
          return true;
        }
      }
      if (RAN.test(text)) return specs.length > 0 || headed;
      const c = COUNTS.exec(text);
      if (c) {
        sink.summary({
          passed: Number(c[2]),
          failed: Number(c[3]),
          skipped: Number(c[4]) + Number(c[5]),
        });
        if (c[1] === "FAIL" && (specs.length > 0 || headed)) emit();
        else {
          specs = [];
          headed = false;
        }
        return true;
      }
      return false;
    },
    end(): void {
      // A log that ends after spec lines with no heading or count line (a paste of the failure list alone): each
      // line followed by its `.go:N` place is Ginkgo's summary entry (the layout only that list has).
      if (headed || (specs.length > 0 && specs.every((s) => s.file !== null))) emit();
      specs = [];
    },
  };
}

export const ginkgoFormat: FormatDefinition = {
  name: "ginkgo",
  description:
    "Ginkgo (Go BDD) console summaries: `[Fail] … [It] spec` lines and `FAIL! -- N Passed | N Failed`",
  create: createGinkgoParser,
};
