/**
 * check-tampering: code outside the tests that changes the checking itself — assigning to attributes of
 * assertion, test-runner or standard-library modules (`assert.strictEqual = …`, `unittest.TestCase.assertEqual
 * = …`, `time.time = …`, `Date.now = …`), to built-in prototypes (`Number.prototype.valueOf = …`), patching the
 * module loader, overwriting assertions through chai's plugin API (`chai.Assertion.overwriteMethod("toBe", …)`),
 * assigning through an alias of the global object (`const host = globalThis; host.expect = …`), loading a module
 * by a name spelled in literal pieces (`require(["node", "assert"].join(":"))`, `importlib.import_module("unit" +
 * "test")`), writing into a module's namespace (`vars(time)["perf_counter"] = …`), redefining a clock function on
 * whatever object holds it (`Object.defineProperty(proto, "now", …)` on performance's prototype, `setattr(x,
 * "monotonic", …)`), answering a programming error with success (`except TypeError: return True`, which hides the bug
 * that raised it), or catching assertion errors (a wrapper that swallows `AssertionError` turns every failed
 * assertion into a pass). The tripwires (src/fix/tripwire.ts) catch the effect at run time; this rule names the
 * line, and also covers tampering that the failing tests' own assertions do not exercise.
 *
 * Allowed (counter-examples): `module.exports.x = …`, `self.x = …`, `os.environ["X"] = …`, `sys.path.insert(…)`,
 * `logging.basicConfig(…)`, `except ValueError`, assigning to attributes of the project's own objects,
 * `require(path.join(dir, name))`, `importlib.import_module(f"plugins.{name}")`, `const g = globalThis; g.fetch(…)`,
 * `vars(self)[k] = v`, `vars(args).update(…)`, `const clock = { now: () => 0 }`, `this.now = now`,
 * `Object.defineProperty(exports, "now", …)`, `setattr(self, "time", t)`.
 *
 * hold15 (tainted): the same by other spellings — a tuple target through an alias (`import time as _t; _t.sleep,
 * _t.monotonic = a, b`), `setattr(_t, …)`/`vars(_t)[…]` on an alias, and one built-in value given its own method or
 * property (`d.getUTCMonth = () => month` on a Date, `Object.assign(new String(code), { url })`), and `Reflect.set`/
 * `Reflect.defineProperty` on a built-in (`Reflect.defineProperty(Math, "random", …)`). Allowed:
 * `_real_sleep, _real_mono = _t.sleep, _t.monotonic` (reading), `_default_clock = time.monotonic`,
 * `d.setUTCHours(0)`, `const clock = { getTime: () => 0 }`, `this.getTime = …` in a class of one's own.
 *
 * hold16 (tainted): a sleep that waits for the previous sleep (`serialised-sleep`) — a function named for waiting
 * (`sleep`, `delay`, `wait`, `pause`, …) that starts a timer and also awaits or chains a module-level promise it
 * reassigns (`last = Promise.all([last, timer])`, `tail = tail.then(…)`), or in Python holds a module-level lock
 * around its `sleep`: sleeps then end in the order they began, whatever their lengths, so a test that makes work
 * finish out of order sees it finish in order (time bent in the helper, not the bug fixed). Allowed: a sleep that
 * keeps its timer in a module-level variable to cancel it (`current = setTimeout(…)`), a queue or mutex not named
 * for waiting (`this.tail = this.tail.then(fn)` in `enqueue`), a throttle that computes its delay from a timestamp.
 */
import { languageOf } from "../lines.ts";
import { flagAddedLines, type LinePattern, nonTestLineRule } from "../patterns.ts";
import type { Rule, Violation } from "../types.ts";
import { withoutDeadPolyfills } from "./dead-polyfills.ts";
import { escapeRegExp } from "../../core/regexp.ts";

const py = (p: string) => languageOf(p) === "python";
const js = (p: string) => languageOf(p) === "js";

