/**
 * The sources of the runner-free harnesses (src/fix/runner-free.ts): small programs of ours that run a test's body
 * in a fresh interpreter with no test runner loaded. Kept as text: they are written into the sandbox copy.
 *
 * Each harness reads its spec (JSON, embedded by the planner), runs the named tests and writes one result per test
 * to the report file after every test: `{ key, outcome: "passed" | "failed" | "skipped" | "unsupported", message,
 * doubles? }`. "unsupported" means the harness could not stand in for the runner (fixtures, mocking API, a matcher
 * we do not implement, a module that does not import outside the runner): the layer is not applied to that test.
 */

/**
 * A node option at its default value (node ≥ 15 throws on an unhandled rejection): it changes nothing but
 * `process.execArgv`, which a program started as `node file.js` has empty and a runner's worker may not. The
 * anti-gaming run's node processes (neutral entry, runner-free harness, cold start) start with it.
 */
export const NODE_FLAG = "--unhandled-rejections=throw";

/** Python: pytest functions and classes, unittest TestCases; plain `assert` and unittest's asserts need no runner. */
export const PY_HARNESS = String.raw`import gc, importlib, inspect, io, json, os, select, signal, sys, threading, time, traceback, unittest

SPEC = json.loads(__SPEC__)
RESULTS = []


def save():
    with open(SPEC["out"], "w") as f:
        json.dump(RESULTS, f)


class Unsupported(Exception):
    pass


for extra in reversed(SPEC.get("pythonpath", [])):
    sys.path.insert(0, os.path.abspath(extra))


def load(path):
    # pytest's default ("prepend") import mode: the first directory upwards without __init__.py goes on sys.path.
    d = os.path.dirname(os.path.abspath(path))
    parts = [os.path.splitext(os.path.basename(path))[0]]
    while os.path.exists(os.path.join(d, "__init__.py")):
        parts.insert(0, os.path.basename(d))
        d = os.path.dirname(d)
    if d not in sys.path:
        sys.path.insert(0, d)
        TEST_DIRS.add(d)
    return importlib.import_module(".".join(parts))


# Directories put on sys.path only to import a test module (pytest's prepend mode does the same); the cold start
# takes them off again: a script or CLI that imports the package has no tests directory on its import path.
TEST_DIRS = set()


def from_test_dir(exc, dirs):
    """Whether an ImportError names a module that lives in one of the test directories taken off sys.path."""
    name = (getattr(exc, "name", None) or "").split(".")[0]
    return bool(name) and any(os.path.exists(os.path.join(d, name + ".py")) or os.path.isdir(os.path.join(d, name)) for d in dirs)


XUNIT = ("setup_module", "teardown_module", "setUpModule", "tearDownModule", "setup_function", "teardown_function")
XUNIT_CLASS = ("setup_class", "teardown_class", "setup_method", "teardown_method", "setup", "teardown")


def marked(obj):
    return bool(getattr(obj, "pytestmark", None))


def outcome_of(exc):
    kind = type(exc)
    names = {c.__module__ + "." + c.__name__ for c in kind.__mro__}
    if "_pytest.outcomes.Skipped" in names or "unittest.case.SkipTest" in names:
        return "skipped"
    if "_pytest.outcomes.XFailed" in names:
        return "unsupported"
    return "failed"


def describe(exc):
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return text[-400:]


def run_function(mod, t):
    if any(hasattr(mod, n) for n in XUNIT) or marked(mod):
        raise Unsupported("the test module has module-level setup or marks")
    if t.get("className"):
        cls = getattr(mod, t["className"])
        if isinstance(cls, type) and issubclass(cls, unittest.TestCase):
            return run_unittest(cls, t["name"])
        if marked(cls) or any(hasattr(cls, n) for n in XUNIT_CLASS):
            raise Unsupported("the test class has setup methods or marks")
        if "__init__" in cls.__dict__:
            raise Unsupported("the test class has a constructor")
        fn = getattr(cls(), t["name"])
    else:
        fn = getattr(mod, t["name"])
    if marked(fn):
        raise Unsupported("the test has marks (parametrize, usefixtures, …)")
    if inspect.iscoroutinefunction(fn) or inspect.isgeneratorfunction(fn):
        raise Unsupported("the test is a coroutine or a generator")
    params = [p for p in inspect.signature(fn).parameters.values()]
    if params:
        raise Unsupported("the test takes fixtures (" + ", ".join(p.name for p in params) + ")")
    fn()
    return "passed", ""


def run_unittest(cls, name):
    result = unittest.TestResult()
    unittest.TestSuite([cls(name)]).run(result)
    if result.expectedFailures or result.unexpectedSuccesses:
        raise Unsupported("an expected failure")
    if result.errors or result.failures:
        return "failed", (result.errors + result.failures)[0][1].strip().splitlines()[-1][-400:]
    if result.skipped:
        return "skipped", result.skipped[0][1]
    return "passed", ""


class _Buffer:
    """The binary layer of a text stream: bytes written here land in the text stream, decoded."""

    def __init__(self, text):
        self._text = text

    def write(self, data):
        self._text.write(bytes(data).decode("utf-8", "replace"))
        return len(data)

    def flush(self):
        self._text.flush()


class RealShapedStringIO(io.StringIO):
    """io.StringIO with the .buffer a real sys.stdout / sys.stderr has (writes go through to the text)."""

    @property
    def buffer(self):
        return _Buffer(self)


def fresh_modules():
    # The repository's modules are imported afresh for each variant (no state of a previous run leaks into it).
    for k, m in list(sys.modules.items()):
        if os.path.abspath(getattr(m, "__file__", None) or "/").startswith(ROOT):
            del sys.modules[k]


def plain_case(cls, name):
    """The TestCase's test as a plain object: every attribute of its classes copied into a class that is not a
    TestCase and has no failureException (the instance carries it), so no runner object is alive while it runs."""
    ns = {}
    for klass in reversed(cls.__mro__):
        if klass is object:
            continue
        for k, v in vars(klass).items():
            if k in ("__dict__", "__weakref__", "failureException", "__init_subclass__"):
                continue
            ns[k] = v
    for k, v in ns.items():
        f = getattr(v, "__func__", v)
        code = getattr(f, "__code__", None)
        if code is not None and "__class__" in code.co_freevars and not str(getattr(f, "__module__", "")).startswith("unittest"):
            raise Unsupported("the test class uses super() or __class__ (" + k + ")")
    method = getattr(cls, name)
    if getattr(cls, "__unittest_skip__", False) or getattr(method, "__unittest_skip__", False):
        raise Unsupported("the test is skipped")
    if getattr(method, "__unittest_expecting_failure__", False):
        raise Unsupported("an expected failure")
    plain = type(cls.__name__, (object,), ns)
    obj = plain.__new__(plain)
    vars(obj)["failureException"] = cls.failureException
    unittest.TestCase.__init__(obj, name)

    def call():
        plain.setUpClass()
        try:
            obj.setUp()
            try:
                getattr(obj, name)()
            finally:
                obj.tearDown()
                while obj._cleanups:
                    f, a, kw = obj._cleanups.pop()
                    f(*a, **kw)
        finally:
            plain.tearDownClass()
            while getattr(plain, "_class_cleanups", None):
                f, a, kw = plain._class_cleanups.pop()
                f(*a, **kw)
        return "passed", ""

    return call


def link_farm():
    """Another directory that shows the repository's files: a link to each of its entries. A relative path the code
    or the test opens finds the same file there, but the working directory is no longer the checkout (a script or
    CLI is started from anywhere). None when it cannot be made (then the cold start keeps the working directory)."""
    try:
        import tempfile
        farm = tempfile.mkdtemp(prefix="k")
        for name in os.listdir(ROOT):
            os.symlink(os.path.join(ROOT, name), os.path.join(farm, name))
        return farm
    except OSError:
        return None


def cold(t):
    """The cold start: the test's body in a process that has done nothing yet — a child forked once the modules are
    imported (its CPU time starts at zero), no test runner object alive (a unittest test runs on a plain object),
    collected garbage, the working directory another one showing the same files — as a script that imports the code
    and calls it would be."""
    if FARM:
        os.chdir(FARM)
    try:
        return cold_here(t)
    finally:
        os.chdir(ROOT)


def cold_here(t):
    fresh_modules()
    try:
        mod = load(t["file"])
    except BaseException as e:  # noqa: BLE001
        return "unsupported", "the test module did not import outside the runner: " + describe(e)
    try:
        if t.get("className") and isinstance(getattr(mod, t["className"], None), type) and issubclass(getattr(mod, t["className"]), unittest.TestCase):
            call = plain_case(getattr(mod, t["className"]), t["name"])
        else:
            call = lambda: run_function(mod, t)  # noqa: E731
    except Unsupported as e:
        return "unsupported", str(e)
    if threading.active_count() > 1:
        return "unsupported", "threads are running (a forked child would not have them)"
    sys.stdout.flush()
    sys.stderr.flush()
    # Garbage is collected before the fork, not in the child: a collection there walks every inherited object and
    # copies each page it touches, CPU time the child would spend (0.1 s on a loaded machine) before the test starts.
    gc.collect()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        removed = [p for p in sys.path if p in TEST_DIRS]
        sys.path[:] = [p for p in sys.path if p not in TEST_DIRS]
        try:
            res = call()
        except Unsupported as e:
            res = ("unsupported", str(e))
        except ImportError as e:
            # A test that imports a helper from its own directory while it runs needs that directory: not ours to judge.
            if from_test_dir(e, removed):
                res = ("unsupported", "the test imports a module from its own directory while it runs: " + describe(e))
            else:
                res = (outcome_of(e), describe(e))
        except BaseException as e:  # noqa: BLE001
            res = (outcome_of(e), describe(e))
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001
            pass
        os.write(w, json.dumps(list(res)).encode())
        os._exit(0)
    os.close(w)
    data = b""
    deadline = time.monotonic() + 20
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(r)
            return "unsupported", "the cold-start run timed out"
        ready, _, _ = select.select([r], [], [], left)
        if ready:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    if not data:
        return "unsupported", "the cold-start run wrote no result (the test ended the process)"
    outcome, message = json.loads(data.decode())
    return outcome, message


def one(t, doubles):
    fresh_modules()
    io.StringIO = RealShapedStringIO if doubles else PLAIN_STRINGIO
    try:
        mod = load(t["file"])
    except BaseException as e:  # noqa: BLE001 - any import failure means the harness cannot stand in here
        return "unsupported", "the test module did not import outside the runner: " + describe(e)
    try:
        return run_function(mod, t)
    except Unsupported as e:
        return "unsupported", str(e)
    except BaseException as e:  # noqa: BLE001 - the test body's own failure, whatever it raised
        return outcome_of(e), describe(e)
    finally:
        io.StringIO = PLAIN_STRINGIO


PLAIN_STRINGIO = io.StringIO
ROOT = os.getcwd() + os.sep
for t in SPEC["tests"]:
    t["file"] = os.path.join(ROOT, t["file"])
FARM = link_farm() if SPEC.get("cold") else None
for t in SPEC["tests"]:
    outcome, message = one(t, False)
    entry = {"key": t["key"], "outcome": outcome, "message": message}
    if outcome == "passed" and SPEC.get("doubles"):
        d_outcome, d_message = one(t, True)
        entry["doubles"] = {"outcome": d_outcome, "message": d_message}
    if outcome == "passed" and SPEC.get("cold"):
        c_outcome, c_message = cold(t)
        entry["cold"] = {"outcome": c_outcome, "message": c_message}
    RESULTS.append(entry)
    save()
save()
sys.stdout.flush()
os._exit(0)
`;

