/**
 * Two transcripts of the same session side by side ("Python 3.10: … / Python 3.11: …", "Under Node: … / In the
 * browser: …", before/after upgrading): one is the reported (bad) behaviour, the other the good one. Which is
 * which comes from the report's words about each label ("3.10 ought to be patched to behave like 3.11",
 * "broken since 4.2", "raises IndexError instead of ValueError"), else an error is the bad side of a clean run.
 * Undecided, neither side may be claimed as the bug.
 */
import { escapeRegExp } from "../core/regexp.ts";
import type { ParsedReport, ReportBlock } from "./parse-report.ts";
import {
  parseNodeException,
  parsePythonException,
  pythonFrames,
  type RaisedException,
  type TracebackFrame,
} from "./outcome.ts";
import { ALTERNATIVE_PYTHON } from "./reference-lead.ts";
import { GOOD_BEFORE } from "./good-side-words.ts";
import { labelPattern, leadVerdict, REGRESSED, verdictFor, withoutHedges } from "./version-verdict.ts";
import { parseTranscript, REPL_LAUNCH } from "./transcript.ts";
import { versionSegments } from "./version-lines.ts";
import { compareVersions, regressionReleases } from "./good-version-lead.ts";

export interface Side {
  block: ReportBlock;
  /** "3.10", "Node", "the browser": how the report names this side. */
  label: string;
  output: string[];
  exception: RaisedException | null;
  /** The frames of the side's Python traceback, when it shows one. */
  frames?: TracebackFrame[];
}

export interface TwoVersions {
  bad: Side | null;
  good: Side | null;
  sides: Side[];
  /** One sentence: why this side was taken as the reported bug (or why none could be). */
  why: string;
}

