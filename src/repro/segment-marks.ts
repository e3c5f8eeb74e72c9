/**
 * One snippet in parts its own comments mark as working and failing (issue 12, hold22): a comment on a line of its
 * own, `# Succeeds` / `// works` above one part, `# Fails` / `// throws` above another. The claim is that the
 * marked-working part runs and the marked-failing one raises: the run must raise, and the line it raises at (the
 * report's own code's last frame) must be a line of the failing part. Read only when every part is tied by the
 * text: at least one working mark, exactly one failing mark, every working part before the failing one (a run
 * stops at its first error, so a working part after it would never be seen), and each part has code.
 *
 * Python only: its traceback shows the source line each frame raised at, which ties the error to a part.
 *
 * Pure: code in, the parts out; null when the snippet is not so marked.
 */

export interface SegmentMarks {
  /** The marked-working parts' lines, trimmed (no blank lines, no comments). */
  passing: string[];
  /** The marked-failing part's lines, trimmed. */
  failing: string[];
  /** The marks as written (`# Succeeds`, `# Fails`), for the verdict's words. */
  passMark: string;
  failMark: string;
}

/** A whole-line comment that marks the part below it as working. */
const PASS_MARK =
  /^(?:succeeds|success|works(?:\s+fine)?|working|passes|ok|okay|fine|no\s+(?:error|exception)|runs\s+fine|does\s+not\s+(?:raise|throw|fail))\s*[.!:]*\s*$/i;
/** A whole-line comment that marks the part below it as failing. */
const FAIL_MARK =
  /^(?:fails|failing|raises(?:\s+an?\s+(?:error|exception))?|throws(?:\s+an?\s+(?:error|exception))?|errors?|breaks|crashes)\s*[.!:]*\s*$/i;

export function segmentMarks(code: string): SegmentMarks | null {
  const comment = /^\s*#\s?(.*)$/;
  const parts: { kind: "pass" | "fail"; mark: string; lines: string[] }[] = [];
  let current: (typeof parts)[number] | null = null;
  for (const raw of code.split("\n")) {
    const c = comment.exec(raw);
    if (c) {
      const text = c[1]!.trim();
      const kind = PASS_MARK.test(text) ? "pass" : FAIL_MARK.test(text) ? "fail" : null;
      if (kind) {
        current = { kind, mark: raw.trim(), lines: [] };
        parts.push(current);
      }
      continue;
    }
    if (raw.trim() === "") continue;
    if (current) current.lines.push(raw.trim());
  }
  const fails = parts.filter((p) => p.kind === "fail");
  const passes = parts.filter((p) => p.kind === "pass");
  if (fails.length !== 1 || passes.length === 0) return null;
  const fail = fails[0]!;
  if (parts.indexOf(fail) !== parts.length - 1) return null;
  if (parts.some((p) => p.lines.length === 0)) return null;
  const passing = passes.flatMap((p) => p.lines);
  // A failing part no different from a working one says nothing about where the run fails.
  if (fail.lines.every((l) => passing.includes(l))) return null;
  return { passing, failing: fail.lines, passMark: passes[0]!.mark, failMark: fail.mark };
}

/**
 * The source line the report's own code raised at: the last frame of a Python traceback in the sandbox's
 * workspace (`File "/workspace/reproduction.py", line 12, in <module>` and the line under it), trimmed.
 */
export function ownRaisingLine(stderr: string): string | null {
  const idx = stderr.lastIndexOf("Traceback (most recent call last):");
  if (idx < 0) return null;
  const lines = stderr.slice(idx).split("\n");
  let found: string | null = null;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim() !== "" && !l.startsWith(" ")) break;
    if (!/^\s+File "\/workspace\/[^"]+", line \d+, in \S+\s*$/.test(l)) continue;
    const source = lines[i + 1] ?? "";
    found =
      source.startsWith(" ") && !/^\s+File "/.test(source) && !/^[\s^~]*$/.test(source)
        ? source.trim()
        : null;
  }
  return found;
}
