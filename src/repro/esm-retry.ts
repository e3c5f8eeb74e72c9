/**
 * A CommonJS program whose `require()` of an ES-module-only release dies on Node 18 (`ERR_REQUIRE_ESM`) says
 * nothing about the reported bug: newer Node loads such a package with `require()`, and a reader who hits the error
 * writes the same statements with `import`. The same program as an ES module: each unindented
 * `const x = require('m')` (or `{ a, b: c } = require('m')`) becomes an `import * as` of `m` at the top of the
 * module and, where the line was, the same binding taken from it, the module's default export when it has one
 * (what `require()` of it returns elsewhere); anything else that needs CommonJS (`require` elsewhere, `__dirname`)
 * gets Node's own `createRequire` and file names. The imports are hoisted because an `import` parses only at a
 * module's top level, and an unindented line may sit in a block (Retrace runs each of a report's snippets in its
 * own `{ }`); an ES module evaluates its imports first wherever they are written, so hoisting changes nothing.
 * Pure: text in, text out.
 */

const REQUIRE_LINE =
  /^(\s*)(const|let|var)\s+([A-Za-z_$][\w$]*|\{[^{}]*\})\s*=\s*require\(\s*(['"])([^'"\n]+)\4\s*\)(\.default)?\s*;?\s*$/;

/** Whether a failed run's error is Node refusing to `require()` an ES module. */
export function requiresEsModule(exception: { type: string; message: string } | null): boolean {
  if (!exception) return false;
  return (
    /ERR_REQUIRE_ESM/.test(`${exception.type} ${exception.message}`) ||
    /^require\(\) of ES Module\b/.test(exception.message)
  );
}

/**
 * The program rewritten as an ES module with the same statements, or null when there is nothing to rewrite (no
 * top-level `require()` binding) or the code already reads as an ES module.
 */
export function asEsModule(code: string): string | null {
  if (/^[ \t]*(?:import\s[^(]|export\s)/m.test(code)) return null;
  // A `return` at the top of a CommonJS file leaves its module function; an ES module has none to leave.
  if (/^return\b/m.test(code)) return null;
  const lines = code.split("\n");
  let n = 0;
  let rewrote = false;
  const imports: string[] = [];
  const out = lines.map((written) => {
    // `const x = _default(require("m"))`, the interop line of a bundler-style CommonJS program (asBundlerCommonJs):
    // the module's default export when it has one, as for a plain `require` binding.
    const line = written.replace(/=\s*_default\((require\(\s*(['"])[^'"\n]+\2\s*\))\)/, "= $1");
    const m = REQUIRE_LINE.exec(line);
    // Top level only: a require inside a function body keeps its place (createRequire below serves it).
    if (m?.[1] !== "") return written;
    const [, , kind, binding, , spec] = m;
    const ns = `__esm${n++}`;
    rewrote = true;
    const value = binding!.startsWith("{")
      ? `__esmPick(${ns})`
      : m[6]
        ? `${ns}.default`
        : `("default" in ${ns} ? ${ns}.default : ${ns})`;
    imports.push(`import * as ${ns} from ${JSON.stringify(spec)};`);
    // No `;` where the line had none: the statement may go on below (`require('yargs')\n  .option(…)`).
    return `${kind} ${binding} = ${value}${/;\s*$/.test(line) ? ";" : ""}`;
  });
  // `JSON.parse(require("m").default(text))` on an unindented line: a `require()` of a package inside an expression
  // is what Node.js 22's `require()` of an ES module returns, its namespace object (a JSON file or a native addon,
  // and a require inside a function's body, keep `require`, served by createRequire below).
  const inline = new Map<string, string>();
  const body = out
    .map((line) =>
      /^\s/.test(line)
        ? line
        : line.replace(
            /(?<![\w$.])require\(\s*(['"])([^'"\n]+)\1\s*\)/g,
            (whole, _q: string, spec: string) => {
              if (/\.(?:json|node)$/.test(spec) || /\bfunction\b|=>/.test(line)) return whole;
              let ns = inline.get(spec);
              if (ns === undefined) {
                ns = `__esm${n++}`;
                inline.set(spec, ns);
                imports.push(`import * as ${ns} from ${JSON.stringify(spec)};`);
              }
              return ns;
            },
          ),
    )
    .join("\n");
  if (!rewrote && inline.size === 0) return null;
  const prelude: string[] = [...imports];
  if (/__esmPick\(/.test(body))
    prelude.push(
      // Named bindings: the module's named exports over its default export's properties (a CommonJS module's
      // `module.exports` arrives as the default).
      `const __esmPick = (m) => Object.assign({}, m.default != null && (typeof m.default === "object" || typeof m.default === "function") ? m.default : {}, m);`,
    );
  if (/(?<![\w$.])require\s*[(.]/.test(body))
    prelude.push(
      `import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);`,
    );
  if (/(?<![\w$.])__(?:filename|dirname)\b/.test(body))
    prelude.push(
      `import { fileURLToPath as __fileURLToPath } from "node:url"; const __filename = __fileURLToPath(import.meta.url); const __dirname = __filename.replace(/[\\\\/][^\\\\/]*$/, "");`,
    );
  // `urlMatchFn = match([])` with no declaration, as typed at a REPL: CommonJS allows it, a (strict) ES module
  // does not; the name is declared so the statement means what it did.
  const declared = new Set(
    [...body.matchAll(/\b(?:const|let|var|function\*?|class)\s+([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!),
  );
  const undeclared = [
    ...new Set(
      [...body.matchAll(/^([A-Za-z_$][\w$]*)\s*=(?![=>])/gm)]
        .map((m) => m[1]!)
        .filter((name) => !declared.has(name) && !["module", "exports", "require"].includes(name)),
    ),
  ];
  if (undeclared.length > 0) prelude.push(`var ${undeclared.join(", ")};`);
  if (/(?<![\w$.])(?:module\.exports|exports\.[\w$]+\s*=)/.test(body))
    prelude.push("const module = { exports: {} }; const exports = module.exports;");
  // `"use strict"` stays first (an ES module is strict anyway).
  return `${prelude.join("\n")}${prelude.length > 0 ? "\n" : ""}${body}`;
}

/** The entry's name as an ES module: `reproduction.cjs` → `reproduction.mjs`, `test.js` → `test.mjs`. */
export function esModuleEntry(entry: string): string {
  return entry.replace(/\.(?:c?js)$/, "") + ".mjs";
}
