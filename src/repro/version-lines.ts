/**
 * One pasted block that shows a run per version, each output under a line naming the version it came from: a shell
 * loop echoing `3.10`, `3.11`, … before each run's last line, `Python 3.12.1` banners, `$ python3.12 t.py` prompts,
 * `node v20.1.0` / `v18.20.4` lines, `foo@1.2.3` lines. Each labelled output is a side of a two-versions report
 * (two-versions.ts judges which one the report calls wrong); the block as a whole is never the claim, since most of
 * its lines are how it works on the other versions.
 *
 * Taken only when every label line is of one kind, there are two distinct labels or more, and each label has
 * output under it; bare version lines (`3.11`) also need the block or its lead to speak of versions or a runtime
 * (`--python 3.$i`, `nvm use`, "versions"), so a program printing numbers is never read as labels. Pure.
 */

export interface VersionSegment {
  /** The version as the line gives it: `3.11`, `18.20.4`, `foo@1.2.3`. */
  label: string;
  /** The non-empty lines printed under it, up to the next label. */
  lines: string[];
}

type Kind = "bare" | "banner" | "prompt" | "node" | "package";

const LABELS: [Kind, RegExp][] = [
  ["bare", /^[ \t]*(\d+\.\d+(?:\.\d+)?)[ \t]*:?[ \t]*$/],
  ["banner", /^[ \t]*(?:C?Python|PyPy)[ \t]+(\d+\.\d+(?:\.\d+)?)\b[^\n]*$/i],
  [
    "prompt",
    /^[ \t]*(?:[\w@.~:/[\]-]*[ \t]*)?[$%➜>][ \t]+[^\n]*?(?:\b(?:python|pypy)|--python[ \t=]+)(\d+\.\d+)\b[^\n]*$/,
  ],
  ["node", /^[ \t]*(?:node(?:\.js)?[ \t]+v?|v)(\d+(?:\.\d+){0,2})[ \t]*:?[ \t]*$/i],
  ["package", /^[ \t]*((?:@[\w.-]+\/)?[A-Za-z][\w.-]*@\d+\.\d+\.\d+[\w.-]*)[ \t]*:?[ \t]*$/],
];

/** Words that say a block of bare version lines is about versions. */
const SPEAKS_OF_VERSIONS =
  /\b(?:python\d*(?:\.\d+)?|py|pypy|node|nvm|uv|pyenv|asdf|tox|nox|versions?|releases?|npx|npm|pip)\b|--python\b/i;

function labelOf(line: string): { kind: Kind; label: string } | null {
  for (const [kind, re] of LABELS) {
    const m = re.exec(line);
    if (m?.[1]) return { kind, label: m[1] };
  }
  return null;
}

/**
 * The block's outputs, one per version line, in order; null unless it is such a block (see the file's comment).
 */
export function versionSegments(value: string, lead: string | null): VersionSegment[] | null {
  const lines = value.split("\n");
  const found: { kind: Kind; label: string; at: number }[] = [];
  lines.forEach((l, at) => {
    const label = labelOf(l);
    if (label) found.push({ ...label, at });
  });
  if (found.length < 2) return null;
  const kind = found[0]!.kind;
  if (found.some((f) => f.kind !== kind)) return null;
  const segments: VersionSegment[] = found.map((f, i) => ({
    label: f.label,
    lines: lines
      .slice(f.at + 1, found[i + 1]?.at ?? lines.length)
      .map((l) => l.trimEnd())
      .filter((l) => l.trim() !== ""),
  }));
  if (segments.some((s) => s.lines.length === 0)) return null;
  if (new Set(segments.map((s) => s.label)).size !== segments.length) return null;
  if (kind === "bare") {
    const labelLines = new Set(found.map((f) => f.at));
    const rest = lines.filter((_, i) => !labelLines.has(i)).join("\n");
    if (!SPEAKS_OF_VERSIONS.test(`${lead ?? ""}\n${rest}`)) return null;
  }
  return segments;
}
