/**
 * What GitHub renders in the markdown Retrace writes (PR bodies, issue comments): the checker the eleventh and twelfth
 * red teams' steps share, and a fixed PR body with hostile text in the places a model writes.
 */
import { renderFixReport } from "../../../src/report/pr-body.ts";

/** What markdown outside code spans and fenced blocks holds (where GitHub renders mentions, links, HTML). */
export function outsideCode(md: string): string {
  // Fenced blocks first (a run of 3+ backticks at a line start to the next run at least as long).
  let text = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1`*[ \t]*$/gm, "");
  let out = "";
  let i = 0;
  while (i < text.length) {
    if (text[i] !== "`") {
      out += text[i++];
      continue;
    }
    let n = 0;
    while (text[i + n] === "`") n++;
    const fence = "`".repeat(n);
    let j = text.indexOf(fence, i + n);
    while (j !== -1 && (text[j + n] === "`" || text[j - 1] === "`")) j = text.indexOf(fence, j + 1);
    if (j === -1) {
      out += fence;
      i += n;
    } else i = j + n;
  }
  text = out;
  return text;
}

/** What GitHub acts on in a PR body outside code: mentions, closing keywords, images, raw HTML, comments. */
export function actsOnGitHub(md: string): string[] {
  const outside = outsideCode(md);
  const found: string[] = [];
  if (/(^|[^\w`])@[A-Za-z0-9][\w-]*(\/[\w-]+)?/.test(outside)) found.push("mention");
  if (/\b(close[sd]?|fix(e[sd])?|resolve[sd]?)\s*:?\s+([\w.-]+\/[\w.-]+)?#\d+/i.test(outside))
    found.push("closing keyword");
  if (/!\[[^\]]*\]\(/.test(outside)) found.push("image");
  if (/<!--/.test(outside)) found.push("html comment");
  if (
    /<(img|a|details|picture|source|video)\b/i.test(
      outside.replace(
        /<details><summary>(The patch|patch \(not applied\)|Output of the run)<\/summary>/g,
        "",
      ),
    )
  )
    found.push("html tag");
  return found;
}

export function fixedBody(extra: {
  summary?: string;
  hypothesis?: string;
  evidence?: string;
  files?: string[];
  tests?: string[];
  excerpt?: string;
  patch?: string;
}): string {
  return renderFixReport({
    result: {
      outcome: "FIXED",
      reason: "verified",
      failingTests: extra.tests ?? ["tests/test_a.py::test_x"],
      testCommand: "pytest",
      attempts: 1,
      tokens: 1,
      costUsd: 0,
      durationMs: 1,
      attemptLog: [],
      flaky: null,
      verification: {
        runs: 2,
        tests: [{ id: "tests/test_a.py::test_x", before: "failed", after: "passed" }],
        antiGaming: [],
      },
    } as never,
    rootCause: {
      hypothesis: extra.hypothesis ?? "a null check is missing",
      evidence: extra.evidence ?? "the traceback",
      files: extra.files ?? ["src/a.py"],
    },
    excerpt: extra.excerpt ?? "E assert 1 == 2",
    summary: extra.summary ?? "adds the check",
    patch: extra.patch ?? "--- a/src/a.py\n+++ b/src/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n",
  });
}
