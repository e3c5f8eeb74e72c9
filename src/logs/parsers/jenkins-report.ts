/**
 * A CI bot's comment that lists the failing tests of a Jenkins job as links to their pages in Jenkins' test report
 * (the KIE projects' bot: `Those are the test failures:`, then per test `<summary><a href="…/testReport/<package>/
 * <Class>/<method>/">pkg.Class.method</a></summary>` and the error with its stack joined by `<br/>`).
 *
 * Jenkins' report pages are its JUnit results: the link's text is the test's JUnit id (`classname.name`, a JUnit 5
 * parameterized name as written: `testX(int)[2]`). A link is read only when its text agrees with the report path it
 * points to (the package and class of the path open the text; `(root)` is no package), so a link to some other page
 * is not a test.
 */
import { errorLine, type FormatDefinition, type ParserSink } from "../parser.ts";

const LINK =
  /^\s*<summary>\s*<a href="[^"]*\/testReport\/([^/"]+)\/([^/"]+)\/([^"]+?)\/?">([^<]+)<\/a>\s*<\/summary>\s*$/;
const MAX = 10_000;

function decode(s: string): string {
  return s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

export function createJenkinsReportParser(sink: ParserSink) {
  let open: { id: string; lineNo: number; text: string } | null = null;
  let seen = 0;

  function report(body: string | null, end: number): void {
    if (!open) return;
    const parts = (body ?? "")
      .split(/<br\s*\/?>/)
      .map((l) => decode(l).trim())
      .filter((l) => l !== "");
    const first = parts[0] ?? "";
    const typed = errorLine(first);
    sink.failure({
      category: "test",
      test: open.id,
      errorType: typed?.type ?? null,
      message: typed?.message ?? (first || `${open.id} failed`),
      stack: [open.text, ...parts].join("\n"),
      start: open.lineNo,
      end,
    });
    sink.test(open.id, "failed");
    open = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (open) {
        // The line under the link: the error and its stack, `<br/>`-joined (or the details' end).
        const body = text.includes("</details>") || text.includes("<summary>") ? null : text;
        report(body, body === null ? open.lineNo : lineNo);
        if (body !== null) return true;
      }
      const m = text.includes("/testReport/") ? LINK.exec(text) : null;
      if (!m || seen >= MAX) return false;
      const [pkg, cls, , name] = [
        decodeURIComponent(m[1]!),
        decodeURIComponent(m[2]!),
        m[3],
        decode(m[4]!).trim(),
      ];
      const head = pkg === "(root)" ? `${cls}.` : `${pkg}.${cls}.`;
      if (!name.startsWith(head) || name.length === head.length) return false;
      seen++;
      open = { id: name, lineNo, text };
      return true;
    },
    end(): void {
      report(null, open?.lineNo ?? 0);
    },
  };
}

export const jenkinsReportFormat: FormatDefinition = {
  name: "jenkins-report",
  description: 'a bot\'s list of Jenkins test-report links (`<a href="…/testReport/pkg/Class/method/">`)',
  create: createJenkinsReportParser,
};
