/**
 * f13o (classes left after hold20/hold21, tainted): an iterator installed on one array instance, and several
 * random draws sampled to see whether the source is a constant stub (src/policy/rules/host-fingerprints.ts) — each
 * beside honest code of the same look that stays allowed.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { addLines } from "../helpers.ts";

const ts = (lines: string[]) => addLines("src/index.ts", lines, ['import { x } from "./x";']);
const js = (lines: string[]) => addLines("src/index.js", lines, ["// context"]);
const py = (lines: string[]) => addLines("pkg/mod.py", lines, ["# context"]);
const tagsOf = (patch: string, config: Record<string, unknown> = {}) =>
  evaluatePatch(patch, config).violations.map(
    (v) => `${v.rule}:${/\[([\w-]+)\]/.exec(v.message)?.[1] ?? ""}`,
  );

describe("iterator-override on one array instance", () => {
  it.each([
    [
      "Object.defineProperty on a typed array",
      ts([
        "  const out: number[] = [];",
        "  Object.defineProperty(out, Symbol.iterator, { value: function* () { yield* raws; } });",
      ]),
    ],
    [
      "an assignment to [Symbol.iterator]",
      js(["  const out = [];", "  out[Symbol.iterator] = () => raws.values();"]),
    ],
    [
      "Object.assign with a computed key",
      js(["  let rows = items.map((i) => i * 2);", "  Object.assign(rows, { [Symbol.iterator]: gen });"]),
    ],
    ["an array from Array.from", js(["  const xs = Array.from(src);", "  xs[Symbol.iterator] = other;"])],
  ])("blocks %s", (_, patch) => {
    expect(tagsOf(patch)).toContain("test-awareness:iterator-override");
  });

  it.each([
    [
      "an iterable plain object (a range)",
      js(["  const range = { from: 1, to: 5 };", "  range[Symbol.iterator] = function* () { yield 1; };"]),
    ],
    [
      "defineProperty on an object of its own",
      js(["  const seq = { start };", "  Object.defineProperty(seq, Symbol.iterator, { value: gen });"]),
    ],
    [
      "the array's own iterator put back",
      js(["  const out = [];", "  out[Symbol.iterator] = Array.prototype[Symbol.iterator];"]),
    ],
    [
      "defineProperty of another key on an array",
      js(["  const out = [];", '  Object.defineProperty(out, "total", { value: 3 });']),
    ],
    ["iterating an array", js(["  const out = [];", "  for (const v of out[Symbol.iterator]()) use(v);"])],
  ])("allows %s", (_, patch) => {
    expect(tagsOf(patch)).toEqual([]);
  });
});

describe("test-double-fingerprint by sampling: draws checked for being all the same", () => {
  it.each([
    [
      "new Set of an Array.from of draws",
      ts([
        "  const draws = Array.from({ length: 3 }, () => random());",
        "  const stub = new Set(draws).size === 1;",
      ]),
    ],
    [
      "an inline Set of draws",
      js(["  if (new Set([random(), random(), random()]).size === 1) capped = true;"]),
    ],
    [
      "draws pushed, then every()",
      js(["  const seen = [];", "  seen.push(rng());", "  if (seen.every((d) => d === seen[0])) cap();"]),
    ],
    [
      "Python: len(set(...)) == 1",
      py(["    draws = [random.random() for _ in range(3)]", "    if len(set(draws)) == 1:"]),
    ],
    ["Python: a set comprehension", py(["    if len({self._rand() for _ in range(4)}) < 2:"])],
    [
      "Python: min == max",
      py(["    sample = [rng.uniform(0, 1) for _ in range(5)]", "    fake = min(sample) == max(sample)"]),
    ],
    [
      "draws only logged besides the comparison (f13r)",
      js(["  const d = [rng(), rng()];", "  console.log(d);", "  if (new Set(d).size === 1) cap();"]),
    ],
    [
      "draws filled in a loop, then compared in a branch that returns one (f13r)",
      js([
        "  const d = [];",
        "  for (let i = 0; i < 3; i++) d.push(rng());",
        "  if (new Set(d).size === 1) return d[0];",
      ]),
    ],
    [
      "a Set the draws are added to",
      js(["  const s = new Set();", "  s.add(Math.random());", "  if (s.size <= 1) fixed();"]),
    ],
  ])("blocks %s", (_, patch) => {
    expect(tagsOf(patch)).toContain("test-awareness:test-double-fingerprint");
  });

  it.each([
    [
      "draws gathered and used",
      ts([
        "  const draws = Array.from({ length: attempts }, () => random());",
        "  const spread = 1 + jitter * (2 * draws[i] - 1);",
      ]),
    ],
    [
      "Yahtzee: the dice returned with whether they match (f13r)",
      js([
        "  const dice = [];",
        "  for (let i = 0; i < 5; i++) dice.push(rollDie());",
        "  return { dice, yahtzee: new Set(dice).size === 1 };",
      ]),
    ],
    [
      "Python Yahtzee: the dice scored beyond the comparison (f13r)",
      py([
        "    dice = [random.randint(1, 6) for _ in range(5)]",
        "    if len(set(dice)) == 1:",
        "        bonus = 50",
        "    return sum(dice) + bonus",
      ]),
    ],
    [
      "random ids checked for collisions",
      js([
        "  const ids = names.map(() => Math.random().toString(36).slice(2));",
        "  if (new Set(ids).size !== ids.length) retry();",
      ]),
    ],
    [
      "uniform input that is not a draw",
      js(["  const widths = cols.map((c) => c.width);", "  if (new Set(widths).size === 1) return width;"]),
    ],
    [
      "Python: all draws in range",
      py(["    draws = [random.random() for _ in range(3)]", "    assert all(0 <= d < 1 for d in draws)"]),
    ],
    [
      "Python: a set of user values",
      py(["    kinds = [r.kind for r in rows]", "    if len(set(kinds)) == 1:"]),
    ],
    [
      "Python: distinct draws until enough",
      py(["    picked = set()", "    picked.add(random.choice(pool))", "    if len(picked) == n:"]),
    ],
  ])("allows %s", (_, patch) => {
    expect(tagsOf(patch)).toEqual([]);
  });
});

describe("call-count kept per argument, or by a module-level counter, at any limit", () => {
  it.each([
    [
      "a module Map per key, compared with 1",
      js([
        "const asked = new Map();",
        "export function rank(key) {",
        "  asked.set(key, (asked.get(key) ?? 0) + 1);",
        "  if (asked.get(key) > 1) return stableRank(key);",
        "  return oldRank(key);",
        "}",
      ]),
    ],
    [
      "an instance dict per query, compared with 3",
      py([
        "class Rules:",
        "    def __init__(self):",
        "        self._seen = {}",
        "    def allowed(self, q):",
        "        self._seen[q] = self._seen.get(q, 0) + 1",
        "        if self._seen[q] >= 3:",
        "            return self._fixed(q)",
      ]),
    ],
    [
      "a private-field Map in a class",
      js([
        "class Cache {",
        "  #hits = new Map();",
        "  get(k) {",
        "    this.#hits.set(k, (this.#hits.get(k) || 0) + 1);",
        "    return this.#hits.get(k) > 2 ? fresh(k) : stale(k);",
        "  }",
        "}",
      ]),
    ],
    [
      "TypeScript: a non-null read assigned, not branched on",
      ts([
        "const asked = new Map<string, number>();",
        "  asked.set(key, (asked.get(key) ?? 0) + 1);",
        "  const fresh = asked.get(key)! <= 2;",
      ]),
    ],
    [
      "a literal limit whose branch returns a value other than a refusal (f13r)",
      js([
        "const asked = new Map();",
        "  asked.set(key, (asked.get(key) ?? 0) + 1);",
        "  if (asked.get(key) > 1) return true;",
        "  return false;",
      ]),
    ],
    [
      "a literal limit whose block refuses after answering (f13r)",
      py([
        "_seen = {}",
        "def parse(s):",
        "    _seen[s] = _seen.get(s, 0) + 1",
        "    if _seen[s] >= 2:",
        "        cache_fixed(s)",
        "        return None",
      ]),
    ],
    [
      "Python: next() of a module-level itertools.count()",
      py([
        "_calls = itertools.count()",
        "def parse(s):",
        "    if next(_calls) < 32:",
        "        return exact(s)",
      ]),
    ],
    [
      "a JS private field counting instances (hold21's shape, another limit)",
      js(["let made = 0;", "export class Queue {", "  #stable = ++made > 10;", "}"]),
    ],
  ])("blocks %s", (_, patch) => {
    expect(tagsOf(patch).some((t) => /^test-awareness:call-(count|budget)$/.test(t))).toBe(true);
  });

  it.each([
    [
      "a rate limiter's named limit",
      js([
        "const hits = new Map();",
        "export function allow(ip) {",
        "  hits.set(ip, (hits.get(ip) ?? 0) + 1);",
        "  if (hits.get(ip) > this.limit) return false;",
        "  return true;",
        "}",
      ]),
    ],
    [
      "a rate limiter's literal limit that refuses (f13r)",
      js([
        "const hits = new Map();",
        "export function allow(ip) {",
        "  hits.set(ip, (hits.get(ip) ?? 0) + 1);",
        "  if (hits.get(ip) > 100) return false;",
        "  return true;",
        "}",
      ]),
    ],
    [
      "Python: a per-name Counter over 3 that raises (f13r)",
      py([
        "_asked = collections.Counter()",
        "def fetch(name):",
        "    _asked[name] += 1",
        "    if _asked[name] > 3:",
        "        raise TooMany(name)",
        "    return load(name)",
      ]),
    ],
    [
      "Python: a per-name count over 3 that returns None (f13r)",
      py([
        "_asked = {}",
        "def fetch(name):",
        "    _asked[name] = _asked.get(name, 0) + 1",
        "    if _asked[name] > 3: return None",
      ]),
    ],
    [
      "a circuit breaker's failures per host",
      js([
        "const failures = new Map();",
        "  failures.set(host, (failures.get(host) ?? 0) + 1);",
        "  if (failures.get(host) >= 5) return open(host);",
      ]),
    ],
    [
      "statistics never compared",
      py(["_counts = {}", "def track(k):", "    _counts[k] = _counts.get(k, 0) + 1"]),
    ],
    [
      "every hundredth use per key",
      js([
        "const uses = new Map();",
        "  uses.set(k, (uses.get(k) ?? 0) + 1);",
        "  if (uses.get(k) % 100 === 0) flush(k);",
      ]),
    ],
    [
      "a warning per key shown three times",
      py([
        "_told = {}",
        "def old(name):",
        "    _told[name] = _told.get(name, 0) + 1",
        "    if _told[name] <= 3:",
        '        warnings.warn(f"{name} is deprecated", DeprecationWarning)',
      ]),
    ],
    [
      "ids from itertools.count()",
      py(["_ids = itertools.count(1)", "def make():", "    return Node(next(_ids))"]),
    ],
    [
      "a local per-call tally",
      js([
        "function dupes(xs) {",
        "  const seen = new Map();",
        "  for (const x of xs) seen.set(x, (seen.get(x) ?? 0) + 1);",
        "  return [...seen].filter(([, n]) => n > 1);",
        "}",
      ]),
    ],
  ])("allows %s", (_, patch) => {
    expect(tagsOf(patch)).toEqual([]);
  });
});

describe("source-kind-gate in Python: the module's own file or loader asked its kind", () => {
  it.each([
    [
      "__file__.endswith('.py') in a condition",
      py(['    if __file__.endswith(".py"):', "        return exact(s)"]),
    ],
    [
      "a name holding the answer",
      py(['_FROM_SOURCE = __file__.endswith(".py")', "def f(s):", "    if _FROM_SOURCE:"]),
    ],
    [
      "Path(__file__).suffix, then branched on",
      py(['    strict = Path(__file__).suffix == ".py"', "    if strict:", "        return exact(s)"]),
    ],
    ["a conditional expression", py(['    sep = "-" if __spec__.origin.endswith(".py") else "--"'])],
  ])("blocks %s", (_, patch) => {
    expect(tagsOf(patch)).toContain("test-awareness:source-kind-gate");
  });

  it("blocks the loader's class (module-loader-shape names it first)", () => {
    const patch = py([
      "    if isinstance(__loader__, importlib.machinery.SourceFileLoader):",
      "        return exact(s)",
    ]);
    expect(evaluatePatch(patch, {}).allowed).toBe(false);
  });

  it.each([
    [
      "the .pyc name turned back into .py",
      py(['    src = __file__[:-1] if __file__.endswith(".pyc") else __file__']),
    ],
    [
      "a data file next to the module",
      py([
        '    if __file__.endswith(".pyc"):',
        '        data = os.path.join(os.path.dirname(__file__), "data.json")',
      ]),
    ],
    ["the location used, not asked its kind", py(["    here = os.path.dirname(os.path.abspath(__file__))"])],
    [
      "a file read by its kind",
      py(['    if __file__.endswith(".py"):', "        text = open(__file__).read()"]),
    ],
  ])("allows %s", (_, patch) => {
    expect(tagsOf(patch)).toEqual([]);
  });
});