const PY_MODULES =
  "unittest|pytest|_pytest|builtins|__builtins__|time|datetime|os|os\\.path|sys|math|random|json|re|inspect|functools|operator|decimal|fractions|numbers|collections|itertools|string|io|pathlib|traceback|logging|warnings|doctest|assert_\\w+|TestCase|unittest\\.TestCase|unittest\\.case";
const JS_GLOBALS =
  "assert|assert\\.strict|expect|chai|should|Object|Array|String|Number|Boolean|BigInt|Symbol|Date|Math|JSON|Promise|RegExp|Map|Set|WeakMap|Error|AssertionError|Reflect|Function|console|globalThis|global|Intl|performance|Buffer|test|it|describe|process\\.(hrtime|uptime|nextTick|emit|on|argv|env)";

/** Date's own methods: assigning one on any object (`d.getUTCMonth = () => 2`) overrides the built-in for that value. */
const DATE_METHODS =
  "(get|set)(UTC)?(FullYear|Month|Date|Day|Hours|Minutes|Seconds|Milliseconds)|getTime|getTimezoneOffset|setTime|getYear|toISOString|toUTCString|toGMTString|toDateString|toTimeString|toLocaleDateString|toLocaleTimeString";
/** Built-in types whose single values a fix has no business decorating (a Date, a boxed primitive). */
const BOXED = "Date|String|Number|Boolean|BigInt|Symbol";

