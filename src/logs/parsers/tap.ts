/**
 * TAP (node:test's TAP reporter, mocha's `--reporter tap`, tape, …): `ok`/`not ok` lines, nested
 * `# Subtest:` blocks, YAML diagnostics (`---` … `...`) with error, name, location and stack, and
 * `# SKIP`/`# TODO` directives.
 *
 * tape (and TAP producers shaped like it) numbers assertions, not tests: each test prints a `# name` header,
 * then its assertions (`ok 3 should be strictly equal`), subtests as headers of their own, and the plan last.
 * The assertion descriptions are no test ids (the same "should be equal" in every test), so in such a stream
 * the header is the test: one result per header, failed when one of its assertions failed (each failure
 * names the header), skipped when all were skipped; a header repeated later in the run becomes `name#2`. A
 * stream that ends inside a header without its plan died there (an uncaught error ends tape's process
 * mid-test): that test is an `error`, with the last error the process printed. Headers count only before the
 * plan and while no `# Subtest:` was seen (node:test and node-tap nest tests that way instead).
 *
 * AVA's TAP (`ava --tap`) prints one result line per test, named by its title, and comments that are no tape
 * headers: a hook's title (`# before hook`, `# afterEach.always hook for "title"`) when the hook finished, which
 * names no test and ends the header above it; and AVA 0.x's echo of the test's title right above its line
 * (`# adds` / `ok 1 - adds`): a header whose only result repeats it is that test itself, done once its line is
 * read, so a stream cut after it (a paste ends there) is no test that died.
 */
import type { TestOutcome } from "../failure.ts";
import {
  BlockBuffer,
  errorLine,
  type FailureDraft,
  type FormatDefinition,
  jsFrameLocation,
  type ParserSink,
  underTopDir,
} from "../parser.ts";

