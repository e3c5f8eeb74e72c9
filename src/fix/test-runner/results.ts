/**
 * Reads per-test results out of a reporter's output with the log parser (src/logs), and out of jest's
 * `--json` report (which src/logs does not cover: it is JSON, read field by field). Sandbox paths
 * (`/workspace/...`) become repo-relative.
 */
import { InfrastructureError } from "../../core/errors.ts";
import { parseLog, wholeLog } from "../../logs/index.ts";
import type { TestCase, TestOutcome } from "./types.ts";

const SANDBOX_ROOT = "/workspace";

function repoRelative(p: string): string {
  return p.startsWith(`${SANDBOX_ROOT}/`) ? p.slice(SANDBOX_ROOT.length + 1) : p;
}

function firstLine(s: string | null | undefined): string | undefined {
  const line = s?.split("\n").find((l) => l.trim() !== "");
  return line === undefined ? undefined : line.trim().slice(0, 300);
}

interface JestAssertion {
  ancestorTitles?: unknown;
  title?: unknown;
  status?: unknown;
  failureMessages?: unknown;
}

/**
 * A title as jest writes it (a string). Anything else in a report the run wrote is no title: `String()` of an
 * array nested 200,000 deep overflowed the host's stack, and of a wide one built a 200 KB id per test (wave 16).
 */
function title(v: unknown): string {
  return typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : "";
}

/**
 * Most objects, arrays and separated values (`{`, `[` and `,` outside strings) a jest report may hold: about
 * 200,000 tests' worth. `JSON.parse` builds every value at once and cannot be stopped by the parse budget: 13
 * million empty objects in a 39 MB report (under the collect cap) took 9 s of host CPU and 1.4 GiB, 20 million
 * numbers 670 MiB (wave 17). A linear count before the parse refuses such a report.
 */
export const MAX_JEST_JSON_VALUES = 4_000_000;

/**
 * Most members one object of a jest report may hold. A real report's objects have fixed fields, and its long lists
 * are arrays; the widest objects are a coverage map's (one key per file, per statement of a file). One object of a
 * million keys costs `JSON.parse` 1.6–2.4 s of host CPU (its dictionary grows key by key), well under the count of
 * values above: refused too (red team 17's `results-jest-json-1m-keys-one-object`).
 */
export const MAX_JEST_JSON_OBJECT_MEMBERS = 200_000;

/**
 * The number of `{`, `[` and `,` outside strings, counted until it passes `max`, and the most members any one
 * object holds (counted until it passes `maxMembers`). One linear pass; a stack of the open containers' counts.
 */
function valuesIn(
  text: string,
  max: number,
  maxMembers = Number.POSITIVE_INFINITY,
): { values: number; widest: number } {
  let n = 0;
  let widest = 0;
  const open: number[] = []; // per open container: its member count, or -1 for an array
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: skip to its closing quote (a backslash escapes the next character)
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      continue;
    }
    if (c === 0x7b) open.push(1);
    else if (c === 0x5b) open.push(-1);
    else if (c === 0x7d || c === 0x5d) open.pop();
    else if (c === 0x2c && open.length > 0 && open[open.length - 1]! > 0) {
      const members = ++open[open.length - 1]!;
      if (members > widest) widest = members;
      if (widest > maxMembers) return { values: n, widest };
    }
    if ((c === 0x7b || c === 0x5b || c === 0x2c) && ++n > max) return { values: n, widest };
  }
  return { values: n, widest };
}

