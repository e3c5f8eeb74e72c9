/**
 * npm failures: consecutive `npm ERR!` (npm ≤ 9) or `npm error` (npm ≥ 10) lines form one failure,
 * its `code` line giving the error type. Install problems (ERESOLVE, E404, ETARGET, EINTEGRITY,
 * ENOTCACHED, …) are `install` failures; a failed lifecycle script is only a consequence of the
 * real failure above it, so it is kept only when nothing else failed. A failed TEST script (`npm test`, `test:unit`, a
 * script running a test runner; npm 6's `Test failed.  See above for more details.`) is the test run's exit status: it
 * makes the log red and names nothing, so it is never a failure of its own (`sink.unnamed()`); the runner's output above
 * names the failing tests, or nothing does. A script that a failed test script runs (`test: npm run format:check && jest`,
 * its `format:check` failing first) failed as a step of the test run: unnamed too. npm's pointer to its debug log alone
 * (or the start of it, where a paste was cut) is no failure either.
 */
import { escapeRegExp } from "../../core/regexp.ts";
import { BlockBuffer, type FailureDraft, type FormatDefinition, type ParserSink } from "../parser.ts";

const LINE = /^npm (?:ERR!|error)(?: (.*))?$/;
const NOISE =
  /^(A complete log of this run can be found in|Please include the following file with any support request|.*npm-debug\.log$|For a full report see|Log files were not written|You can rerun the command with|\/\S+\.(?:log|txt)$|[A-Za-z]:\\\S+\.(?:log|txt)$)/;
