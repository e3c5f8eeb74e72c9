/**
 * Module names the completion step needs to know: the standard libraries (never installed), import-name →
 * package-name differences, and the conventional aliases reporters use without importing.
 */
import { PYTHON_STDLIB_MODULE_NAMES } from "./python-stdlib.ts";

/**
 * The standard library, never installed: Python's own `sys.stdlib_module_names` (generated, see
 * scripts/gen-python-stdlib.mjs), plus `test`, CPython's regression-test package, which that list leaves out.
 */
export const PYTHON_STDLIB: ReadonlySet<string> = new Set([...PYTHON_STDLIB_MODULE_NAMES, "test"]);

/** `import X` → the PyPI distribution that provides X, where they differ. */
export const PYTHON_IMPORT_TO_PACKAGE: Record<string, string> = {
  yaml: "pyyaml",
  PIL: "pillow",
  sklearn: "scikit-learn",
  bs4: "beautifulsoup4",
  cv2: "opencv-python",
  dateutil: "python-dateutil",
  attr: "attrs",
  dotenv: "python-dotenv",
  jwt: "pyjwt",
};

/** Aliases reporters use without importing: `np.array(...)` means `import numpy as np`. */
export const PYTHON_ALIASES: Record<string, string> = {
  np: "import numpy as np",
  pd: "import pandas as pd",
  plt: "import matplotlib.pyplot as plt",
};

/** Names used bare that come from a standard module: `Decimal("1.1")` means `from decimal import Decimal`. */
export const PYTHON_FROM_IMPORTS: Record<string, string> = {
  Decimal: "decimal",
  Fraction: "fractions",
  StringIO: "io",
  BytesIO: "io",
  defaultdict: "collections",
  Counter: "collections",
  OrderedDict: "collections",
  namedtuple: "collections",
  deque: "collections",
  dataclass: "dataclasses",
  field: "dataclasses",
  asdict: "dataclasses",
  Path: "pathlib",
  timedelta: "datetime",
  timezone: "datetime",
  partial: "functools",
  reduce: "functools",
  lru_cache: "functools",
  cache: "functools",
  Enum: "enum",
  IntEnum: "enum",
  ZoneInfo: "zoneinfo",
  Optional: "typing",
  List: "typing",
  Dict: "typing",
  Any: "typing",
  Union: "typing",
};

export const NODE_BUILTINS = new Set(
  (
    "assert async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns domain events fs " +
    "http http2 https inspector module net os path perf_hooks process punycode querystring readline repl stream " +
    "string_decoder sys timers tls trace_events tty url util v8 vm wasi worker_threads zlib test"
  ).split(" "),
);

/** Conventional identifiers of npm packages (`_` for lodash); others use the camel-cased package name. */
export const NPM_IDENTIFIERS: Record<string, string> = {
  lodash: "_",
  underscore: "_",
  jquery: "$",
  "lodash.clonedeep": "cloneDeep",
  "dustjs-linkedin": "dust",
};

/**
 * Globals reporters use without a `require`, as the package's documentation and REPL examples do:
 * `semver.satisfies(...)`, `_.merge(...)`, `math.evaluate(...)`, `new Big(...)`. Used only when the name is
 * never bound in the snippet.
 */
export const NPM_GLOBALS: Record<string, string> = {
  _: "lodash",
  dust: "dustjs-linkedin",
  math: "mathjs",
  moment: "moment",
  dayjs: "dayjs",
  semver: "semver",
  Big: "big.js",
  BigNumber: "bignumber.js",
  Decimal: "decimal.js",
  validator: "validator",
  qs: "qs",
  yaml: "js-yaml",
  jsyaml: "js-yaml",
  numeral: "numeral",
  Joi: "joi",
  Ajv: "ajv",
  R: "ramda",
  Immutable: "immutable",
  uuid: "uuid",
  dateFns: "date-fns",
  yargs: "yargs",
  commander: "commander",
  chalk: "chalk",
  marked: "marked",
  Handlebars: "handlebars",
  mustache: "mustache",
  luxon: "luxon",
};

/** Named exports reporters use without importing them: `DateTime.fromISO(...)` means luxon's `DateTime`. */
export const NPM_NAMED_EXPORTS: Record<string, string> = {
  DateTime: "luxon",
  Duration: "luxon",
  Interval: "luxon",
  IANAZone: "luxon",
};

export function npmIdentifier(pkg: string): string {
  const known = NPM_IDENTIFIERS[pkg];
  if (known) return known;
  const base = pkg.replace(/^@[^/]+\//, "");
  return base.replace(/[-.]([a-z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/[^\w$]/g, "");
}

/** The npm package a module specifier belongs to (`lodash/fp` → `lodash`, `@scope/x/y` → `@scope/x`), or null for builtins/relative. */
export function npmPackageOf(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:")) return null;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? "");
  if (NODE_BUILTINS.has(name)) return null;
  // Only a name the registry can hold (ASCII, URL-safe, at most 214 characters): `require('еxpress')` (a Cyrillic
  // е) is drawn as `express` wherever Retrace names its dependencies, and `file:../..` is an installer's path spec,
  // not a name (twenty-first red team).
  return name.length <= 214 && NPM_NAME.test(name) ? name : null;
}

/** What npm accepts as a package name (validate-npm-package-name; old names may hold capitals). */
const NPM_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][A-Za-z0-9._~-]*$/;

/** PEP 503 name normalization: `Foo_Bar.baz` → `foo-bar-baz`. */
export function normalizePypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}
