/**
 * Names a Python snippet uses from a module it never imports them from (issue 12, "names from submodules"): the
 * reader's completions, each only where the report itself says where the name lives, or where the report's package
 * is the only place to look.
 *
 * - `packaging.specifiers.SpecifierSet(...)` after only `import packaging`: the submodule is imported too
 *   (`import packaging.specifiers`), as a package's `__init__` need not import its submodules;
 * - `SplitResult(...)` with no import, where the words say `urllib.parse.SplitResult`: `from urllib.parse import
 *   SplitResult`; likewise a `from a.b import c` line written anywhere in the report (inline code, another block);
 * - a name left over, with the repository package known (`SpecifierSet` in a report filed on packaging):
 *   looked up in that package's modules when the script runs, bound only when one of them defines it.
 *
 * Pure: the lookup itself is Python the program carries, so what ran is in the reproduction file.
 */
import { PYTHON_STDLIB } from "./known-modules.ts";

const PYTHON_BUILTINS = new Set(
  (
    "ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError BrokenPipeError " +
    "BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError " +
    "ConnectionResetError DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception " +
    "ExceptionGroup False FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError " +
    "ImportError ImportWarning IndentationError IndexError InterruptedError IsADirectoryError KeyError " +
    "KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError None NotADirectoryError NotImplemented " +
    "NotImplementedError OSError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError " +
    "RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration " +
    "SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError True TypeError UnboundLocalError " +
    "UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError " +
    "Warning ZeroDivisionError abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr " +
    "classmethod compile complex copyright credits delattr dict dir divmod enumerate eval exec exit filter float " +
    "format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len license list " +
    "locals map max memoryview min next object oct open ord pow print property quit range repr reversed round set " +
    "setattr slice sorted staticmethod str sum super tuple type vars zip self cls _echo " +
    "and as assert async await break class continue def del elif else except finally for from global if import in " +
    "is lambda nonlocal not or pass raise return try while with yield"
  ).split(" "),
);

/** Python's keywords: never a module or package name (`import class` does not parse). */
export const PYTHON_KEYWORDS = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for from " +
    "global if import in is lambda nonlocal not or pass raise return try while with yield"
  ).split(" "),
);

