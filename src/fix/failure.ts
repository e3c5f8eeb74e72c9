/**
 * The fix pipeline's view of a failure, independent of the log format it came from, and the mapping of the
 * paths a CI runner printed (`/home/runner/work/r/r/src/a.py`, `/workspace/src/a.py`, `./src/a.py`) to
 * repository paths.
 */

export interface StackFrame {
  /** Repository-relative path (after mapping). */
  file: string;
  line?: number;
}

export interface FailureInfo {
  /** Test id as the runner names it (pytest node id, jest/vitest full name, ...). */
  testId: string;
  /** Repository-relative test file, when known. */
  file?: string;
  /** Line in the test file, when known. */
  line?: number;
  /** The error message (first lines). */
  message: string;
  /** The failure's output excerpt as it appeared in the log. */
  excerpt: string;
  /** Frames that point into the repository, innermost last as printed. */
  frames: StackFrame[];
}

const VENDORED = /(^|\/)(node_modules|site-packages|dist-packages|\.venv|venv|__pycache__)\//;

/**
 * Maps a path printed by a test runner to a file of the repository: exact match first, then the longest
 * suffix of the path that names a repository file. Vendored code (node_modules, site-packages) is never
 * mapped. Returns null when nothing matches.
 */
export function mapRunnerPath(printed: string, repoFiles: ReadonlySet<string>): string | null {
  let p = printed.trim().replace(/\\/g, "/");
  if (p.startsWith("file://")) p = p.slice("file://".length);
  if (VENDORED.test(p)) return null;
  p = p.replace(/^(\.\/)+/, "");
  if (repoFiles.has(p)) return p;
  const segments = p.split("/").filter((s) => s !== "");
  for (let i = 1; i < segments.length; i += 1) {
    const suffix = segments.slice(i).join("/");
    if (repoFiles.has(suffix)) return suffix;
  }
  return null;
}

/** Frame-like `path:line` references in free text: Python `File "x", line N`, JS `at f (x:N:C)`, `x:N:C`. */
export function extractFrames(text: string, repoFiles: ReadonlySet<string>): StackFrame[] {
  const frames: StackFrame[] = [];
  const seen = new Set<string>();
  const push = (rawPath: string, line: number | undefined) => {
    const file = mapRunnerPath(rawPath, repoFiles);
    if (file === null) return;
    const key = `${file}:${line ?? ""}`;
    if (seen.has(key)) return;
    seen.add(key);
    frames.push(line === undefined ? { file } : { file, line });
  };
  const patterns: RegExp[] = [
    /File "([^"]+)", line (\d+)/g,
    /\(?((?:file:\/\/)?[\w./@+-]+\.(?:[cm]?[jt]sx?|py|go|rs|rb|java)):(\d+)(?::\d+)?\)?/g,
  ];
  for (const re of patterns) {
    for (const m of text.matchAll(re)) {
      const path = m[1];
      if (path === undefined) continue;
      push(path, m[2] === undefined ? undefined : Number(m[2]));
    }
  }
  return frames;
}
