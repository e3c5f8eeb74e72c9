/**
 * Gathers context candidates for the model from a failure: the failing test's source, the files of the stack
 * frames, the definitions of symbols named in the error, and the failing commit's diff when known. Ranking
 * and packing are `packContext`'s job.
 */
import type { ContextCandidate } from "./context-pack.ts";
import type { RepoView } from "./explore.ts";
import type { FailureInfo } from "./failure.ts";

const KEYWORDS = new Set(
  (
    "assert assertion error errors expected received actual equal equals true false none null undefined " +
    "function object string number type value values return def class self this new the and not for with from " +
    "import export const let var in is of to at be was were has have got line file test tests failed failure " +
    "typeerror valueerror keyerror attributeerror nameerror assertionerror indexerror referenceerror rangeerror " +
    "syntaxerror exception traceback where print tobe toequal tostrictequal expect it describe async await"
  ).split(" "),
);

/** Identifiers named in an error message that may be defined in the repository (longest first, at most `max`). */
export function symbolsInMessage(message: string, max = 8): string[] {
  const found = new Set<string>();
  for (const m of message.matchAll(/[A-Za-z_$][\w$]{2,}/g)) {
    const id = m[0];
    if (KEYWORDS.has(id.toLowerCase())) continue;
    if (/^\d/.test(id)) continue;
    found.add(id);
  }
  return [...found].sort((a, b) => b.length - a.length).slice(0, max);
}

function definitionPatterns(symbol: string): RegExp[] {
  const s = symbol.replace(/[$]/g, "\\$");
  return [
    new RegExp(`^\\s*(?:async\\s+)?def\\s+${s}\\s*\\(`),
    new RegExp(`^\\s*class\\s+${s}\\b`),
    new RegExp(`^\\s*(?:export\\s+)?(?:default\\s+)?(?:async\\s+)?function\\*?\\s+${s}\\s*[(<]`),
    new RegExp(`^\\s*(?:export\\s+)?(?:const|let|var)\\s+${s}\\s*[=:]`),
    new RegExp(`^\\s*(?:export\\s+)?(?:abstract\\s+)?(?:class|interface|type|enum)\\s+${s}\\b`),
    new RegExp(`^\\s*(?:static\\s+|async\\s+|public\\s+|private\\s+)*${s}\\s*\\([^)]*\\)\\s*\\{`),
    new RegExp(`^${s}\\s*=`),
    new RegExp(`^\\s*func\\s+(?:\\([^)]*\\)\\s*)?${s}\\s*\\(`),
    new RegExp(`^\\s*(?:pub\\s+)?fn\\s+${s}\\b`),
  ];
}

const SOURCE = /\.(?:py|[cm]?[jt]sx?|go|rs|rb|java)$/;
const VENDORED = /(^|\/)(node_modules|site-packages|\.venv|venv|dist|build|vendor)\//;

/** Test id → test file guess: pytest `a/test_x.py::test_y`, jest/vitest `a/x.test.ts > suite > name`. */
export function testFileFromId(testId: string, repoFiles: ReadonlySet<string>): string | null {
  const head = testId.split(/::| > | › /)[0]?.trim() ?? "";
  if (repoFiles.has(head)) return head;
  return null;
}

export interface GatherInput {
  failures: readonly FailureInfo[];
  repo: RepoView;
  /** Unified diff of the failing commit against its parent, when known. */
  commitDiff?: { label: string; diff: string };
}

export async function gatherContext(input: GatherInput): Promise<ContextCandidate[]> {
  const files = await input.repo.listFiles();
  const fileSet = new Set(files);
  const out: ContextCandidate[] = [];
  const cache = new Map<string, string | null>();
  const read = async (p: string) => {
    if (!cache.has(p)) cache.set(p, await input.repo.readFile(p));
    return cache.get(p) ?? null;
  };

  for (const f of input.failures) {
    const testFile = f.file ?? testFileFromId(f.testId, fileSet);
    if (testFile) {
      const text = await read(testFile);
      if (text !== null) {
        out.push({
          kind: "failing-test",
          path: testFile,
          text,
          ...(f.line === undefined ? {} : { focusLine: f.line }),
          reason: `source of the failing test ${f.testId}`,
        });
      }
    }
    // Innermost frames (printed last) are nearest the error: rank them higher.
    const frames = f.frames.filter((fr) => fr.file !== testFile);
    for (const [i, fr] of frames.entries()) {
      const text = await read(fr.file);
      if (text === null) continue;
      out.push({
        kind: "stack-frame",
        path: fr.file,
        text,
        ...(fr.line === undefined ? {} : { focusLine: fr.line }),
        boost: i,
        reason: `stack frame of ${f.testId}${fr.line === undefined ? "" : ` at line ${fr.line}`}`,
      });
    }
  }

  const message = input.failures.map((f) => `${f.message}\n${f.excerpt}`).join("\n");
  const symbols = symbolsInMessage(message);
  const sources = files.filter((p) => SOURCE.test(p) && !VENDORED.test(p)).sort();
  for (const [rank, symbol] of symbols.entries()) {
    const patterns = definitionPatterns(symbol);
    let hits = 0;
    for (const p of sources) {
      const text = await read(p);
      if (text === null || text.length > 500_000) continue;
      const lines = text.split("\n");
      const at = lines.findIndex((l) => patterns.some((re) => re.test(l)));
      if (at < 0) continue;
      out.push({
        kind: "symbol-definition",
        path: p,
        text,
        focusLine: at + 1,
        boost: symbols.length - rank,
        reason: `defines \`${symbol}\`, named in the error`,
      });
      hits += 1;
      if (hits >= 3) break;
    }
  }

  if (input.commitDiff && input.commitDiff.diff.trim() !== "") {
    out.push({
      kind: "commit-diff",
      path: input.commitDiff.label,
      text: input.commitDiff.diff,
      reason: "the failing commit against its parent",
    });
  }
  return out;
}