/** Names the code calls, subscripts or reads members of (`X(`, `X.`, `X[`) and never binds, builtins aside. */
export function pythonFreeNames(scan: string, bound: Set<string>): string[] {
  const names: string[] = [];
  for (const m of scan.matchAll(/(?<![\w.'"])([A-Za-z_]\w*)[ \t]*[.([]/g)) {
    const n = m[1]!;
    if (bound.has(n) || PYTHON_BUILTINS.has(n) || n.startsWith("__") || names.includes(n)) continue;
    names.push(n);
  }
  return names;
}

/** Extensions a file named in a report has (`test.toml`), never read as a module's attribute. */
const FILE_EXTENSIONS = new Set(
  "toml json yaml yml csv tsv txt cfg ini xml html md rst log py pyc pyi js mjs cjs ts lock zip gz tar whl".split(
    " ",
  ),
);

/** The module a name is written under in the report: `urllib.parse.SplitResult`, `from a.b import c`. */
export function moduleNamedFor(name: string, texts: string[]): string | null {
  const escaped = name.replace(/[^\w]/g, "");
  if (escaped !== name) return null;
  for (const t of texts) {
    for (const m of t.matchAll(
      /^[ \t>]*(?:>>>[ \t]*)?from[ \t]+([A-Za-z_][\w.]*)[ \t]+import[ \t]+\(?([^\n#)]+)/gm,
    )) {
      const names = m[2]!.split(",").map((p) =>
        p
          .trim()
          .split(/\s+as\s+/)[0]!
          .trim(),
      );
      if (names.includes(name) && !m[2]!.includes(` as ${name}`)) return m[1]!;
    }
  }
  // Not a path or a quoted file name (`/tmp/test.toml`, `"data.json"`: a file, not `toml` of a module `test`).
  const dotted = new RegExp(`(?<![\\w./\\\\~'"-])((?:[A-Za-z_]\\w*\\.)+)${name}(?![\\w(])`, "g");
  const fileName = FILE_EXTENSIONS.has(name.toLowerCase());
  for (const t of texts)
    for (const m of t.matchAll(dotted)) {
      // `config.toml` in prose is a file when the name is a file extension and nothing is read from it.
      if (fileName && t[m.index + m[0].length] !== ".") continue;
      const mod = m[1]!.slice(0, -1);
      // A module path: lower-case parts (a class's attribute, `Foo.Bar`, is not one).
      if (/^[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*$/.test(mod)) return mod;
    }
  return null;
}

/**
 * The standard-library module the report calls `name` under, in prose, a title or another block
 * (`statistics.median_grouped()` in a title, the snippet calling `median_grouped(…)` bare; issue 12, hold19):
 * only a module of the standard library (PYTHON_STDLIB), and imported guarded (`guardedFromImport`), so the
 * sandbox's own Python decides whether that module has the name: when it does not, the name stays unbound and
 * the run says so as it would have. Null when no such call is written.
 */
export function stdlibModuleCalledFor(name: string, texts: string[]): string | null {
  if (!/^[A-Za-z_]\w*$/.test(name)) return null;
  const call = new RegExp(`(?<![\\w.])([a-z_][a-z0-9_]*(?:\\.[a-z_][a-z0-9_]*)*)\\.${name}\\s*\\(`, "g");
  for (const t of texts)
    for (const m of t.matchAll(call)) if (PYTHON_STDLIB.has(m[1]!.split(".")[0]!)) return m[1]!;
  return null;
}

/**
 * `import a.b` for each `a.b.x` the code reads where `a` is a module it imports whole (`import packaging`), an
 * attribute chain that may be a submodule the package does not import itself: every prefix, so the longest one
 * that is a module gets imported (`xml.etree.ElementTree.ElementTree(…)`: `xml.etree` and `xml.etree.ElementTree`,
 * a module named in capitals; issue 12, hold17). Guarded: a chain that is an attribute, not a module, costs
 * nothing, and which it is the sandbox's Python decides when the script runs.
 */
export function submoduleImports(scan: string, importedWhole: Set<string>): string[] {
  const out: string[] = [];
  for (const m of scan.matchAll(/(?<![\w.])([a-z_]\w*)((?:\.[A-Za-z_]\w*)+)\.[A-Za-z_]\w*/g)) {
    const root = m[1]!;
    if (!importedWhole.has(root)) continue;
    const parts = m[2]!.slice(1).split(".");
    for (let i = 1; i <= parts.length; i++) {
      const mod = [root, ...parts.slice(0, i)].join(".");
      if (!out.includes(mod)) out.push(mod);
    }
  }
  return out;
}

/** The modules a snippet imports whole: `import a`, `import a.b` (binds `a`), not `import a as b`. */
export function wholeImports(scan: string): Set<string> {
  const out = new Set<string>();
  for (const m of scan.matchAll(/^[ \t]*import[ \t]+([^\n#;]+)/gm))
    for (const part of m[1]!.split(",")) {
      const p = part.trim();
      if (/\sas\s/.test(p)) continue;
      const root = p.split(".")[0]!.trim();
      if (/^\w+$/.test(root)) out.add(root);
    }
  return out;
}

/** Lines binding a name from the module the report names it under, each guarded (a wrong guess binds nothing). */
export function guardedFromImport(mod: string, name: string): string {
  return `try:\n    from ${mod} import ${name}\nexcept ImportError:\n    pass`;
}

/** Guarded `import a.b` lines (an attribute chain that is no module binds nothing). */
export function guardedImport(mod: string): string {
  return `try:\n    import ${mod}\nexcept ImportError:\n    pass`;
}

/**
 * Python that binds each name to what the package `root` (or one of its submodules, tests skipped) defines under
 * it, when the script runs; a name no module of it defines stays unbound, and the run says so as it would have.
 */
export function packageLookup(root: string, names: string[]): string {
  return [
    "def _retrace_bind_from_package(root, names):",
    "    # Names the snippet uses without an import, looked up in the report's package and its submodules.",
    "    import importlib, itertools, pkgutil",
    "    try:",
    "        package = importlib.import_module(root)",
    "    except Exception:",
    "        return",
    "    wanted = [n for n in names if n not in globals()]",
    "    found = pkgutil.walk_packages(getattr(package, '__path__', []), root + '.', onerror=lambda name: None)",
    "    modules = itertools.chain([root], (m.name for m in found",
    "                                       if 'test' not in m.name and not m.name.rsplit('.', 1)[-1].startswith('_')))",
    "    for name in modules:",
    "        if not wanted:",
    "            break",
    "        try:",
    "            module = importlib.import_module(name)",
    "        except Exception:",
    "            continue",
    "        for n in list(wanted):",
    "            value = vars(module).get(n)",
    "            if value is not None and str(getattr(value, '__module__', name)).startswith(root):",
    "                globals()[n] = value",
    "                wanted.remove(n)",
    "",
    "",
    `_retrace_bind_from_package(${JSON.stringify(root)}, ${JSON.stringify(names)})`,
  ].join("\n");
}

/** A module name the report writes (its root) is a standard one or the report's own package. */
export function knownRoot(mod: string, packages: string[]): boolean {
  const root = mod.split(".")[0]!;
  return PYTHON_STDLIB.has(root) || packages.includes(root);
}