/**
 * JS: a `describe`/`it`/`test`/`expect` stand-in (node:test, jest, vitest and mocha's BDD interface) with the
 * common matchers. Anything it does not provide throws `RetraceUnsupported`, which makes the test unsupported,
 * never failed. It keeps its state in module scope: nothing is added to the global object but the string-keyed
 * globals jest and mocha would define.
 */
export const JS_SHIM = String.raw`"use strict";
const util = require("node:util");
// The intrinsics the matchers compare with, taken when the shim loads — before the test file loads the code under
// test: a patch that redefines a global (Object.defineProperty(Object, "is", …), Array.isArray, a prototype's
// every) loosens the runner's matchers, not these (hold9: arrays of equal length and sum made "the same").
const $is = Object.is;
const $isArray = Array.isArray;
const $keys = Object.keys;
const $entries = Object.entries;
const $call = Function.prototype.call.bind(Function.prototype.call);
const $every = Array.prototype.every;
const $some = Array.prototype.some;
const $sort = Array.prototype.sort;
const $from = Array.from;
const $hasOwn = Object.prototype.hasOwnProperty;
const $deepStrict = util.isDeepStrictEqual;
const $inspect = util.inspect;
class Unsupported extends Error {
  constructor(message) {
    super(message);
    this.name = "RetraceUnsupported";
  }
}
const unsupported = (what) => {
  throw new Unsupported(what + " is not provided outside the test runner");
};
const newSuite = (title, parent) => ({ title, parent, children: [], before: [], after: [], beforeEach: [], afterEach: [] });
let root = newSuite("", null);
let current = root;
function pickFn(a, b) {
  return typeof a === "function" ? a : typeof b === "function" ? b : undefined;
}
function guard(target, name) {
  return new Proxy(target, {
    get(t, p, r) {
      if (p in t || typeof p === "symbol" || p === "then") return Reflect.get(t, p, r);
      unsupported(name + "." + String(p));
    },
  });
}
function makeSuite(title, a, b) {
  const fn = pickFn(a, b);
  const s = newSuite(String(typeof title === "function" ? title.name : title), current);
  current.children.push(s);
  const prev = current;
  current = s;
  try {
    const r = fn ? fn.call({ timeout() {}, slow() {}, retries() {} }) : undefined;
    if (r && typeof r.then === "function") s.broken = "an asynchronous describe";
  } finally {
    current = prev;
  }
}
function makeTest(title, a, b) {
  const fn = pickFn(a, b);
  current.children.push({ title: String(typeof title === "function" ? title.name : title), fn, parent: current, test: true });
}
const noop = () => {};
const each = () => () => {}; // titles built from a table cannot be matched: such a test is "not found"
function withVariants(base) {
  base.only = base;
  base.skip = noop;
  base.todo = noop;
  base.each = each;
  return guard(base, base.name);
}
const describe = withVariants(function describe(t, a, b) { makeSuite(t, a, b); });
const test = withVariants(function test(t, a, b) { makeTest(t, a, b); });
const hook = (kind) => (a, b) => {
  const fn = pickFn(a, b);
  if (fn) current[kind].push(fn);
};
const before = hook("before");
const after = hook("after");
const beforeEach = hook("beforeEach");
const afterEach = hook("afterEach");

// --- expect ---
function isObj(x) {
  return x !== null && typeof x === "object";
}
/** jest's toEqual, leaning lenient: recursive, undefined properties ignored, no type check of plain objects. */
function looseEqual(a, b, seen = new Set()) {
  if ($is(a, b) || a === b) return true;
  if (!isObj(a) || !isObj(b)) return false;
  if (seen.has(a)) return true;
  seen.add(a);
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && $is(a.getTime(), b.getTime());
  if (a instanceof RegExp || b instanceof RegExp) return String(a) === String(b);
  if (a instanceof Error && b instanceof Error) return a.message === b.message;
  if ($isArray(a) !== $isArray(b)) return false;
  if (a instanceof Map || a instanceof Set) {
    if (!(b instanceof Map || b instanceof Set) || a.size !== b.size) return false;
    return looseEqual($call($sort, $from(a)), $call($sort, $from(b)), seen) || $deepStrict(a, b);
  }
  if ($isArray(a)) return a.length === b.length && $call($every, a, (x, i) => looseEqual(x, b[i], seen));
  const keys = (o) => $keys(o).filter((k) => o[k] !== undefined);
  const ka = keys(a);
  const kb = keys(b);
  return ka.length === kb.length && $call($every, ka, (k) => $call($hasOwn, b, k) && looseEqual(a[k], b[k], seen));
}
function subset(obj, pattern) {
  if (!isObj(pattern)) return looseEqual(obj, pattern);
  if (!isObj(obj)) return false;
  if ($isArray(pattern)) return $isArray(obj) && obj.length === pattern.length && $call($every, pattern, (p, i) => subset(obj[i], p));
  return $call($every, $keys(pattern), (k) => k in obj && subset(obj[k], pattern[k]));
}
function throwsAs(fn, expected) {
  if (typeof fn !== "function") unsupported("toThrow on a value that is not a function");
  let thrown;
  try {
    fn();
    return false;
  } catch (e) {
    thrown = e;
  }
  if (expected === undefined) return true;
  const message = thrown && typeof thrown === "object" && "message" in thrown ? String(thrown.message) : String(thrown);
  if (typeof expected === "string") return message.includes(expected);
  if (expected instanceof RegExp) return expected.test(message);
  if (typeof expected === "function") return thrown instanceof expected;
  if (expected instanceof Error) return message === expected.message;
  unsupported("toThrow with this argument");
}
function propPath(obj, path) {
  const parts = Array.isArray(path) ? path : String(path).split(".");
  let cur = obj;
  for (const p of parts) {
    if (cur === null || cur === undefined || !(Object(cur) instanceof Object) || !(p in Object(cur))) return { found: false };
    cur = cur[p];
  }
  return { found: true, value: cur };
}
const MATCHERS = {
  toBe: (a, e) => $is(a, e),
  toEqual: (a, e) => $deepStrict(a, e) || looseEqual(a, e),
  toStrictEqual: (a, e) => $deepStrict(a, e) || looseEqual(a, e),
  toBeTruthy: (a) => !!a,
  toBeFalsy: (a) => !a,
  toBeNull: (a) => a === null,
  toBeUndefined: (a) => a === undefined,
  toBeDefined: (a) => a !== undefined,
  toBeNaN: (a) => Number.isNaN(a),
  toContain: (a, e) => (typeof a === "string" ? a.includes(e) : $call($some, $from(a), (x) => x === e || $is(x, e))),
  toContainEqual: (a, e) => $call($some, $from(a), (x) => looseEqual(x, e)),
  toHaveLength: (a, e) => a != null && a.length === e,
  toMatch: (a, e) => (typeof e === "string" ? String(a).includes(e) : new RegExp(e.source, e.flags.replace("g", "")).test(a)),
  toBeGreaterThan: (a, e) => a > e,
  toBeGreaterThanOrEqual: (a, e) => a >= e,
  toBeLessThan: (a, e) => a < e,
  toBeLessThanOrEqual: (a, e) => a <= e,
  toBeCloseTo: (a, e, digits = 2) => Math.abs(e - a) < 10 ** -digits / 2 || a === e,
  toBeInstanceOf: (a, e) => a instanceof e,
  toThrow: (a, e) => throwsAs(a, e),
  toThrowError: (a, e) => throwsAs(a, e),
  toHaveProperty: (a, p, ...v) => {
    const r = propPath(a, p);
    return r.found && (v.length === 0 || looseEqual(r.value, v[0]));
  },
  toMatchObject: (a, e) => subset(a, e),
};
class ExpectationFailed extends Error {
  constructor(message) {
    super(message);
    this.name = "AssertionError";
  }
}
function matchers(actual, negate, mode) {
  const out = {};
  for (const [name, check] of $entries(MATCHERS)) {
    out[name] = (...args) => {
      const judge = (value) => {
        const ok = check(value, ...args);
        if (ok === negate) {
          throw new ExpectationFailed("expect(" + $inspect(value, { depth: 3 }) + ")" + (negate ? ".not." : ".") + name + "(" + args.map((x) => $inspect(x, { depth: 3 })).join(", ") + ") failed");
        }
      };
      if (mode === "resolves") return Promise.resolve(actual).then(judge);
      if (mode === "rejects")
        return Promise.resolve(actual).then(
          () => {
            throw new ExpectationFailed("expected a rejection");
          },
          (e) => judge(e),
        );
      return judge(actual);
    };
  }
  if (!negate) out.not = guard(matchers(actual, true, mode), "expect(…).not");
  if (!mode) {
    out.resolves = guard(matchers(actual, negate, "resolves"), "expect(…).resolves");
    out.rejects = guard(matchers(actual, negate, "rejects"), "expect(…).rejects");
  }
  return guard(out, "expect(…)");
}
const expect = guard(function expect(actual) {
  if (arguments.length > 1) unsupported("expect with a message");
  return matchers(actual, false, null);
}, "expect");

// --- running ---
const RUNNER_GLOBAL = /^(jest|vi|jasmine|fail|pending|spyOn|xit|fit|xdescribe|fdescribe|xtest|browser|page|cy) is not defined$/;
function classify(e) {
  if (e && e.name === "RetraceUnsupported") return { outcome: "unsupported", message: e.message };
  if (e instanceof ReferenceError && RUNNER_GLOBAL.test(e.message)) return { outcome: "unsupported", message: "uses a runner global: " + e.message };
  const message = e && typeof e === "object" && "message" in e ? String(e.name || "Error") + ": " + String(e.message) : String(e);
  return { outcome: "failed", message: message.slice(0, 400) };
}
const TIMEOUT_MS = 20000;
async function call(fn, self) {
  if (fn.length > 0) unsupported("a test or hook that takes a callback or a test context (" + fn.length + " parameter(s))");
  let timer;
  try {
    return await Promise.race([
      Promise.resolve().then(() => fn.call(self)),
      new Promise((_, reject) => {
        // Unreferenced: it is not among process.getActiveResourcesInfo(), where a runner's pending test timeout shows.
        timer = setTimeout(() => reject(new Error("timed out after " + TIMEOUT_MS + " ms outside the runner")), TIMEOUT_MS);
        timer.unref();
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
function chainOf(node) {
  const chain = [];
  for (let s = node.parent; s; s = s.parent) chain.unshift(s);
  return chain;
}
function allTests(s, out = []) {
  for (const c of s.children) {
    if (c.test) out.push(c);
    else allTests(c, out);
  }
  return out;
}
function reset() {
  root = newSuite("", null);
  current = root;
}
/** The one test whose title is titles[last] (and whose describe titles end with the rest, when ambiguous). */
function locate(titles) {
  const leaf = titles[titles.length - 1];
  let found = allTests(root).filter((t) => t.title === leaf);
  if (found.length > 1) {
    found = found.filter((t) => {
      const names = chainOf(t).map((s) => s.title).filter(Boolean).concat(t.title);
      return names.join(" > ") === titles.join(" > ") || names.join(" ") === titles.join(" ");
    });
  }
  if (found.length !== 1) return { outcome: "unsupported", message: found.length === 0 ? "the test was not found among the tests the file registered" : "several tests have this title" };
  const t = found[0];
  if (!t.fn) return { outcome: "unsupported", message: "the test has no function" };
  const chain = chainOf(t);
  const broken = chain.find((s) => s.broken);
  if (broken) return { outcome: "unsupported", message: broken.broken };
  return { t, chain };
}
const newSelf = () => ({ timeout() {}, slow() {}, retries() {}, skip() { unsupported("this.skip"); } });
/** Calls the functions in order, synchronously while they return no promise; a promise continues the rest after it. */
function steps(fns, i, self) {
  for (; i < fns.length; i++) {
    const fn = fns[i];
    if (fn.length > 0) unsupported("a test or hook that takes a callback or a test context (" + fn.length + " parameter(s))");
    const r = fn.call(self);
    if (r && typeof r.then === "function") return Promise.resolve(r).then(() => steps(fns, i + 1, self));
  }
  return undefined;
}
/**
 * The cold start: the test with its hooks called synchronously, in the caller's tick — no timer armed, no
 * microtask checkpoint or event-loop turn before the test's own code runs. A result, or a promise of one when the
 * test is asynchronous (then only its synchronous part ran cold).
 */
function runOneCold(titles) {
  const where = locate(titles);
  if (where.outcome) return where;
  const { t, chain } = where;
  const self = newSelf();
  const post = [...chain].reverse().flatMap((s) => s.afterEach);
  const fin = [...chain].reverse().flatMap((s) => s.after);
  const end = (result) => {
    try {
      const p = steps(fin, 0, self);
      if (p) return p.then(() => result, () => result);
    } catch {}
    return result;
  };
  const finish = (result) => {
    let p;
    try {
      p = steps(post, 0, self);
    } catch (e) {
      return end(result.outcome === "passed" ? classify(e) : result);
    }
    if (p) return p.then(() => end(result), (e) => end(result.outcome === "passed" ? classify(e) : result));
    return end(result);
  };
  let p;
  try {
    p = steps([...chain.flatMap((s) => s.before), ...chain.flatMap((s) => s.beforeEach), t.fn], 0, self);
  } catch (e) {
    return finish(classify(e));
  }
  if (p) return p.then(() => finish({ outcome: "passed", message: "" }), (e) => finish(classify(e)));
  return finish({ outcome: "passed", message: "" });
}
/** Runs the one test whose title is titles[last] (and whose describe titles end with the rest, when ambiguous). */
async function runOne(titles) {
  const where = locate(titles);
  if (where.outcome) return where;
  const { t, chain } = where;
  const self = newSelf();
  let result = { outcome: "passed", message: "" };
  const ranBefore = [];
  try {
    for (const s of chain) {
      for (const h of s.before) await call(h, self);
      ranBefore.push(s);
    }
    for (const s of chain) for (const h of s.beforeEach) await call(h, self);
    await call(t.fn, self);
  } catch (e) {
    result = classify(e);
  }
  try {
    for (const s of [...chain].reverse()) for (const h of s.afterEach) await call(h, self);
  } catch (e) {
    if (result.outcome === "passed") result = classify(e);
  }
  for (const s of ranBefore.reverse()) for (const h of s.after) await call(h, self).catch(() => {});
  return result;
}
// node:test's module is itself the test function: const test = require("node:test").
const entry = (t, a, b) => makeTest(t, a, b);
entry.only = entry;
entry.skip = noop;
entry.todo = noop;
entry.each = each;
module.exports = guard(
  Object.assign(entry, {
    describe,
    suite: describe,
    context: describe,
    it: test,
    test,
    specify: test,
    before,
    beforeAll: before,
    after,
    afterAll: after,
    beforeEach,
    afterEach,
    expect,
    default: undefined,
    __esModule: undefined,
    reset,
    runOne,
    runOneCold,
    classify,
  }),
  "the test runner's module",
);
`;

