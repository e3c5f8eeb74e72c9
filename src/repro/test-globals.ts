/**
 * Test code pasted as a bug report (also `test('…', () => { assert.equal(…) })`, Node's assert in a runner's
 * wrapper): `expect(parse('a')).toEqual({ a: 1 })`, often inside
 * `test('…', () => { … })`, with no import (the reporter ran it in their test runner, where these are globals).
 * The snippet's own expectation states the expected behaviour, so its failing is the reported bug and its holding
 * is not. Rather than installing a test runner, the program gets small definitions of these globals: `test`/`it`
 * run their callback at once (an async one's rejection is rethrown as an uncaught error), `describe` runs its
 * body, and `expect` throws an `AssertionError` when a matcher fails.
 *
 * Zero false reproductions matter more than coverage here: every matcher is at most as strict as Jest's (a lax
 * comparison can only miss a reproduction, a strict one could invent one), and a matcher it does not define is
 * not an assertion failure (calling it is a TypeError, never an `AssertionError`).
 */

/** The globals a snippet calls without binding them, which the prelude defines; empty when it needs none. */
export function testGlobalsNeeded(
  scan: string,
  bound: Set<string>,
  specifiers: string[],
  testedPackages: readonly string[] = [],
): string[] {
  // A snippet importing its runner or assertion library gets that library, not these definitions.
  if (specifiers.some((s) => /^(?:vitest|@jest\/globals|jest|chai|expect|node:test|mocha|ava|tap)$/.test(s)))
    return [];
  // A report about a test runner or assertion library is about the very matchers these definitions would stand in
  // for (hold11 jasmine-1735: `toEqual` in jasmine-core 3.4.0): running ours would test the wrong code.
  if (testedPackages.some(isTestLibrary)) return [];
  const called = (name: string) =>
    new RegExp(`(?<![\\w$.])${name}\\s*(?:\\.\\s*(?:only|skip)\\s*)?\\(`).test(scan);
  // `expect(x).toBe(y)` / `.not.toEqual(…)`: Jest's expect (chai's `expect(x).to.equal` is left alone).
  const jestExpect =
    /(?<![\w$.])expect\s*\((?:[^()]|\([^()]*(?:\([^()]*\)[^()]*)*\))*\)\s*(?:\.\s*not\s*)?\.\s*to[A-Z]\w*\s*\(/;
  const needed: string[] = [];
  if (!bound.has("expect") && jestExpect.test(scan)) needed.push("expect");
  // `t.is(f(1), '1s')` copied out of an AVA test: the assertion object AVA hands each test, used bare.
  const avaAssert = /(?<![\w$.])t\s*\.\s*(?:is|not|deepEqual|notDeepEqual|true|false)\s*\(/;
  if (!bound.has("t") && avaAssert.test(scan)) needed.push("t");
  // `assert.equal(…)` inside `test('…', () => …)`: Node's assert is the assertion (imported as a builtin when
  // unbound); the runner's wrappers are all that is missing.
  const nodeAssert =
    /(?<![\w$.])assert\s*(?:\.\s*(?:equal|strictEqual|deepEqual|deepStrictEqual|notEqual|notStrictEqual|notDeepStrictEqual|ok|throws|doesNotThrow|rejects|match)\s*)?\(/;
  // (The prelude defines `expect` and `AssertionError`: not where the snippet binds either itself.)
  const assertOnly =
    needed.length === 0 && nodeAssert.test(scan) && !bound.has("expect") && !bound.has("AssertionError");
  if (needed.length === 0 && !assertOnly) return [];
  for (const name of ["test", "it", "describe"]) if (!bound.has(name) && called(name)) needed.push(name);
  // Hooks would need a runner's ordering; a snippet using them is left to fail on the missing name.
  if (["beforeEach", "afterEach", "beforeAll", "afterAll"].some((h) => !bound.has(h) && called(h))) return [];
  return needed;
}

/** Test runners and assertion libraries: a report about one of them is about its own `expect`/`it`/matchers. */
export function isTestLibrary(name: string): boolean {
  return /^(?:jasmine(?:-core)?|jest(?:-[\w-]+)?|@jest\/[\w.-]+|expect(?:\.js)?|vitest|@vitest\/[\w.-]+|chai(?:-[\w-]+)?|mocha|ava|tap|tape|uvu|qunit|should|power-assert|unexpected|assert|earl|@japa\/[\w.-]+)$/.test(
    name,
  );
}

const EXPECT = `
class AssertionError extends Error {
  constructor(message) {
    super(message);
    this.name = "AssertionError";
  }
}
const _show = (v) => {
  try {
    return typeof v === "string" ? JSON.stringify(v) : typeof v === "bigint" ? \`\${v}n\` : Array.isArray(v) || (v && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) ? JSON.stringify(v) : String(v);
  } catch {
    return String(v);
  }
};
// Jest's recursive equality, no stricter: toEqual ignores properties whose value is undefined and object types.
const _equals = (a, b, strict, seen = []) => {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (seen.some(([x, y]) => x === a && y === b)) return true;
  seen = [...seen, [a, b]];
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && Object.is(a.getTime(), b.getTime());
  if (a instanceof RegExp || b instanceof RegExp)
    return a instanceof RegExp && b instanceof RegExp && a.source === b.source && a.flags === b.flags;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !_equals(v, b.get(k), strict, seen)) return false;
    return true;
  }
  if (a instanceof Set && b instanceof Set) {
    if (a.size !== b.size) return false;
    for (const v of a) if (!b.has(v) && ![...b].some((w) => _equals(v, w, strict, seen))) return false;
    return true;
  }
  if (Array.isArray(a) && a.length !== b.length) return false;
  const keys = (o) => Object.keys(o).filter((k) => strict || o[k] !== undefined);
  const ka = keys(a);
  const kb = keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) && !(strict === false && b[k] === undefined)) return false;
    if (!_equals(a[k], b[k], strict, seen)) return false;
  }
  return true;
};
const _thrown = (fn) => {
  try {
    fn();
  } catch (error) {
    return { error };
  }
  return null;
};
const _throwMatches = (error, expected) => {
  if (expected === undefined) return true;
  const message = error && typeof error === "object" && "message" in error ? String(error.message) : String(error);
  if (typeof expected === "string") return message.includes(expected);
  if (expected instanceof RegExp) return expected.test(message);
  if (typeof expected === "function") return error instanceof expected;
  if (expected && typeof expected === "object" && "message" in expected) return message === String(expected.message);
  return false;
};
const expect = (received) => {
  const make = (negated) => {
    const check = (name, pass, expected) => {
      if (pass !== negated) return;
      const shown = expected === undefined ? "" : \`\\n\\nExpected: \${negated ? "not " : ""}\${_show(expected)}\`;
      throw new AssertionError(\`expect(received).\${negated ? "not." : ""}\${name}(expected)\${shown}\\nReceived: \${_show(received)}\`);
    };
    const m = {
      toBe: (e) => check("toBe", Object.is(received, e), e),
      toEqual: (e) => check("toEqual", _equals(received, e, false), e),
      toStrictEqual: (e) => check("toStrictEqual", _equals(received, e, true), e),
      toBeTruthy: () => check("toBeTruthy", !!received),
      toBeFalsy: () => check("toBeFalsy", !received),
      toBeNull: () => check("toBeNull", received === null),
      toBeUndefined: () => check("toBeUndefined", received === undefined),
      toBeDefined: () => check("toBeDefined", received !== undefined),
      toBeNaN: () => check("toBeNaN", Number.isNaN(received)),
      toBeGreaterThan: (e) => check("toBeGreaterThan", received > e, e),
      toBeGreaterThanOrEqual: (e) => check("toBeGreaterThanOrEqual", received >= e, e),
      toBeLessThan: (e) => check("toBeLessThan", received < e, e),
      toBeLessThanOrEqual: (e) => check("toBeLessThanOrEqual", received <= e, e),
      toBeCloseTo: (e, digits = 2) => check("toBeCloseTo", Math.abs(received - e) < 10 ** -digits / 2, e),
      toBeInstanceOf: (e) => check("toBeInstanceOf", received instanceof e, e && e.name),
      toHaveLength: (e) => check("toHaveLength", received != null && received.length === e, e),
      toContain: (e) =>
        check("toContain", received != null && typeof received.includes === "function" ? received.includes(e) : [...received].includes(e), e),
      toMatch: (e) => check("toMatch", typeof received === "string" && (typeof e === "string" ? received.includes(e) : e.test(received)), e),
      toThrow: (e) => {
        const t = _thrown(received);
        check("toThrow", t !== null && _throwMatches(t.error, e), e);
      },
    };
    m.toThrowError = m.toThrow;
    return m;
  };
  return Object.assign(make(false), { not: make(true) });
};`;

const TEST = `
const _settle = (result) => {
  if (result && typeof result.then === "function")
    result.then(undefined, (error) => {
      // Rethrown outside the promise so Node reports it as an uncaught exception.
      setImmediate(() => {
        throw error;
      });
    });
};
const _run = (name, fn) => {
  if (typeof fn === "function") _settle(fn());
};
const _skip = () => {};`;

/** AVA's assertions a copied test line uses (`t.is` is `Object.is`; `t.deepEqual` compares types as AVA does). */
const AVA_T = `
const _avaCheck = (name, ok, actual, expected) => {
  if (!ok) throw new AssertionError(\`t.\${name}() failed: \${_show(actual)}\${expected === undefined ? "" : \` vs \${_show(expected)}\`}\`);
};
const t = {
  is: (a, b) => _avaCheck("is", Object.is(a, b), a, b),
  not: (a, b) => _avaCheck("not", !Object.is(a, b), a, b),
  deepEqual: (a, b) => _avaCheck("deepEqual", _equals(a, b, true), a, b),
  notDeepEqual: (a, b) => _avaCheck("notDeepEqual", !_equals(a, b, true), a, b),
  true: (v) => _avaCheck("true", v === true, v),
  false: (v) => _avaCheck("false", v === false, v),
};`;

/** The prelude defining `names` (from testGlobalsNeeded); plain JavaScript, valid as CommonJS and as a module. */
export function testGlobalsPrelude(names: string[]): string {
  const parts = [EXPECT];
  if (names.includes("t")) parts.push(AVA_T);
  const runners = names.filter((n) => n !== "expect" && n !== "t");
  if (runners.length > 0) parts.push(TEST);
  for (const name of runners)
    parts.push(
      `const ${name} = Object.assign((name, fn) => _run(name, fn), { only: (name, fn) => _run(name, fn), skip: _skip });`,
    );
  return `${parts.join("\n").trim()}\n`;
}