/** jest `--json`: testResults[].assertionResults[]; a test file that failed to run has no assertions and a message. */
function readJestJson(text: string): TestCase[] {
  const shape = valuesIn(text, MAX_JEST_JSON_VALUES, MAX_JEST_JSON_OBJECT_MEMBERS);
  if (shape.values > MAX_JEST_JSON_VALUES)
    throw new InfrastructureError(
      `the run's test report (jest-json) could not be read: it holds over ${MAX_JEST_JSON_VALUES.toLocaleString("en")} objects, arrays and values, more than any real jest report`,
      "a report shaped to make its parse slow is refused; run the tests with another reporter",
    );
  if (shape.widest > MAX_JEST_JSON_OBJECT_MEMBERS)
    throw new InfrastructureError(
      `the run's test report (jest-json) could not be read: one of its objects holds over ${MAX_JEST_JSON_OBJECT_MEMBERS.toLocaleString("en")} members, more than any real jest report's`,
      "a report shaped to make its parse slow is refused; run the tests with another reporter",
    );
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    return [];
  }
  const files = (report as { testResults?: unknown }).testResults;
  if (!Array.isArray(files)) return [];
  const out: TestCase[] = [];
  for (const f of files as {
    name?: unknown;
    assertionResults?: unknown;
    message?: unknown;
    status?: unknown;
  }[]) {
    const file = typeof f.name === "string" ? repoRelative(f.name) : "";
    const assertions = Array.isArray(f.assertionResults) ? (f.assertionResults as JestAssertion[]) : [];
    if (assertions.length === 0 && f.status === "failed") {
      const message = firstLine(typeof f.message === "string" ? f.message : undefined);
      out.push({ id: file, outcome: "error", file, ...(message ? { message } : {}) });
      continue;
    }
    for (const a of assertions) {
      const titles = [
        ...(Array.isArray(a.ancestorTitles) ? a.ancestorTitles.map(title) : []),
        title(a.title),
      ];
      const status = String(a.status ?? "");
      const outcome: TestOutcome =
        status === "passed" ? "passed" : status === "failed" ? "failed" : "skipped";
      const messages = Array.isArray(a.failureMessages) ? a.failureMessages.map(String) : [];
      const message = outcome === "failed" ? firstLine(messages[0]) : undefined;
      out.push({ id: [file, ...titles].join(" > "), outcome, file, ...(message ? { message } : {}) });
    }
  }
  return uniqueTestIds(out);
}

/**
 * Gives every repeated id its own: the second `a > works` becomes `a > works#2`, the third `#3` (skipping
 * any suffix a real test already uses). Order-based and deterministic, so the same report gives the same ids
 * on the base and on the patched tree, and a regression in the second of two same-titled tests is compared
 * as itself instead of being hidden behind the first.
 */
export function uniqueTestIds(tests: readonly TestCase[]): TestCase[] {
  const taken = new Set(tests.map((t) => t.id));
  const seen = new Map<string, number>();
  // Where the search for an id's next free suffix resumes: every suffix below it is taken, so each id's
  // search only moves forward. Searching from `#n` each time was quadratic — 40,000 tests `x` beside tests
  // `x#2`…`x#40001` (a 2.5 MB jest report a run writes) passed 18 s of host CPU (wave 16).
  const resume = new Map<string, number>();
  return tests.map((t) => {
    const n = (seen.get(t.id) ?? 0) + 1;
    seen.set(t.id, n);
    if (n === 1) return t;
    let k = Math.max(n, resume.get(t.id) ?? 0);
    while (taken.has(`${t.id}#${k}`)) k++;
    resume.set(t.id, k + 1);
    const id = `${t.id}#${k}`;
    taken.add(id);
    return { ...t, id };
  });
}

/** Reads the tests of one run. `format` is the one the invocation chose; */
export function readResults(format: string, text: string): TestCase[] {
  if (format === "jest-json") return readJestJson(text);
  const parsed = wholeLog(
    parseLog(text, { format, repoRoot: SANDBOX_ROOT }),
    `the run's test report (${format})`,
  );
  const messages = new Map<string, string>();
  for (const f of parsed.failures) {
    if (f.test && !messages.has(f.test)) {
      const m = firstLine(f.message);
      if (m) messages.set(f.test, m);
    }
  }
  const byId = new Map<string, TestCase>();
  for (const t of parsed.tests) {
    const id = repoRelative(t.id);
    const message = messages.get(t.id);
    // The parser keeps the last outcome of an id it saw twice and flags it flaky when one of them passed and
    // another did not (a duplicate title, or a retry). Either way the run showed a failure: keep it.
    const outcome: TestOutcome =
      t.flaky && t.outcome !== "failed" && t.outcome !== "error" ? "failed" : t.outcome;
    byId.set(id, {
      id,
      outcome,
      ...(t.file ? { file: repoRelative(t.file) } : {}),
      ...(message && (outcome === "failed" || outcome === "error") ? { message } : {}),
    });
  }
  return [...byId.values()];
}