function labelOf(b: ReportBlock): string {
  // `$ pypy3` / `$ python3.6` starting the session: the interpreter as typed (the banners may share a version).
  const launch = REPL_LAUNCH.exec(b.value.split("\n").find((l) => l.trim() !== "") ?? "");
  if (launch?.[1]) return launch[1];
  const pypy = /^Python (\d+\.\d+)[^\n]*\n?\[PyPy/m.exec(b.value);
  if (pypy?.[1]) return `PyPy ${pypy[1]}`;
  const banner =
    /^Python (\d+\.\d+)/m.exec(b.value) ??
    /^(?:Welcome to )?Node\.js v?(\d+(?:\.\d+)?)/m.exec(b.value) ??
    /\bPython\s*(\d+\.\d+)/i.exec(b.lead ?? "") ??
    /\b(?:python|py)?\s*(\d+\.\d+)\b/i.exec(b.lead ?? "");
  if (banner?.[1]) return banner[1];
  const lead = (b.lead ?? "").replace(/[:.]\s*$/, "").trim();
  const place =
    /\b(node(?:\.js)?|browser|chrome|firefox|safari|pypy\d*(?:\.\d+)?|cpython|before|after|old|new|windows|linux|mac(?:os)?)\b/i.exec(
      lead,
    );
  return place?.[1] ?? lead.slice(-40);
}

function sideOf(b: ReportBlock): Side {
  if (b.shellRun) {
    const r = b.shellRun;
    const exception = r.errorText
      ? r.runtime === "python"
        ? parsePythonException(r.errorText)
        : parseNodeException(r.errorText)
      : null;
    // A session that installed a release first (`$ npm i yargs@13.1.0`) is that release's side.
    const pkg = r.installed?.[r.installed.length - 1];
    return {
      block: b,
      label: pkg ? `${pkg.name}@${pkg.version}` : r.interpreter,
      output: r.output,
      exception,
      frames: r.errorText && r.runtime === "python" ? pythonFrames(r.errorText) : [],
    };
  }
  const flavour = b.kind === "python-transcript" ? "python" : "node";
  const t = parseTranscript(b.value, flavour);
  const exception = t.errorText
    ? flavour === "python"
      ? parsePythonException(t.errorText)
      : parseNodeException(t.errorText)
    : null;
  return {
    block: b,
    label: labelOf(b),
    output: t.output,
    exception,
    frames: t.errorText && flavour === "python" ? pythonFrames(t.errorText) : [],
  };
}

const VERSION = String.raw`v?\d+(?:\.\d+)+\w*`;
/** A lead placing its transcript before a release: "versions before `1.19.1` gave this", "up to 2.3". */
const OLDER_LEAD = new RegExp(
  String.raw`\b(?:before|prior\s+to|up\s+to|until|below|older\s+than|earlier\s+than)\s+(?:version\s+|release\s+|v\s*)?\x60?${VERSION}`,
  "i",
);
/** A lead placing its transcript at or after a release: "from version `1.19.1` on", "since 4.2", "after 2.0". */
const NEWER_LEAD = new RegExp(
  String.raw`\b(?:(?:from|starting(?:\s+(?:with|from|at))?)\s+(?:version\s+|release\s+|v\s*)?\x60?${VERSION}\x60?\s+(?:on(?:wards?)?|and\s+(?:later|newer|up|above))\b|(?:since|after)\s+(?:version\s+|release\s+|v\s*)?\x60?${VERSION})`,
  "i",
);
/** Words saying a behaviour changed for the worse in a newer release (a regression), hedges aside. */
function saysRegression(text: string): boolean {
  const t = withoutHedges(text);
  return (
    REGRESSED.test(t) ||
    /\bregress(?:ion|ed|es)\b|\b(?:since|after)\s+upgrading\b/i.test(t) ||
    // "which earlier versions did not", "was not the case in earlier Python versions": the change is new. "Is this
    // on purpose?", "is this meant as a new feature, or a bug?": the reporter asks about a change, the newer side's.
    /\b(?:is|was)\s+(?:this|that|it)\s+(?:on\s+purpose|intended|intentional|deliberate|by\s+design|(?:meant|supposed)\s+(?:as|to\s+be)\s+(?:an?\s+)?(?:new\s+)?(?:feature|change))\b/i.test(
      t,
    ) ||
    /\b(?:earlier|older|previous|prior)\s+(?:\w+\s+){0,2}(?:versions?|releases?)\s+(?:did|do|does|had|have|were|was)\s*(?:n'?t|not)\b|\b(?:was|were|is)\s*(?:n'?t|not)\s+the\s+case\s+(?:in|with|on|for)\s+(?:the\s+)?(?:earlier|older|previous|prior)\b/i.test(
      t,
    )
  );
}

/** An output line with the reporter's mark on it: `[1, 2]  # Missing 0 (!)`, `x  <- wrong`. */
const MARKED_LINE =
  /(?:#|\/\/|<-+|←)\s*(?:missing|wrong|incorrect|bug(?:gy)?|broken|unexpected)\b|\(!+\)\s*$|<-+\s*(?:here|this)\b/i;

/**
 * The frames one side's traceback shows and the other's does not (by file name and function; line numbers and
 * directories differ between machines): the same error raised through other code (issue 12, hold24: a context
 * manager's `__exit__` frame one release added). Empty unless both sides show a traceback with frames.
 */
export function framesOnlyIn(a: Side, b: Side): TracebackFrame[] {
  const fa = a.frames ?? [];
  const fb = b.frames ?? [];
  if (fa.length === 0 || fb.length === 0) return [];
  const key = (f: TracebackFrame) => `${f.file}\u0000${f.function}`;
  const other = new Set(fb.map(key));
  return fa.filter((f) => !other.has(key(f)));
}

export function sameOutcome(a: Side, b: Side): boolean {
  if (a.exception || b.exception)
    return (
      a.exception?.type === b.exception?.type &&
      a.exception?.message === b.exception?.message &&
      framesOnlyIn(a, b).length === 0 &&
      framesOnlyIn(b, a).length === 0
    );
  return a.output.join("\n").replace(/\s+/g, "") === b.output.join("\n").replace(/\s+/g, "");
}

/**
 * Words saying an error is the expected behaviour: "stopped raising X", "no longer raises X", "does not raise X
 * any more", "should raise X", "used to raise X". An error named so is never the claim.
 */
export function errorWanted(type: string, text: string): boolean {
  const t = escapeRegExp(type);
  const lead =
    "(?:stopped|ceased)\\s+(?:raising|throwing)|no\\s+longer\\s+(?:raises?|throws?)|(?:should|used to|is supposed to|is expected to|must)\\s+(?:raise|throw)";
  const direct = new RegExp(`\\b(?:${lead})\\b[^\\n]{0,40}?\\b${t}\\b`, "i");
  const anyMore = new RegExp(
    `\\b(?:does|do|did|will)\\s*(?:n'?t|not)\\s+(?:raise|throw)\\b[^\\n]{0,40}?\\b${t}\\b[^\\n]{0,160}?\\bany ?more\\b`,
    "i",
  );
  return direct.test(text) || anyMore.test(text);
}

/**
 * Sides whose short labels collide (`Python 3.13.2` and `Python 3.13.0` are both "3.13") are named by their
 * full versions, so the report's words about "3.13.0" reach the right side.
 */
function distinctLabels(sides: Side[]): Side[] {
  const count = (label: string) => sides.filter((s) => s.label === label).length;
  if (sides.every((s) => count(s.label) === 1)) return sides;
  const full = (s: Side) =>
    /^Python (\d+\.\d+\.\d+\S*)/m.exec(s.block.value)?.[1] ??
    /^(?:Welcome to )?Node\.js v?(\d+\.\d+\.\d+)/m.exec(s.block.value)?.[1] ??
    null;
  const relabelled = sides.map((s) => (count(s.label) > 1 ? { ...s, label: full(s) ?? s.label } : s));
  return new Set(relabelled.map((s) => s.label)).size === relabelled.length ? relabelled : sides;
}

/** The two sides of a report that shows one session twice with different results; null when it does not. */
export function twoVersions(report: ParsedReport, blocks: ReportBlock[]): TwoVersions | null {
  const sessions = blocks.filter(
    (b) => b.kind === "python-transcript" || b.kind === "node-transcript" || b.shellRun !== null,
  );
  const flavourOf = (b: ReportBlock) => (b.kind === "python-transcript" ? "python" : "node");
  const inputs = (b: ReportBlock) =>
    b.shellRun
      ? b.shellRun.script
        ? `script:${b.shellRun.script.file} ${b.shellRun.script.args.join(" ")}`
        : `shell:${b.shellRun.code.replace(/\s+/g, "")}`
      : parseTranscript(b.value, flavourOf(b)).inputs.join("\n").replace(/\s+/g, "");
  const first = sessions[0];
  const same = first ? sessions.filter((b) => inputs(b) === inputs(first)) : [];
  // Else one block showing a run per version, each output under its version's line (version-lines.ts).
  const inBlock = same.length < 2;
  const sides = inBlock ? (blockSides(blocks) ?? leadSides(blocks)) : distinctLabels(same.map(sideOf));
  if (!sides || sides.length < 2) return null;
  if (sides.every((s) => sameOutcome(s, sides[0]!))) return null;
  const judged = judgeSides(report, sides);
  if (!inBlock) return judged;
  if (!judged.bad) return sinceRelease(report, sides) ?? judged;
  // Of several versions, the good side set against the bad one is the one the words call right, else its
  // neighbour in the block (the release before it): the one its change is measured from.
  const at = sides.indexOf(judged.bad);
  const text = `${report.title}\n${report.proseWithCode}`;
  const named = sides.find((s) => s !== judged.bad && verdictFor(s.label, text) === "good");
  return { ...judged, good: named ?? sides[at - 1] ?? sides[at + 1] ?? null };
}

/**
 * Versions on either side of the release the words say the bug appeared in ("regression in Python 3.11+", "fails
 * on 3.11 and newer"): the sides at or after it are the bad one when they all show the same outcome, and some side
 * comes before it; the earliest of them is the claim, the side just before it the good one. Null otherwise.
 */
function sinceRelease(report: ParsedReport, sides: Side[]): TwoVersions | null {
  const releases = regressionReleases(`${report.title}\n${report.proseWithCode}`);
  if (releases.length !== 1) return null;
  const release = releases[0]!.version;
  const parts = (label: string) => label.split(".").map(Number);
  if (sides.some((s) => !/^\d+(?:\.\d+)+$/.test(s.label))) return null;
  const at = sides.findIndex((s) => compareVersions(parts(s.label), release) >= 0);
  const after = at < 0 ? [] : sides.slice(at);
  if (at < 1 || after.some((s) => compareVersions(parts(s.label), release) < 0)) return null;
  if (!after.every((s) => sameOutcome(s, after[0]!))) return null;
  const bad = after[0]!;
  const good = sides[at - 1]!;
  if (sameOutcome(bad, good)) return null;
  return {
    bad,
    good,
    sides,
    why: `the report says the bug appeared in ${releases[0]!.text}: \`${bad.label}\` and later show it, \`${good.label}\` is the release before`,
  };
}

/** The sides of the one block (not a session Retrace runs) that shows an output per version line, else null. */
function blockSides(blocks: ReportBlock[]): Side[] | null {
  const found = blocks
    .filter((b) => !b.shellRun && ["shell", "output", "error-output", "traceback"].includes(b.kind))
    .map((b) => ({ b, segments: versionSegments(b.value, b.lead) }))
    .filter((x) => x.segments !== null);
  if (found.length !== 1) return null;
  const { b, segments } = found[0]!;
  return segments!.map((s) => {
    const text = s.lines.join("\n");
    const exception = parsePythonException(text) ?? parseNodeException(text);
    return { block: b, label: s.label, output: exception ? [] : s.lines, exception };
  });
}

/** A version in the line introducing an output: "With 3.9.10:", "on immutable@3.8.2", "v4.1.2 gives:". */
const LEAD_VERSION =
  /(?:^|[\s(`@])v?(\d+\.\d+(?:\.\d+)?(?:[-.]?(?:a|b|rc|alpha|beta|dev)\.?\d*)?)(?=[\s`)\]:,;]|$)/i;

/**
 * One program, then its output once per version, each output block introduced by a line naming its version
 * ("With 3.9.10:" / "With 3.12.0a0:"): the sides are those blocks, labelled by the versions as written. Null
 * unless at least two such blocks follow the first code block and their versions differ.
 */
function leadSides(blocks: ReportBlock[]): Side[] | null {
  const firstCode = blocks.findIndex((b) => b.kind === "code");
  if (firstCode < 0) return null;
  const found = blocks
    .slice(firstCode + 1)
    .filter((b) => !b.shellRun && ["output", "error-output", "traceback"].includes(b.kind))
    .map((b) => {
      const line = (b.lead ?? "").trim().split("\n").pop()?.trim() ?? "";
      return { b, version: line.length <= 80 ? LEAD_VERSION.exec(line)?.[1] : undefined };
    })
    .filter((x): x is { b: ReportBlock; version: string } => x.version !== undefined);
  if (found.length < 2 || new Set(found.map((x) => x.version)).size !== found.length) return null;
  return found.map(({ b, version }) => {
    const exception = parsePythonException(b.value) ?? parseNodeException(b.value);
    const lines = b.value.split("\n").filter((l) => l.trim() !== "");
    return { block: b, label: version, output: exception ? [] : lines, exception };
  });
}

/** A label's release numbers ("3.12.0a0" → [3, 12, 0]), or null when it is not a version. */
function releaseOf(label: string): number[] | null {
  // `python3.11`, `node18.2`: the interpreter's release, as a shell session labels its side.
  const m = /^(?:(?:python|pypy|node)(?=v?\d))?v?(\d+(?:\.\d+)+)/i.exec(label);
  return m?.[1] ? m[1].split(".").map(Number) : null;
}

/** Which side the report calls wrong (and which right), from its words, title, marks, leads and errors. */
function judgeSides(report: ParsedReport, sides: Side[]): TwoVersions {
  const text = `${report.title}\n${report.proseWithCode}`;

  // 0. The report says the error one side raises is the right behaviour ("stopped raising `ValueError`", "no
  // longer raises ValueError", "does not raise ValueError any more", "should raise ValueError"): the side that
  // raises it is the good one, whatever else the words say, and the clean side is the reported bug.
  const raising = sides.filter((s) => s.exception);
  if (raising.length === 1 && sides.length === 2) {
    const type = raising[0]!.exception!.type.split(".").pop() ?? "";
    if (type && errorWanted(type, text)) {
      const good = raising[0]!;
      const bad = sides.find((s) => s !== good)!;
      return {
        bad,
        good,
        sides,
        why: `the report says \`${type}\` should be raised (it stopped being raised), so \`${good.label}\`, which raises it, is the expected behaviour and \`${bad.label}\` the reported bug`,
      };
    }
  }

  // 1. The report's words about each side.
  const judged = sides.map((s) => ({ s, v: verdictFor(s.label, text) }));
  let bad = judged.find((j) => j.v === "bad")?.s ?? null;
  let good = judged.find((j) => j.v === "good" && j.s !== bad)?.s ?? null;
  let why = "";
  if (bad || good) {
    bad ??= sides.find((s) => s !== good) ?? null;
    good ??= sides.find((s) => s !== bad) ?? null;
    why = `the report's words single out ${bad ? `\`${bad.label}\`` : "one side"} as the wrong behaviour${good ? ` and \`${good.label}\` as the right one` : ""}`;
  }
  // 1b. A bug report's title names where it goes wrong: one side named there (and not as the good one) is bad. A
  // title naming two versions ("differently in 4.2.1 and 3.10.1") names a comparison, not the wrong side.
  if (!bad && (report.title.match(/\bv?\d+\.\d+(?:\.\d+)?/g) ?? []).length < 2) {
    const named = sides.filter((s) => {
      const re = labelPattern(s.label);
      return [...report.title.matchAll(re)].some(
        (m) => !GOOD_BEFORE.test(report.title.slice(0, m.index ?? 0)),
      );
    });
    if (named.length === 1) {
      bad = named[0]!;
      good = sides.find((s) => s !== bad) ?? null;
      why = `the report's title names \`${bad.label}\` as where it goes wrong`;
    }
  }
  // 1c. A transcript line the reporter marks (`# Missing …`, `<- wrong`, `(!)`) is on the bad side.
  if (!bad) {
    const marked = sides.filter((s) => s.block.value.split("\n").some((l) => MARKED_LINE.test(l)));
    if (marked.length === 1) {
      bad = marked[0]!;
      good = sides.find((s) => s !== bad) ?? null;
      why = `the reporter marks a line of the \`${bad.label}\` transcript as wrong`;
    }
  }
  // 1d. Each side's own introduction: "2. yargs@13.1.0 (rather unexpected)", "On 3.11 (correct):".
  if (!bad) {
    const leads = sides.map((s) => ({ s, v: leadVerdict(s.block.lead ?? "") }));
    const b = leads.filter((l) => l.v === "bad");
    const g = leads.filter((l) => l.v === "good");
    if (b.length === 1 || (g.length === 1 && sides.length === 2)) {
      bad = b.length === 1 ? b[0]!.s : (sides.find((s) => s !== g[0]!.s) ?? null);
      good = g.length === 1 && g[0]!.s !== bad ? g[0]!.s : (sides.find((s) => s !== bad) ?? null);
      why = `the words introducing the transcripts call \`${bad?.label}\` the unexpected one${good ? ` and \`${good.label}\` the expected one` : ""}`;
    }
  }
  // 1e. Two leads placing their transcripts on either side of a release ("versions before 1.19.1 gave this:" /
  // "from version 1.19.1 on it gives:"), in a report that says the behaviour regressed ("no longer encoded",
  // "stopped raising"): the newer side is the reported bug, the older the behaviour that worked.
  if (!bad && sides.length === 2 && saysRegression(text)) {
    const older = sides.filter(
      (s) => OLDER_LEAD.test(s.block.lead ?? "") && !NEWER_LEAD.test(s.block.lead ?? ""),
    );
    const newer = sides.filter(
      (s) => NEWER_LEAD.test(s.block.lead ?? "") && !OLDER_LEAD.test(s.block.lead ?? ""),
    );
    if (older.length === 1 && newer.length === 1) {
      bad = newer[0]!;
      good = older[0]!;
      why = `the report says the behaviour regressed, and the words introducing the transcripts place one (${JSON.stringify((bad.block.lead ?? "").trim())}) at or after the release the other (${JSON.stringify((good.block.lead ?? "").trim())}) comes before`;
    }
  }
  // 1f. Two sides labelled by releases of the same thing, in a report that says the behaviour regressed ("brought a
  // regression into netrc.py"): the newer release is the reported bug, the older the behaviour that worked.
  if (!bad && sides.length === 2 && saysRegression(text)) {
    const [a, b] = sides.map((s) => releaseOf(s.label));
    const order = a && b ? compareVersions(a, b) : 0;
    if (order !== 0) {
      bad = order > 0 ? sides[0]! : sides[1]!;
      good = sides.find((s) => s !== bad) ?? null;
      why = `the report says the behaviour regressed, and \`${bad.label}\` is the newer of the two releases shown (\`${good?.label}\` the older)`;
    }
  }
  // 2. "raises IndexError instead of ValueError".
  if (!bad) {
    const m =
      /\b([A-Z]\w*(?:Error|Exception))\b[^.\n]{0,60}?\binstead of\b(?:\s+an?)?\s+`?([A-Z]\w*(?:Error|Exception))/.exec(
        text,
      );
    if (m) {
      bad = sides.find((s) => s.exception?.type.endsWith(m[1]!)) ?? null;
      good = sides.find((s) => s.exception?.type.endsWith(m[2]!)) ?? null;
      if (bad) why = `the report says \`${m[1]}\` is raised instead of \`${m[2]}\``;
    }
  }
  // 2b. Another Python implementation (PyPy, Brython, …) beside CPython: CPython is the reference, so the
  // other implementation's result is the one reported.
  if (!bad) {
    // Named by the side's label, or by the line introducing its transcript ("In the Brython console on master:").
    const introducedAs = (s: (typeof sides)[number]) =>
      (s.block.lead ?? "")
        .split("\n")
        .pop()!
        .split(/\s+/)
        .some((w) => ALTERNATIVE_PYTHON.test(w.replace(/^[^\w]+/, "")));
    const alternative = sides.filter((s) => ALTERNATIVE_PYTHON.test(s.label) || introducedAs(s));
    if (alternative.length === 1 && sides.length === 2 && sides.every((s) => s.block.language === "python")) {
      bad = alternative[0]!;
      good = sides.find((s) => s !== bad) ?? null;
      why = `\`${bad.label}\` is another Python implementation than CPython, the reference one (\`${good?.label}\`)`;
    }
  }
  // 3. An error on one side, a clean result on the other: the error is the reported bug.
  if (!bad) {
    const errors = sides.filter((s) => s.exception);
    if (errors.length === 1 && sides.length === 2) {
      bad = errors[0]!;
      good = sides.find((s) => s !== bad) ?? null;
      why = `one transcript (\`${bad.label}\`) ends in an error and the other does not`;
    }
  }
  if (!bad)
    return {
      bad: null,
      good: null,
      sides,
      why: `the report shows ${sides.length} transcripts of the same code with different results (${sides.map((s) => `\`${s.label}\``).join(", ")}) and does not say which one is wrong`,
    };
  return { bad, good: good && good !== bad ? good : null, sides, why };
}

/**
 * The release a side's label stands for, as the line introducing its transcript writes it in full: the label keeps
 * `major.minor` ("2.0" for "2.0.0 prints", as "3.10" for "Python 3.10.4:"), and a release to install needs the whole
 * number the report wrote. The label itself when the lead writes no longer release starting with it.
 */
export function sideRelease(side: Side): string {
  if (!/^v?\d+(?:\.\d+)+$/.test(side.label)) return side.label;
  const full = new RegExp(
    String.raw`(?<![\w.])v?(${escapeRegExp(side.label.replace(/^v/, ""))}(?:\.\d+)+(?:-[\w.]+)?)(?![\w.]*\w)`,
  ).exec(side.block.lead ?? "");
  return full?.[1] ?? side.label;
}