const SCRIPT =
  /^(?:code ELIFECYCLE|errno \d+|Lifecycle script .* failed|Exit status \d+|Failed at the .* script|command failed|path |workspace |location |command sh -c|signal |This is probably not a problem with npm|Test failed\. {2}See above|\S+@\S+ \S+: `)/;

/** The start of npm's pointer to its debug log, cut by the end of a pasted log (at least `A complete`). */
function isCutPointer(l: string): boolean {
  const whole = "A complete log of this run can be found in";
  return l.length >= 10 && whole.startsWith(l);
}

/** A script that runs tests, by its name (`test`, `test:unit`, `e2e`, `coverage`). */
const TEST_SCRIPT = /^(?:test|tests|spec|specs|e2e|unit|integration|coverage|cover)(?:[:._-]\S*)?$/i;
/** A command that runs a test runner (`jest --ci`, `nyc mocha`, `ava test.js`, `node --test`). */
const TEST_COMMAND =
  /(?:^|[\s/&;|(])(?:jest|vitest|mocha|ava|tap|tape|jasmine|karma|nyc|c8|playwright|cypress|ng test|node --test|npm run test\S*)(?:$|[\s;&|)])/;
/** npm's header of a script it runs: `> pkg@1.0.0 test /path` (npm ≤ 6) or `> pkg@1.0.0 test` then `> jest` (npm ≥ 7). */
const HEADER = /^> (\S+@\S+) (\S+)(?: .*)?$/;

/** The script a lifecycle block says failed, and its command, from npm's own lines. */
function failedScript(lines: readonly string[]): { script: string | null; command: string | null } {
  for (const l of lines) {
    const m =
      /^\S+@\S+ (\S+): `(.*)`$/.exec(l) ??
      /^Lifecycle script `([^`]+)` failed/.exec(l) ??
      /^Failed at the \S+@\S+ (\S+) script/.exec(l);
    if (m)
      return {
        script: m[1]!,
        command: m[2] ?? lines.map((x) => /^command sh -c (.*)$/.exec(x)?.[1]).find((c) => c) ?? null,
      };
  }
  return {
    script: null,
    command: lines.map((x) => /^command sh -c (.*)$/.exec(x)?.[1]).find((c) => c) ?? null,
  };
}

export function createNpmParser(sink: ParserSink) {
  let block: { code: string | null; lines: string[]; buf: BlockBuffer } | null = null;
  /** The script of npm's latest `> pkg@x script` header: npm ≥ 7 names no script in a top-level script's error. */
  let headerScript: string | null = null;
  /** The commands of failed test scripts (`npm run format:check && npm run test:unit`). */
  const testCommands: string[] = [];
  /** Failed scripts that are not test scripts, reported at the end unless a failed test script ran them. */
  const heldScripts: { script: string; draft: FailureDraft }[] = [];

  /**
   * A script a failed test script's command runs (`npm run format:check` in `test: npm run format:check && jest`)
   * failed as a step of the test run: it is the test run's exit status, named by nothing (as a lint step written
   * in the test script itself is).
   */
  function ranByTestScript(script: string): boolean {
    const esc = escapeRegExp(script);
    const run = new RegExp(`(?:^|[\\s;&|(])(?:npm|pnpm|yarn) +(?:run(?:-script)? +)?${esc}(?:$|[\\s;&|)])`);
    return testCommands.some((c) => run.test(c));
  }

  function flush(): void {
    if (!block) return;
    const b = block;
    block = null;
    const meaningful = b.lines.filter((l) => !NOISE.test(l.trim()) && !/^(code|errno|syscall|path) /.test(l));
    const lifecycle =
      b.code === "ELIFECYCLE" ||
      b.lines.some((l) => /^Lifecycle script .* failed|^command failed$|^Test failed\. {2}See above/.test(l));
    // The first paragraph says what went wrong; when it is one line, the next one says why.
    if (lifecycle) {
      const { script, command } = failedScript(b.lines);
      const name = script ?? headerScript;
      const testRun =
        b.lines.some((l) => /^Test failed\. {2}See above/.test(l)) ||
        (name !== null && TEST_SCRIPT.test(name)) ||
        (command !== null && TEST_COMMAND.test(command));
      if (testRun) {
        if (command !== null && testCommands.length < 100) testCommands.push(command);
        sink.unnamed();
        return;
      }
    }
    // npm's pointer to its debug log, cut off from the block it closed: nothing went wrong in it. A log cut inside
    // that pointer (`npm ERR! A complete log of this r`) leaves a start of it: no failure either.
    if (b.code === null && meaningful.every((l) => l.trim() === "" || isCutPointer(l.trim()))) return;
    const paragraphs: string[][] = [[]];
    for (const l of meaningful) {
      if (l.trim() === "") {
        if (paragraphs[paragraphs.length - 1]!.length > 0) paragraphs.push([]);
      } else paragraphs[paragraphs.length - 1]!.push(l);
    }
    const [p1 = [], p2 = []] = paragraphs.filter((p) => p.length > 0);
    const message = (p1.length === 1 ? [...p1, ...p2] : p1).slice(0, 12).join("\n") || b.code || "npm failed";
    const path = b.lines.map((l) => /^path (\S+)/.exec(l)?.[1]).find((p) => p);
    const draft: FailureDraft = {
      category: lifecycle ? "build" : "install",
      file: b.code === "ENOENT" && path ? sink.path(path) : null,
      errorType: b.code,
      message,
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
      secondary: lifecycle || meaningful.every((l) => l.trim() === "" || SCRIPT.test(l)),
    };
    // A failed script is held to the end: a failed test script printed later may be the one that ran it.
    const script = lifecycle ? (failedScript(b.lines).script ?? headerScript) : null;
    if (script !== null) {
      if (heldScripts.length < 100) heldScripts.push({ script, draft });
    } else sink.failure(draft);
  }

  return {
    line(text: string, lineNo: number): boolean {
      const m = LINE.exec(text);
      if (!m) {
        flush();
        const h = HEADER.exec(text);
        if (h) headerScript = h[2]!;
        return false;
      }
      const content = m[1] ?? "";
      if (!block) block = { code: null, lines: [], buf: new BlockBuffer(80, 8_000) };
      block.buf.push(text, lineNo);
      const code = /^code (\w+)$/.exec(content);
      if (code && !block.code) block.code = code[1]!;
      if (block.lines.length < 200) block.lines.push(content);
      return true;
    },
    end(): void {
      flush();
      for (const h of heldScripts) {
        if (ranByTestScript(h.script)) sink.unnamed();
        else sink.failure(h.draft);
      }
    },
  };
}

export const npmFormat: FormatDefinition = {
  name: "npm",
  description: "npm ERR! / npm error blocks (install failures, failed scripts)",
  create: createNpmParser,
};