const RESULT = /^(\s*)(ok|not ok)\b(?: (\d+))?(?: -)? ?(.*?)(?: # (SKIP|TODO)\b.*| # skip\b.*)?$/i;
const SUBTEST = /^(\s*)# Subtest: (.+)$/;
const VERSION = /^TAP version \d+$/;
const PLAN = /^\s*\d+\.\.\d+(?: #.*)?$/;
const COMMENT = /^\s*#/;
const YAML_START = /^\s+---$/;
const YAML_END = /^\s+\.\.\.$/;
/**
 * A top-level comment that is no tape test header: the counts tape, node:test and mocha print at the end, and the
 * count sentences of other producers (Test::More's `# Looks like you failed 1 test of 5.`, Common Lisp prove's
 * `# All 3 tests passed.` / `# 1 out of 3 tests failed.`): a count names no test.
 */
const SUMMARY_COMMENT =
  /^# (?:(?:tests|suites|pass|fail|failed|cancelled|skip|skipped|todo|duration_ms)\s+\d[\d.]*|ok|not ok|All \d+ tests? passed\.?(?: \([^)]*\))?|\d+ (?:of|out of) \d+ tests? failed\.?(?: \([^)]*\))?|Looks like you (?:failed|planned) \d+ tests?\b.*)\s*$/i;
const HEADER = /^# (\S.*)$/;
/** AVA's comment for a hook that ran (`before`, `beforeEach`, `after`, `afterEach`, `.always`; `for "title"`). */
const AVA_HOOK = /^# (?:before|beforeEach|after|afterEach)(?:\.always)? hook(?: for ".*")?\s*$/;

/** How the failure of the test a tape run died in begins (the test runner reads it: a run that died early). */
export const TAP_CRASH_NOTE = "the test process died in this test, before the TAP plan";

/** A tape test: its header, and what its assertions showed so far. */
interface Group {
  id: string;
  name: string;
  /** Its only result so far repeats the header (AVA 0.x's echo of the test's title). */
  echoed: boolean;
  assertions: number;
  skipped: number;
  failed: boolean;
}

interface Pending {
  id: string;
  name: string;
  indent: number;
  failed: boolean;
  directive: string | null;
  buf: BlockBuffer;
  yaml: Map<string, string>;
  inYaml: boolean;
  yamlKey: string | null;
  yamlIndent: number;
}

/** Reads a YAML scalar the way node:test writes it: quoted strings, `|-` blocks, plain values. */
function unquote(v: string): string {
  const t = v.trim();
  if ((t.startsWith("'") && t.endsWith("'")) || (t.startsWith('"') && t.endsWith('"'))) {
    const inner = t.slice(1, -1);
    return t.startsWith("'") ? inner.replace(/''/g, "'") : inner.replace(/\\"/g, '"').replace(/\\n/g, "\n");
  }
  return t;
}

export function createTapParser(out: ParserSink) {
  /**
   * A lone `not ok 1 - …` line is what a test printed, not a TAP stream: results are held until the stream
   * shows its shape (a `TAP version`, a plan, a subtest or a second result line) and dropped if it never does.
   */
  let shaped = false;
  let results = 0;
  const held: ((s: ParserSink) => void)[] = [];
  const sink: ParserSink = {
    path: (p) => out.path(p),
    summary: (c) => out.summary(c),
    unnamed: () => out.unnamed(),
    test: (id, outcome, file, correction) => {
      if (shaped) out.test(id, outcome, file, correction);
      else if (held.length < 1000) held.push((s) => s.test(id, outcome, file, correction));
    },
    failure: (d) => {
      if (shaped) out.failure(d);
      else if (held.length < 1000) held.push((s) => s.failure(d));
    },
  };
  const shape = () => {
    if (shaped) return;
    shaped = true;
    for (const h of held) h(out);
    held.length = 0;
  };
  let seen = false;
  const subtests: { indent: number; name: string }[] = [];
  let pending: Pending | null = null;
  // tape's headers (see the top of the file).
  let nested = false;
  let planSeen = false;
  let group: Group | null = null;
  const headerCount = new Map<string, number>();
  /** The last error line printed outside the stream, and the frames under it: what ended a crashed run. */
  let crash: { type: string; message: string; frames: string[]; start: number; end: number } | null = null;

  function openGroup(name: string): void {
    closeGroup();
    const n = (headerCount.get(name) ?? 0) + 1;
    headerCount.set(name, n);
    group = {
      id: n === 1 ? name : `${name}#${n}`,
      name,
      echoed: false,
      assertions: 0,
      skipped: 0,
      failed: false,
    };
    crash = null;
  }

  /** The header's result, once its assertions are over (a header with none, such as a group, has no result). */
  function closeGroup(): void {
    const g = group;
    group = null;
    if (!g || g.assertions === 0) return;
    sink.test(g.id, g.failed ? "failed" : g.skipped === g.assertions ? "skipped" : "passed");
  }

  /** The stream ended inside a header, without its plan: the process died in that test. */
  function crashed(g: Group): void {
    group = null;
    sink.test(g.id, "error");
    const frames = crash?.frames ?? [];
    const loc = jsFrameLocation(frames, sink);
    sink.failure({
      category: "test",
      test: g.id,
      file: loc?.file ?? null,
      line: loc?.line ?? null,
      column: loc?.column ?? null,
      errorType: crash?.type ?? null,
      message: crash
        ? `${TAP_CRASH_NOTE}: ${crash.message || crash.type}`
        : "the test process ended in this test without the TAP plan (a crash or an early exit)",
      stack: crash ? [`${crash.type}: ${crash.message}`, ...frames].join("\n") : null,
      start: crash?.start ?? 0,
      end: crash?.end ?? 0,
    });
  }

  /**
   * node:test's subtests cancelled by their parent (`failureType: 'cancelledByParent'`, no stack of their own), held
   * until the parent's own result below them: a parent whose hook failed (`failureType: 'hookFailed'`, a `before`
   * hook) gives them its stack's place, where the cause is; any other parent leaves them at their own `location:`.
   */
  const cancelled: { indent: number; draft: FailureDraft }[] = [];
  function settleCancelled(
    indent: number,
    hookAt: { file: string; line: number; column: number } | null,
  ): void {
    const mine = cancelled.filter((c) => c.indent > indent);
    if (mine.length === 0) return;
    cancelled.splice(0, cancelled.length, ...cancelled.filter((c) => c.indent <= indent));
    for (const c of mine)
      sink.failure(
        hookAt ? { ...c.draft, file: hookAt.file, line: hookAt.line, column: hookAt.column } : c.draft,
      );
  }

  function settle(): void {
    const p = pending;
    pending = null;
    if (!p) return;
    const type = p.yaml.get("type");
    const failureType = p.yaml.get("failureType");
    if (cancelled.length > 0) {
      const hookStack = failureType === "hookFailed" ? p.yaml.get("stack") : undefined;
      settleCancelled(p.indent, hookStack ? jsFrameLocation(hookStack.split("\n"), sink) : null);
    }
    // Suites are reported as test points too; their failure is their subtests' failure.
    if (type === "suite" || failureType === "subtestsFailed") return;
    const outcome: TestOutcome = p.directive ? "skipped" : p.failed ? "failed" : "passed";
    const g = group !== null && p.indent === 0 ? (group as Group) : null;
    if (g) {
      // An assertion of a tape test: it counts for the header, and its failure names the header.
      g.assertions += 1;
      g.echoed = g.assertions === 1 && p.name === g.name;
      if (outcome === "skipped") g.skipped += 1;
      if (outcome === "failed") g.failed = true;
    } else sink.test(p.id, outcome);
    if (!p.failed || p.directive) return;
    const yamlError = p.yaml.get("error");
    const lines = p.buf.lines.slice(1);
    let errorType = p.yaml.get("name") ?? null;
    let message = yamlError ?? "";
    if (!yamlError && p.yaml.has("operator")) {
      // tape's diagnostics: the assertion's operator and values; its description is the message.
      const values = ["expected", "actual"].filter((k) => p.yaml.has(k)).map((k) => `${k}: ${p.yaml.get(k)}`);
      message = [p.name, ...values].join("\n");
    } else if (!yamlError) {
      // Mocha's TAP: indented message, then `Type: message` and the stack.
      const body = lines.map((l) => l.trim()).filter((l) => l !== "");
      const typed = body.map((l) => errorLine(l)).find((x) => x !== null);
      if (typed) {
        errorType = typed.type;
        message = typed.message;
        const idx = body.findIndex((l) => errorLine(l) !== null);
        const more = body.slice(idx + 1).filter((l) => !l.startsWith("at "));
        if (more.length) message = [message, ...more].join("\n");
      } else message = body.filter((l) => !l.startsWith("at ")).join("\n");
    }
    const stackText = p.yaml.get("stack");
    const frames = stackText ? stackText.split("\n") : lines;
    const framed = jsFrameLocation(frames, sink);
    // tools/test.py's tests live in the checkout's `test/` directory; its stacks name them by the machine's path.
    const loc =
      framed && p.yaml.has("severity") && p.yaml.has("duration_ms")
        ? { ...framed, file: underTopDir(framed.file, "test") }
        : framed;
    const location = p.yaml.get("location");
    const at = location ? /^(.+?):(\d+):(\d+)$/.exec(location) : null;
    // tape's `at:` is one frame; AVA's is a folded block (`at: >-`), the test's own frame on its first line.
    const tapeAt = p.yaml.get("at")?.split("\n")[0]?.trim();
    const atFrame = !loc && tapeAt ? jsFrameLocation([`at ${tapeAt}`], sink) : null;
    const draft: FailureDraft = {
      category: "test",
      test: g ? g.id : p.id,
      file: loc?.file ?? atFrame?.file ?? (at ? sink.path(at[1]!) : null),
      line: loc?.line ?? atFrame?.line ?? (at ? Number(at[2]) : null),
      column: loc?.column ?? atFrame?.column ?? (at ? Number(at[3]) : null),
      errorType,
      message: message.trim() || p.name,
      stack: p.buf.text(),
      start: p.buf.start,
      end: p.buf.end,
    };
    if (failureType === "cancelledByParent" && !stackText && p.indent > 0 && cancelled.length < 1000)
      cancelled.push({ indent: p.indent, draft });
    else sink.failure(draft);
  }

  /** Outside the stream, inside a tape test: the error a dying process prints (the last one wins) and its frames. */
  function noteCrash(text: string, lineNo: number): void {
    const e = errorLine(text.trim());
    if (e && !text.startsWith(" ")) {
      crash = { type: e.type, message: e.message, frames: [], start: lineNo, end: lineNo };
    } else if (crash && /^\s+at /.test(text) && crash.frames.length < 30) {
      crash.frames.push(text.trim());
      crash.end = lineNo;
    }
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (pending?.inYaml) {
        pending.buf.push(text, lineNo);
        if (YAML_END.test(text)) {
          pending.inYaml = false;
          return true;
        }
        const indent = text.length - text.trimStart().length;
        const kv = /^\s*([A-Za-z_][\w-]*):(?: (.*))?$/.exec(text);
        if (kv && (pending.yamlKey === null || indent <= pending.yamlIndent)) {
          pending.yamlIndent = indent;
          const value = kv[2] ?? "";
          if (/^[|>][-+]?$/.test(value.trim())) {
            pending.yamlKey = kv[1]!;
            pending.yaml.set(kv[1]!, "");
          } else {
            pending.yamlKey = null;
            pending.yaml.set(kv[1]!, unquote(value));
          }
          // tape's and node-tap's diagnostics of a failed assertion (`operator: deepEqual` at the block's first
          // level, under `not ok N`): TAP's own shape, even when the paste kept only this result of the stream.
          if (kv[1] === "operator" && pending.failed && pending.indent === 0 && pending.yaml.size === 1)
            shape();
          // Node.js core's tools/test.py writes TAP with its own diagnostics (`duration_ms`, then `severity: fail`,
          // `crashed`, `flaky`) under each result: its shape too, for a paste of one `not ok N parallel/test-x`.
          if (
            kv[1] === "severity" &&
            pending.failed &&
            pending.indent === 0 &&
            pending.yaml.has("duration_ms")
          )
            shape();
        } else if (pending.yamlKey && indent > pending.yamlIndent) {
          const prev = pending.yaml.get(pending.yamlKey) ?? "";
          if (prev.length < 8_000)
            pending.yaml.set(pending.yamlKey, prev ? `${prev}\n${text.trim()}` : text.trim());
        }
        return true;
      }
      // Quick reject: outside a test point, TAP lines start (after indentation) with o, n, #, T or a digit.
      if (!seen && !pending) {
        const c = text.charCodeAt(0);
        if (c !== 111 && c !== 110 && c !== 84 && c !== 35 && c !== 32) return false;
      }
      if (VERSION.test(text)) {
        seen = true;
        shape();
        return true;
      }
      const sub = SUBTEST.exec(text);
      if (sub) {
        settle();
        closeGroup();
        nested = true;
        seen = true;
        shape();
        const indent = sub[1]!.length;
        while (subtests.length && subtests[subtests.length - 1]!.indent >= indent) subtests.pop();
        subtests.push({ indent, name: sub[2]!.trim() });
        return true;
      }
      const r = RESULT.exec(text);
      if (r && (seen || r[3] !== undefined)) {
        settle();
        seen = true;
        if (++results >= 2) shape();
        const indent = r[1]!.length;
        // The subtest header at this indentation names the test; pop it.
        while (subtests.length && subtests[subtests.length - 1]!.indent > indent) subtests.pop();
        const top = subtests[subtests.length - 1];
        const name = r[4]!.trim();
        if (top && top.indent === indent) subtests.pop();
        const id = [...subtests.map((s) => s.name), name].join(" > ");
        pending = {
          id,
          name,
          indent,
          failed: r[2]!.toLowerCase() === "not ok",
          directive: r[5] ?? (/ # skip\b/i.test(text) ? "SKIP" : null),
          buf: new BlockBuffer(),
          yaml: new Map(),
          inYaml: false,
          yamlKey: null,
          yamlIndent: 0,
        };
        pending.buf.push(text, lineNo);
        return true;
      }
      if (!seen) return false;
      if (pending && YAML_START.test(text)) {
        pending.inYaml = true;
        pending.buf.push(text, lineNo);
        return true;
      }
      if (PLAN.test(text) || COMMENT.test(text)) {
        settle();
        if (PLAN.test(text)) {
          shape();
          closeGroup();
          planSeen = true;
        } else {
          const header = HEADER.exec(text);
          if (!nested && !planSeen && AVA_HOOK.test(text)) closeGroup();
          else if (header && !nested && !planSeen && !SUMMARY_COMMENT.test(text))
            openGroup(header[1]!.trim());
        }
        return true;
      }
      if (pending && (text.startsWith(" ") || text.trim() === "")) {
        pending.buf.push(text, lineNo);
        return true;
      }
      settle();
      if (group !== null && !planSeen) noteCrash(text, lineNo);
      return false;
    },
    end(): void {
      settle();
      settleCancelled(-1, null);
      const g = group as Group | null;
      if (g && !planSeen && shaped && !g.echoed) crashed(g);
      else closeGroup();
      held.length = 0;
    },
  };
}

export const tapFormat: FormatDefinition = {
  name: "tap",
  description: "TAP (node:test --test-reporter=tap, mocha --reporter tap, tape)",
  create: createTapParser,
};