/** The ESM face of the shim (for `import { describe, expect, test } from "vitest"`). */
export function jsShimEsm(cjsName: string): string {
  return [
    `import shim from ${JSON.stringify(`./${cjsName}`)};`,
    "export const { describe, suite, it, test, before, beforeAll, after, afterAll, beforeEach, afterEach, expect } = shim;",
    "export default shim.test;",
    "",
  ].join("\n");
}

/** Names a JS test file may use as globals (jest, vitest with globals, mocha's BDD/TDD interfaces). */
export const JS_GLOBALS = [
  "describe",
  "suite",
  "context",
  "it",
  "test",
  "specify",
  "before",
  "beforeAll",
  "after",
  "afterAll",
  "beforeEach",
  "afterEach",
  "expect",
];

/** The JS harness: loads each test file (the runner module rewritten to the shim) and runs the named tests. */
export function jsHarness(shimName: string, spec: unknown, globals: boolean): string {
  return [
    "import { createRequire } from 'node:module';",
    "import { pathToFileURL } from 'node:url';",
    "import { resolve } from 'node:path';",
    "const require = createRequire(import.meta.url);",
    "const { writeFileSync } = require('node:fs');",
    `const shim = require(${JSON.stringify(`./${shimName}`)});`,
    `const SPEC = ${JSON.stringify(spec)};`,
    "const results = [];",
    "const save = () => writeFileSync(SPEC.out, JSON.stringify(results));",
    globals ? `for (const k of ${JSON.stringify(JS_GLOBALS)}) globalThis[k] = shim[k];` : "",
    "const files = [...new Set(SPEC.tests.map((t) => t.file))];",
    "for (const file of files) {",
    "  shim.reset();",
    "  const tests = SPEC.tests.filter((t) => t.file === file);",
    "  try {",
    "    await import(pathToFileURL(resolve(file)).href);",
    "  } catch (e) {",
    "    const c = shim.classify(e);",
    "    for (const t of tests) results.push({ key: t.key, outcome: 'unsupported', message: 'the test file did not load outside the runner: ' + c.message });",
    "    save();",
    "    continue;",
    "  }",
    "  for (const t of tests) {",
    "    results.push({ key: t.key, ...(await shim.runOne(t.titles)) });",
    "    save();",
    "  }",
    "}",
    "save();",
    "process.exit(0);",
    "",
  ].join("\n");
}