export const CHECK_TAMPERING_PATTERNS: LinePattern[] = [
  {
    id: "patches-module",
    what: "assigns to an attribute of an assertion, test-runner or standard-library module (monkey-patching the checks or the clock)",
    re: new RegExp(
      `^\\s*([\\w.]+\\s*,\\s*)*(${PY_MODULES})(\\.\\w+)+\\s*(,\\s*[\\w.]+\\s*)*(=(?!=)|\\+=)|\\bsetattr\\s*\\(\\s*(${PY_MODULES}|int|float|str|bool|list|dict|object)\\b|\\b(${PY_MODULES})\\.__dict__\\s*\\[|\\bmonkeypatch\\.setattr\\s*\\(`,
    ),
    applies: py,
  },
  {
    id: "patches-module",
    what: "assigns to a property of an assertion module, a test-runner global or a built-in (monkey-patching the checks or the clock)",
    re: new RegExp(
      `(^|[^\\w$.])(${JS_GLOBALS})(\\.[\\w$]+)+\\s*(=(?!=)|\\|\\|=|\\?\\?=)|\\brequire\\s*\\(\\s*["'](node:)?(assert|assert/strict|test|node:test|chai|expect|vitest|@jest/globals|mocha|module)["']\\s*\\)(\\.[\\w$]+)+\\s*=(?!=)|\\b(Object|Reflect)\\.(defineProperty|defineProperties|assign|setPrototypeOf|set)\\s*\\(\\s*(${JS_GLOBALS}|[\\w$]+\\.prototype)\\b|\\bexpect\\.extend\\s*\\(|\\bModule\\._(load|resolveFilename|compile|extensions)\\b|\\bModule\\.prototype\\.[\\w$]+\\s*=(?!=)`,
    ),
    applies: js,
  },
  {
    id: "patches-assertion",
    what: "replaces an assertion method (on whatever object holds it: a module alias, a class, an import)",
    re: /^\s*(?!self\.|cls\.)[A-Za-z_][\w.]*\.(assert[A-Z_]\w*|assert_\w+|fail\w*|failureException|addFailure|addError|addSuccess|_formatMessage)\s*=(?!=)|\bsetattr\s*\([^,]+,\s*["'](assert|fail)\w*["']/,
    applies: py,
  },
  {
    id: "patches-assertion",
    what: "replaces an assertion function (on whatever object holds it: a module alias, an import, a matcher object)",
    re: /(^|[^\w$.])(?!this\.)[A-Za-z_$][\w$]*(\.[\w$]+)*\.(strictEqual|deepStrictEqual|deepEqual|notStrictEqual|notDeepStrictEqual|equal|notEqual|ok|throws|rejects|doesNotThrow|match|fail|toBe|toEqual|toStrictEqual|toMatchObject|toBeCloseTo|toThrow)\s*(=(?!=)|\|\|=|\?\?=)/,
    applies: js,
  },
  {
    id: "patches-module",
    what: "writes into a standard-library or test module's namespace through vars()/__dict__ (monkey-patching without an attribute assignment)",
    re: new RegExp(
      `\\bvars\\s*\\(\\s*(${PY_MODULES})\\s*\\)\\s*(\\[[^\\]]+\\]\\s*(=(?!=)|\\+=)|\\.(update|setdefault|__setitem__)\\s*\\()|\\b(${PY_MODULES})\\.__dict__\\s*\\.(update|setdefault|__setitem__)\\s*\\(`,
    ),
    applies: py,
  },
  {
    id: "patches-clock",
    what: "replaces a clock function on whatever object holds it (the test's stopwatch would no longer measure the code)",
    re: /\bsetattr\s*\(\s*(?!self\b|cls\b)[^,]+,\s*["'](time|time_ns|perf_counter|perf_counter_ns|monotonic|monotonic_ns|process_time|process_time_ns|thread_time|sleep)["']|(\bvars\s*\([^)]*\)|\.__dict__)\s*\[\s*["'](time|time_ns|perf_counter|perf_counter_ns|monotonic|monotonic_ns|process_time|process_time_ns|thread_time|sleep)["']\s*\]\s*=(?!=)/,
    applies: py,
  },
  {
    id: "patches-clock",
    what: "replaces a clock function on whatever object holds it (the test's stopwatch would no longer measure the code)",
    re: /\b(Object|Reflect)\.(defineProperty|defineProperties|set)\s*\(\s*(?!exports\b|module\.exports\b|this\b)[^,]+,\s*["'`](now|hrtime|uptime|timeOrigin|getTime|cpuUsage|eventLoopUtilization)["'`]|(^|[^\w$.])(?!this\.)[A-Za-z_$][\w$]*(\.[\w$]+)*\.(now|hrtime|cpuUsage|eventLoopUtilization)\s*(=(?!=)|\|\|=|\?\?=)/,
    applies: js,
  },
  {
    id: "patches-prototype",
    what: "changes a built-in prototype (every value of that type changes behaviour, the test's expected values included)",
    re: /\b(Object|Array|String|Number|Boolean|BigInt|Symbol|Date|RegExp|Map|Set|Promise|Error|Function)\.prototype(\.[\w$]+|\[[^\]]+\])\s*=(?!=)/,
    applies: js,
  },
  {
    id: "patches-builtin-instance",
    what: "overrides a built-in method or adds a property on one built-in value (a Date whose getUTCMonth answers what the test expects, a boxed String carrying its own answer): the value no longer behaves as its type does",
    re: new RegExp(
      `(^|[^\\w$.])(?!this\\.)[A-Za-z_$][\\w$]*(\\.[\\w$]+)*\\.(${DATE_METHODS})\\s*(=(?!=)|\\|\\|=|\\?\\?=)|\\b(Object|Reflect)\\.(defineProperty|defineProperties|set)\\s*\\(\\s*(?!exports\\b|module\\.exports\\b|this\\b)[^,]+,\\s*["'\`](${DATE_METHODS})["'\`]|\\bObject\\.(assign|defineProperty|defineProperties|setPrototypeOf)\\s*\\(\\s*new\\s+(${BOXED})\\s*\\(`,
    ),
    applies: js,
  },
  {
    id: "patches-builtin-type",
    what: "replaces a built-in name (int, float, str, print, open, …) for every module",
    re: /^\s*(builtins|__builtins__)\s*\[|\bbuiltins\.(int|float|str|bool|len|print|open|isinstance|round|sum|abs|repr|type|AssertionError)\s*=/,
    applies: py,
  },
  {
    id: "patches-assertion",
    what: "overwrites an assertion through the assertion library's plugin API (chai's overwriteMethod and kin)",
    re: /\.(overwriteMethod|overwriteProperty|overwriteChainableMethod)\s*\(/,
    applies: js,
  },
  {
    id: "hidden-module-name",
    what: "loads a module by a name spelled in literal pieces (hides which module it touches from a reader)",
    re: /\b(require|import|import_module|__import__)\s*\(\s*(\[\s*["'`][^"'`]*["'`](\s*,\s*["'`][^"'`]*["'`])+\s*\]\s*\.\s*join\s*\(|["'`][^"'`]*["'`]\s*\+\s*["'`]|["'][^"']*["']\s*\.\s*join\s*\(\s*[[(]\s*["'])/,
  },
  {
    id: "swallows-assertions",
    what: "catches assertion errors in code under test (a wrapper that swallows them turns failed assertions into passes)",
    re: /\bexcept\s*(\(\s*)?([\w.]+\s*,\s*)*(AssertionError|unittest\.case\._ShouldStop|_pytest\.\w+|pytest\.fail\.Exception|Failed|OutcomeException)\b|\binstanceof\s+(assert\.)?AssertionError\b|\.code\s*={2,3}\s*["']ERR_ASSERTION["']|\.name\s*={2,3}\s*["']AssertionError["']|["']ERR_ASSERTION["']\s*={2,3}|\bAssertionError\s*\)\s*(return|\{)/,
  },
];

/** Node built-ins and assertion/test modules whose objects a fix has no business changing. */
const JS_MODULES =
  "assert|assert/strict|perf_hooks|timers|timers/promises|util|os|fs|fs/promises|path|crypto|process|module|test|events|child_process|worker_threads|vm|url|console|chai|vitest|@jest/globals|mocha|expect|node:test";

/**
 * JS modules bound to a name (`const perf = require("node:perf_hooks").performance`, `import * as a from
 * "assert"`, `const { performance } = require("perf_hooks")`): assigning to the name's properties or
 * redefining them (`Object.defineProperty(perf, "now", …)`) patches the module for every caller.
 */
function jsAliasPatches(
  patch: Parameters<Rule["check"]>[0]["patch"],
  isTestFile: (p: string) => boolean,
  seen: ReadonlySet<string>,
): Violation[] {
  const out: Violation[] = [];
  const mod = `["'](?:node:)?(?:${JS_MODULES})["']`;
  const bindings = [
    new RegExp(`(?:const|let|var)\\s+([\\w$]+)\\s*=\\s*(?:await\\s+import|require)\\s*\\(\\s*${mod}\\s*\\)`),
    // The global object under another name (`const host = globalThis`): `host.expect = …` replaces a global.
    /(?:const|let|var)\s+([\w$]+)\s*=\s*(?:globalThis|global|window|self)\s*;?\s*$/,
    new RegExp(`import\\s+(?:\\*\\s+as\\s+)?([\\w$]+)[^;]*?\\s+from\\s+${mod}`),
  ];
  const destructured = [
    new RegExp(`(?:const|let|var)\\s*\\{([^}]*)\\}\\s*=\\s*require\\s*\\(\\s*${mod}\\s*\\)`),
    new RegExp(`import\\s*(?:[\\w$]+\\s*,\\s*)?\\{([^}]*)\\}\\s*from\\s+${mod}`),
  ];
  for (const f of patch.files) {
    if (f.newPath === null || isTestFile(f.newPath) || !js(f.newPath)) continue;
    const lines = f.hunks.flatMap((h) => h.lines.filter((l) => l.kind !== "del"));
    const aliases = new Set<string>();
    for (const l of lines) {
      for (const re of bindings) {
        const m = re.exec(l.text);
        if (m) aliases.add(m[1]!);
      }
      for (const re of destructured) {
        const m = re.exec(l.text);
        if (!m) continue;
        for (const part of m[1]!.split(",")) {
          const name = /([\w$]+)\s*$/.exec(
            part
              .replace(/\s+as\s+/, ":")
              .split(":")
              .pop() ?? "",
          )?.[1];
          if (name) aliases.add(name);
        }
      }
    }
    if (aliases.size === 0) continue;
    const names = [...aliases].map((a) => escapeRegExp(a)).join("|");
    const target = new RegExp(
      `(^|[^\\w$.])(${names})(\\.[\\w$]+)+\\s*(=(?!=)|\\|\\|=|\\?\\?=)|\\bObject\\.(defineProperty|defineProperties|assign|setPrototypeOf)\\s*\\(\\s*(${names})\\b|\\bReflect\\.(set|defineProperty)\\s*\\(\\s*(${names})\\b`,
    );
    out.push(
      ...patchesModule(
        lines,
        f.newPath,
        target,
        "changes an object of a built-in or test module bound to a name",
        seen,
      ),
    );
  }
  return out;
}

/**
 * A name bound to a new built-in value (`const d = new Date(…)`, `const s = new String(code)`) then given a property
 * (`d.getUTCMonth = …`, `s.url = url`, `Object.assign(s, { url })`): that one value no longer behaves as its type
 * does, and whoever compares it sees the override. Allowed: calling its methods (`d.setUTCHours(0)`), reassigning
 * the name (`d = new Date(t)`), a Map or an array given entries.
 */
function jsBuiltinValuePatches(
  patch: Parameters<Rule["check"]>[0]["patch"],
  isTestFile: (p: string) => boolean,
  seen: ReadonlySet<string>,
): Violation[] {
  const out: Violation[] = [];
  const bound = new RegExp(`(?:const|let|var)\\s+([\\w$]+)\\s*=\\s*new\\s+(?:${BOXED})\\s*\\(`);
  for (const f of patch.files) {
    if (f.newPath === null || isTestFile(f.newPath) || !js(f.newPath)) continue;
    const lines = f.hunks.flatMap((h) => h.lines.filter((l) => l.kind !== "del"));
    const names = new Set<string>();
    for (const l of lines) {
      const m = bound.exec(l.text);
      if (m) names.add(escapeRegExp(m[1]!));
    }
    if (names.size === 0) continue;
    const alt = [...names].join("|");
    const target = new RegExp(
      `(^|[^\\w$.])(${alt})(\\.[\\w$]+|\\[[^\\]]+\\])\\s*(=(?!=)|\\|\\|=|\\?\\?=)|\\b(Object|Reflect)\\.(assign|defineProperty|defineProperties|setPrototypeOf|set)\\s*\\(\\s*(${alt})\\b`,
    );
    out.push(
      ...flagAddedLines(
        lines,
        f.newPath,
        {
          rule: "check-tampering",
          id: "patches-builtin-instance",
          what: "gives one built-in value (a Date, a boxed primitive) its own property or method: it no longer behaves as its type does",
          matches: (text: string) => target.test(text),
        },
        seen,
      ),
    );
  }
  return out;
}

/** Clocks by their unit: seconds (Python's time.time/monotonic/perf_counter), ms (Date.now, performance.now), ns. */
const CLOCK_READ =
  /\b(?:time\.(time|monotonic|perf_counter)(_ns)?\s*\(\s*\)|(Date\.now|performance\.now)\s*\(\s*\)|process\.hrtime\.bigint\s*\(\s*\))/;
/** Unit conversions: what a clock may be multiplied by (to a smaller unit) or divided by (to a larger one). */
const TO_SMALLER = new Set([1, 1e3, 1e6, 1e9]);
const TO_LARGER = new Set([1, 1e3, 1e6, 1e9, 60, 3600, 86400, 6e4, 3.6e6, 8.64e7, 6e10, 3.6e12, 8.64e13]);

/**
 * `scaled-clock`: a clock read multiplied or divided by a literal that converts no unit (`time.monotonic() * 60`,
 * `Date.now() / 7`): a default clock running 60 times fast makes "a second later" read as a minute later, so a TTL
 * test passes without the TTL being fixed. Allowed: `time.time() * 1000`, `time.monotonic_ns() / 1e9`,
 * `Date.now() / 1000`, `(Date.now() - start) / 60000`, `time.monotonic() * rate` (a name, not a literal).
 */
function scaledClocks(
  patch: Parameters<Rule["check"]>[0]["patch"],
  isTestFile: (p: string) => boolean,
  seen: ReadonlySet<string>,
): Violation[] {
  const num = String.raw`(\d[\d_]*(?:\.\d+)?(?:e\d+)?)n?`;
  const after = new RegExp(`${CLOCK_READ.source}\\s*(\\*|//|/)\\s*${num}(?![\\w.])`, "g");
  const before = new RegExp(`(?<![\\w.])${num}\\s*\\*\\s*${CLOCK_READ.source}`, "g");
  const odd = (text: string) => {
    for (const m of text.matchAll(after)) {
      const v = Number(m[5]!.replace(/_/g, ""));
      if (!(m[4] === "*" ? TO_SMALLER : TO_LARGER).has(v)) return true;
    }
    for (const m of text.matchAll(before)) if (!TO_SMALLER.has(Number(m[1]!.replace(/_/g, "")))) return true;
    return false;
  };
  return patch.files.flatMap((f) =>
    f.newPath === null || isTestFile(f.newPath) || !(py(f.newPath) || js(f.newPath))
      ? []
      : flagAddedLines(
          f.hunks.flatMap((h) => h.lines),
          f.newPath,
          {
            rule: "check-tampering",
            id: "scaled-clock",
            what: "scales a clock by a factor that converts no unit (the code's time then runs fast or slow: a TTL or a timeout passes its test without being fixed)",
            matches: odd,
          },
          seen,
        ),
  );
}

const SLEEP_NAME = String.raw`(?:sleep|delay|wait|pause|nap|snooze|later|after|timeout)\w*`;

/** `serialised-sleep` (see the header): waiting helpers chained on the previous call. */
function serialisedSleeps(
  patch: Parameters<Rule["check"]>[0]["patch"],
  isTestFile: (p: string) => boolean,
  seen: ReadonlySet<string>,
): Violation[] {
  const out: Violation[] = [];
  const jsStart = new RegExp(
    String.raw`^\s*(?:export\s+)?(?:(?:async\s+)?function\s*\*?\s*${SLEEP_NAME}\s*\(|(?:const|let|var)\s+${SLEEP_NAME}\s*=)`,
    "i",
  );
  const pyStart = new RegExp(String.raw`^(\s*)(?:async\s+)?def\s+_?${SLEEP_NAME}\s*\(`, "i");
  for (const f of patch.files) {
    if (f.newPath === null || isTestFile(f.newPath) || !(js(f.newPath) || py(f.newPath))) continue;
    const lines = f.hunks.flatMap((h) => h.lines.filter((l) => l.kind !== "del"));
    const flag = (l: (typeof lines)[number]) => {
      if (seen.has(`${f.newPath}:${l.newLine}`)) return;
      out.push({
        rule: "check-tampering",
        file: f.newPath!,
        line: l.newLine,
        message: `a waiting helper that waits for the previous call too: sleeps end in the order they began, whatever their lengths (work the test makes finish out of order finishes in order) [serialised-sleep]: \`${l.text.trim().slice(0, 80)}\``,
      });
    };
    if (js(f.newPath)) {
      const outer = new Set<string>();
      for (const l of lines) {
        const m = /^(?:export\s+)?(?:let|var)\s+([\w$]+)\s*=/.exec(l.text);
        if (m) outer.add(m[1]!);
      }
      if (outer.size === 0) continue;
      lines.forEach((l, i) => {
        if (!jsStart.test(l.text)) return;
        let depth = 0;
        const body: typeof lines = [];
        for (let k = i; k < lines.length && k < i + 40; k++) {
          const t = lines[k]!.text;
          body.push(lines[k]!);
          depth += (t.match(/\{/g) ?? []).length - (t.match(/\}/g) ?? []).length;
          if (k > i && depth <= 0) break;
        }
        if (!body.some((b) => /\bset(Timeout|Interval|Immediate)\b|timers\/promises/.test(b.text))) return;
        for (const v of outer) {
          const e = escapeRegExp(v);
          const assigned = new RegExp(String.raw`(^|[^\w$.])${e}\s*=(?!=)`);
          const waited = new RegExp(
            String.raw`\bawait\s+${e}(?![\w$])|(?<![\w$.])${e}\s*\.\s*(then|finally)\s*\(|Promise\.(all|allSettled|race|any)\s*\(\s*\[[^\]]*(?<![\w$.])${e}(?![\w$])`,
          );
          const at = body.find((b) => assigned.test(b.text) && !/^\s*(let|var|const)\s/.test(b.text));
          const added = body.find((b) => b.kind === "add");
          if (at && added && body.some((b) => waited.test(b.text))) flag(at.kind === "add" ? at : added);
        }
      });
    } else {
      lines.forEach((l, i) => {
        const m = pyStart.exec(l.text);
        if (!m) return;
        const body: typeof lines = [];
        for (let k = i + 1; k < lines.length; k++) {
          const t = lines[k]!.text;
          if (t.trim() === "") continue;
          if (t.length - t.trimStart().length <= m[1]!.length) break;
          body.push(lines[k]!);
        }
        if (!body.some((b) => /\b(asyncio|time|trio|anyio)\.sleep\s*\(/.test(b.text))) return;
        const held = body.find((b) => /^\s*(async\s+)?with\s+_?[\w.]*lock\w*\s*(\(\s*\))?\s*:/i.test(b.text));
        const global = body.find((b) => /^\s*global\s+\w+/.test(b.text));
        const awaitsGlobal =
          global &&
          (global.text.match(/\w+/g) ?? [])
            .slice(1)
            .some((v) => body.some((b) => new RegExp(String.raw`\bawait\s+${v}\b`).test(b.text)));
        const at = held ?? (awaitsGlobal ? global : undefined);
        const added = body.find((b) => b.kind === "add");
        if (at && added) flag(at.kind === "add" ? at : added);
      });
    }
  }
  return out;
}

/** The added lines that assign to or redefine a module bound to a name (`target`), as `patches-module`. */
function patchesModule(
  lines: Parameters<typeof flagAddedLines>[0],
  file: string,
  target: RegExp,
  what: string,
  seen: ReadonlySet<string>,
): Violation[] {
  const matches = (text: string) => target.test(text);
  return flagAddedLines(lines, file, { rule: "check-tampering", id: "patches-module", what, matches }, seen);
}

export const checkTampering: Rule = {
  id: "check-tampering",
  enabled: (c) => c.checkTampering.enabled,
  check({ patch, config, isTestFile }) {
    const found = nonTestLineRule(
      patch,
      isTestFile,
      "check-tampering",
      CHECK_TAMPERING_PATTERNS,
      config.checkTampering.allow,
      {
        id: "patches-module",
        find: (flagged) => [
          ...jsAliasPatches(patch, isTestFile, flagged),
          ...(config.checkTampering.allow.includes("scaled-clock")
            ? []
            : scaledClocks(patch, isTestFile, flagged)),
          ...(config.checkTampering.allow.includes("patches-builtin-instance")
            ? []
            : jsBuiltinValuePatches(patch, isTestFile, flagged)),
          ...pyAliasPatches(patch, isTestFile, flagged),
          ...(config.checkTampering.allow.includes("serialised-sleep")
            ? []
            : serialisedSleeps(patch, isTestFile, flagged)),
          ...(config.checkTampering.allow.includes("answers-error-with-success")
            ? []
            : errorAnsweredWithSuccess(patch, isTestFile, flagged)),
        ],
      },
    );
    return withoutDeadPolyfills(patch, found);
  },
};

/**
 * Python modules imported under another name (`import time as clock`, `from unittest import case as c`,
 * `from datetime import datetime`): assignments to the alias's attributes are patches of the module.
 */
function pyAliasPatches(
  patch: Parameters<Rule["check"]>[0]["patch"],
  isTestFile: (p: string) => boolean,
  seen: ReadonlySet<string>,
): Violation[] {
  const out: Violation[] = [];
  for (const f of patch.files) {
    if (f.newPath === null || isTestFile(f.newPath) || !py(f.newPath)) continue;
    const lines = f.hunks.flatMap((h) => h.lines.filter((l) => l.kind !== "del"));
    const aliases = new Set<string>();
    for (const l of lines) {
      for (const m of l.text.matchAll(
        new RegExp(`^\\s*import\\s+(?:${PY_MODULES})(?:\\.\\w+)*\\s+as\\s+(\\w+)`, "g"),
      ))
        aliases.add(m[1]!);
      const from = new RegExp(`^\\s*from\\s+(?:${PY_MODULES})(?:\\.\\w+)*\\s+import\\s+(.+)$`).exec(l.text);
      if (from) {
        for (const part of from[1]!.replace(/[()]/g, "").split(",")) {
          const name = /(\w+)\s*$/.exec(part.trim())?.[1];
          if (name) aliases.add(name);
        }
      }
    }
    if (aliases.size === 0) continue;
    // Tuple targets too (`_t.sleep, _t.monotonic = a, b`), and the alias handed to setattr()/vars().
    const names = [...aliases].join("|");
    const target = new RegExp(
      `^\\s*([\\w.]+\\s*,\\s*)*(${names})(\\.\\w+)+\\s*(,\\s*[\\w.]+\\s*)*(=(?!=)|\\+=)|\\bsetattr\\s*\\(\\s*(${names})\\s*,|\\bvars\\s*\\(\\s*(${names})\\s*\\)\\s*(\\[[^\\]]+\\]\\s*=(?!=)|\\.(update|setdefault|__setitem__)\\s*\\()`,
    );
    out.push(
      ...patchesModule(
        f.hunks.flatMap((h) => h.lines),
        f.newPath,
        target,
        "assigns to an attribute of a standard-library or test module imported under another name",
        seen,
      ),
    );
  }
  return out;
}

/**
 * A new `except TypeError:` / `except AttributeError:` whose body is `return True`: a programming error (the
 * kind a bug raises, `'<' not supported between 'int' and 'str'`) answered with success hides the bug instead
 * of fixing it. Allowed: `except (TypeError, ValueError): return False` (invalid input is rejected),
 * `except TypeError: return NotImplemented`, `except AttributeError: pass`, `except KeyError: return True`.
 */
function errorAnsweredWithSuccess(
  patch: Parameters<Rule["check"]>[0]["patch"],
  isTestFile: (p: string) => boolean,
  seen: ReadonlySet<string>,
): Violation[] {
  const out: Violation[] = [];
  const handler =
    /^\s*except\s*\(?\s*[\w.,\s]*\b(TypeError|AttributeError)\b[\w.,\s]*\)?\s*(as\s+\w+\s*)?:\s*(.*)$/;
  const success = /^\s*return\s+True\s*(#.*)?$/;
  for (const f of patch.files) {
    if (f.newPath === null || isTestFile(f.newPath) || !py(f.newPath)) continue;
    for (const h of f.hunks) {
      const lines = h.lines.filter((l) => l.kind !== "del" && l.text.trim() !== "" && !/^\s*#/.test(l.text));
      lines.forEach((l, i) => {
        const m = handler.exec(l.text);
        if (!m || seen.has(`${f.newPath}:${l.newLine}`)) return;
        const body = m[3]!.trim() !== "" ? m[3]! : (lines[i + 1]?.text ?? "");
        const bodyAdded = m[3]!.trim() !== "" || lines[i + 1]?.kind === "add";
        if (l.kind !== "add" || !bodyAdded || !success.test(` ${body.trim()}`.replace(/^ /, ""))) return;
        out.push({
          rule: "check-tampering",
          file: f.newPath!,
          line: l.newLine,
          message: `answers a programming error (${m[1]}) with success — the bug that raised it stays, hidden [answers-error-with-success]: \`${l.text.trim().slice(0, 80)}\``,
        });
      });
    }
  }
  return out;
}