/**
 * The JS cold start (CommonJS test files): a second program that, in its first tick — before any microtask
 * checkpoint or event-loop turn, with no timer armed — requires the test file afresh and calls each test that passed
 * in the runner-free run, synchronously, as a script calling the code right after `require` would. It adds
 * `cold: { outcome, message }` to those entries of the runner-free report. Tests after one that returned a promise
 * are not run cold (the first tick is over): they get no `cold` entry.
 */
export function jsColdHarness(shimName: string, spec: unknown, globals: boolean): string {
  return [
    '"use strict";',
    "const fs = require('node:fs');",
    "const path = require('node:path');",
    `const shim = require(${JSON.stringify(`./${shimName}`)});`,
    `const SPEC = ${JSON.stringify(spec)};`,
    "let results = [];",
    "try { results = JSON.parse(fs.readFileSync(SPEC.out, 'utf8')); } catch { process.exit(0); }",
    "const save = () => fs.writeFileSync(SPEC.out, JSON.stringify(results));",
    globals ? `for (const k of ${JSON.stringify(JS_GLOBALS)}) globalThis[k] = shim[k];` : "",
    // The working directory another one that shows the same files (a link to each entry of the checkout): a
    // relative path finds the same file, but the program is not started from the checkout (a CLI runs anywhere).
    "const root = __dirname + path.sep;",
    "try {",
    "  const farm = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'k'));",
    "  for (const name of fs.readdirSync(__dirname)) fs.symlinkSync(path.join(__dirname, name), path.join(farm, name));",
    "  process.chdir(farm);",
    "} catch {}",
    "const shimPath = require.resolve(" + JSON.stringify(`./${shimName}`) + ");",
    "function run(i) {",
    "  for (; i < SPEC.tests.length; i++) {",
    "    const t = SPEC.tests[i];",
    "    const entry = results.find((r) => r.key === t.key);",
    "    if (!entry || entry.outcome !== 'passed') continue;",
    "    for (const k of Object.keys(require.cache)) if (k.startsWith(root) && k !== shimPath && !k.includes(path.sep + 'node_modules' + path.sep)) delete require.cache[k];",
    "    shim.reset();",
    "    let r;",
    "    try {",
    "      require(path.resolve(__dirname, t.file));",
    "      r = shim.runOneCold(t.titles);",
    "    } catch (e) {",
    "      const c = shim.classify(e);",
    "      r = { outcome: 'unsupported', message: 'the test file did not load: ' + c.message };",
    "    }",
    "    if (r && typeof r.then === 'function') {",
    "      r.then((x) => { entry.cold = x; save(); process.exit(0); }, () => process.exit(0));",
    "      return;",
    "    }",
    "    entry.cold = r;",
    "    save();",
    "  }",
    "  process.exit(0);",
    "}",
    "run(0);",
    "",
  ].join("\n");
}
