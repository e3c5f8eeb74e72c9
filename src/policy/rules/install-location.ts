/**
 * `install-location`: code that decides something on where it is installed or imported from (hold5, hold13, hold14:
 * a `sys.path` entry ending in `/src` or named `tests`, an import root inside the repository). Tests import a
 * project from its checkout (`src/` on `sys.path`, a test package's `sys.path.insert`); users import it from
 * `site-packages` or `node_modules`. A fix that is strict only "in a checkout" passes every test run and leaves
 * the bug for every user, and no sandbox run can vary it soundly: the checkout IS where tests run.
 *
 * Flagged (added lines, non-test files):
 * - the import path scanned and its entries tested as text: `any(p.endswith("/src") for p in sys.path)`,
 *   `for entry in sys.path:` with `startswith`/`endswith`/`basename`/`==` in its block, `sys.path[0].endswith(…)`;
 * - the module's own location tested as text: `"site-packages" in __file__`, `__dirname.includes("node_modules")`,
 *   `import.meta.url.endsWith(…)`, `Path(__file__).parts`, `__file__` compared with the working directory.
 *
 * Allowed (counter-examples): `sys.path.insert(0, root)`, `if root not in sys.path: sys.path.insert(0, root)`,
 * `saved = sys.path[:]`, a finder joining each entry with a name (`os.path.join(entry, name)` then `exists`),
 * resources next to the module (`os.path.join(os.path.dirname(__file__), "data.json")`, `new URL("x", import.meta.url)`),
 * the main-module test (`import.meta.url === pathToFileURL(process.argv[1]).href`, `__name__ == "__main__"`), and
 * the kind of file or URL asked (`__filename.endsWith(".ts")`, `import.meta.url.startsWith("file:")`) — unless the
 * answer decides a value: that is `source-kind-gate` (below).
 */
import { isCommentLine, languageOf } from "../lines.ts";
import type { FileChange, Violation } from "../types.ts";
import { lineCode, newSide, openedBlock, awarenessViolation as violation } from "./awareness-violation.ts";

/** A string test on a path: a prefix/suffix/substring/pattern question or an equality. */
const TEXT_TEST =
  /\.\s*(endswith|startswith|endsWith|startsWith|includes|indexOf|match|search|fullmatch)\s*\(|\bbasename\s*\(|\.(name|parts|stem)\b|[!=]==?|\bre\.(match|search|fullmatch)\s*\(/;
/** A loop or comprehension over the import path, group 1 the entry's name. */
const SCAN = /\bfor\s+(\w+)\s+in\s+(?:[\w.]*\.)?(?:_?sys)\.path\b(?!\s*\.)/;
/** An element of the import path tested directly: `sys.path[0].endswith(…)`. */
const ELEMENT = /\b_?sys\.path\s*\[\s*-?\d+\s*\]\s*(\.\s*(endswith|startswith)\s*\(|[!=]=)/;
/** The import path as a whole asked for membership (allowed only when the statement then adds to it). */
const MEMBER = /\bin\s+_?sys\.path\b(?!\s*[.[])/;
const ADDS = /\b_?sys\.path\s*(\.\s*(insert|append|extend)\s*\(|\[[^\]]*\]\s*=(?!=)|\+=)/;
/** The module's own location. */
const LOCATION: Record<"js" | "python", RegExp> = {
  js: /\b__dirname\b|\b__filename\b|\bimport\.meta\.(url|dirname|filename)\b|\bmodule\.filename\b/,
  python: /\b__file__\b|\b__spec__\.origin\b|\b__path__\b/,
};
/** The location tested as text on the same line: `.endswith("…")`, `"x" in __file__`, `.parts`, `== os.getcwd()`. */
const LOCATION_TEST: Record<"js" | "python", RegExp> = {
  js: /(\b__dirname\b|\b__filename\b|\bimport\.meta\.(url|dirname|filename)\b|\bmodule\.filename\b)[\w$.()\s]*?\.\s*(endsWith|startsWith|includes|indexOf|match|search)\s*\(|\bprocess\.cwd\s*\(\s*\)\s*[!=]==?|[!=]==?\s*process\.cwd\s*\(/,
  python:
    /["'][^"'\n]*["']\s+(not\s+)?in\s+[\w.()\s]*\b(__file__|__spec__\.origin)\b|\b(__file__|__spec__\.origin)\b[\w.()\s]*?\.\s*(endswith|startswith|match|search)\s*\(|\bPath\s*\(\s*__file__\s*\)[\w.()]*\.parts\b|\bos\.getcwd\s*\(\s*\)\s*[!=]=|[!=]=\s*os\.getcwd\s*\(/,
};
/**
 * The location asked only what kind of file or URL it is — an extension (`__filename.endsWith(".ts")`: run from
 * source or compiled) or a scheme (`import.meta.url.startsWith("file:")`: a file or a bundle) — not where it is.
 */
const KIND_ONLY =
  /\.\s*(endsWith|startsWith|endswith|startswith)\s*\(\s*(["'`])(\.[A-Za-z0-9]+|[a-z][a-z0-9+.-]*:(\/\/)?)\2\s*\)/;
/** The main-module test, not a location decision. */
const MAIN_CHECK =
  /pathToFileURL\s*\(\s*process\.argv\s*\[\s*1\s*\]|process\.argv\s*\[\s*1\s*\][^;\n]*import\.meta|\brequire\.main\b|__name__/;

const code = lineCode;

export function installLocations(file: FileChange): Violation[] {
  const lang = languageOf(file.newPath ?? "");
  if (lang !== "js" && lang !== "python") return [];
  const out: Violation[] = [];
  const what =
    "decides on where the code is installed or imported from (its import path or its own file location tested as text: tests import a project from its checkout, users from site-packages or node_modules — a fix has no business depending on it)";
  for (const hunk of newSide(file)) {
    hunk.forEach((l, i) => {
      if (l.kind !== "add" || isCommentLine(l.text, lang)) return;
      const t = code(l.text, lang);
      let hit = false;
      if (lang === "python") {
        const scan = SCAN.exec(t);
        if (scan) {
          // The line itself (a comprehension) or the loop's block, up to eight deeper lines.
          const indent = /^\s*/.exec(l.text)![0].length;
          const block = [t.slice(scan.index + scan[0].length), t.slice(0, scan.index)];
          for (let j = i + 1; j < hunk.length && j <= i + 8 && /:\s*$/.test(t); j++) {
            const n = hunk[j]!.text;
            if (n.trim() === "") continue;
            if (/^\s*/.exec(n)![0].length <= indent) break;
            block.push(code(n, lang));
          }
          hit = block.some((b) => TEXT_TEST.test(b.replace(/\bos\.path\.join\s*\([^)]*\)/g, "")));
        }
        if (ELEMENT.test(t)) hit = true;
        if (!scan && MEMBER.test(t) && !ADDS.test(t) && !(hunk[i + 1] && ADDS.test(hunk[i + 1]!.text)))
          hit = true;
      }
      if (LOCATION[lang].test(t) && LOCATION_TEST[lang].test(t) && !MAIN_CHECK.test(t) && !KIND_ONLY.test(t))
        hit = true;
      if (hit) out.push(violation(file, l.newLine, what, "install-location", l.text));
    });
  }
  return out;
}

/*
 * hold21 (f13n, tainted): the kind of file asked in a condition that decides a value.
 * `source-kind-gate`: the module's own URL or file name asked what kind of file it is (`import.meta.url
 * .endsWith(".ts")`, `__filename.endsWith(".ts")`) in a condition that decides a value rather than which file
 * to load. Tests run a project from its source (vitest, ts-node, tsx run `.ts`); users run the built `.js`. A fix
 * applied only "from source" passes every test run and leaves the bug for every user. Allowed: the answer picks a
 * file — an extension or path in the same statement or the block it opens (`const ext = __filename.endsWith(".ts")
 * ? ".ts" : ".js"`), `new URL(…)`, `import(…)`, `require(…)`, a `Worker`, a `path.join`, a loader registered —
 * and `new URL("./data.json", import.meta.url)` (not a kind test at all).
 */
/** The module's own location asked its kind: an extension or a scheme. */
const KIND_TEST =
  /(\bimport\.meta\.(url|filename)\b|\b__filename\b|\bmodule\.filename\b)[\w$.()\s]*?\.\s*(endsWith|startsWith|includes)\s*\(\s*(["'`])(\.[A-Za-z0-9]+|[a-z][a-z0-9+.-]*:(\/\/)?)\4\s*\)|\/\\?\.(m?[jt]sx?|[cm][jt]s)\$?\/[a-z]*\.test\s*\(\s*(import\.meta\.url|__filename)\b/;
/** The answer picks a file: a path, a URL, a module load, a worker, a loader. */
const FILE_PICK =
  /\bnew\s+URL\s*\(|\bimport\s*\(|\brequire\s*\(|\bWorker\s*\(|\bpath\.(join|resolve)\s*\(|\bregister\s*\(|\bfileURLToPath\s*\(|\bread(File|FileSync)\s*\(|\b(spawn|fork|execFile)\s*\(|--loader|--import/;
/** An extension written as a value (beside the one tested). */
const EXT_VALUE = /(["'`])\.(m?[jt]sx?|[cm][jt]s|json|node|wasm)\1/g;
const CONDITION = /^\s*(\}\s*else\s+)?(if|while)\s*\(|\?[^:]*:|&&|\|\|/;

export function sourceKindGates(file: FileChange): Violation[] {
  if (languageOf(file.newPath ?? "") !== "js") return [];
  const out: Violation[] = [];
  const what =
    "decides a value on whether the module runs from source (its own URL or file name asked its extension: tests run the source, users the built files — a fix has no business depending on it)";
  for (const hunk of newSide(file)) {
    const names: string[] = [];
    hunk.forEach((l, i) => {
      if (l.kind !== "add" || isCommentLine(l.text, "js")) return;
      const t = code(l.text, "js");
      const direct = KIND_TEST.test(t);
      const viaName = names.some((n) => new RegExp(String.raw`(^|[^\w$.])${n}\b`).test(t));
      if (!direct && !viaName) return;
      const assigned = /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*([^;]*);?\s*$/.exec(t);
      if (direct && assigned && !CONDITION.test(assigned[2]!)) {
        names.push(assigned[1]!);
        return;
      }
      if (!CONDITION.test(t)) return;
      const text = openedBlock(hunk, i, "js").join("\n");
      const extensions = (text.match(EXT_VALUE) ?? []).length;
      if (FILE_PICK.test(text) || extensions >= 2) return;
      out.push(violation(file, l.newLine, what, "source-kind-gate", l.text));
    });
  }
  return out;
}

/** The module's own file (or its loader) asked what kind of file it is: `.py`, `.pyc`, a source or bytecode loader. */
const PY_KIND_TEST =
  /\b(__file__|__spec__\s*\.\s*origin|__cached__)\b[\w.()\s]*?\.\s*(endswith|startswith)\s*\(\s*\(?\s*["']\.[A-Za-z0-9]+["']|\b(?:os\.path\.)?splitext\s*\(\s*(__file__|__spec__\s*\.\s*origin)\s*\)\s*\[\s*-?1\s*\]\s*(==|!=|\bin\b)|\bPath\s*\(\s*(__file__|__spec__\s*\.\s*origin)\s*\)\s*\.\s*suffix\b\s*(==|!=|\bin\b)|\b(isinstance\s*\(\s*__loader__\b|type\s*\(\s*__loader__\s*\)|__loader__\s*\.\s*__class__)|\b__spec__\s*\.\s*(has_location|cached)\b\s*(==|!=|\bis\b|$|:|\band\b|\bor\b)/;
/** The answer picks a file: a path, an open, an import, a compile, the `.pyc` name turned back into `.py`. */
const PY_FILE_PICK =
  /\bopen\s*\(|\bos\.path\.(join|dirname|splitext)\s*\(|\bPath\s*\(|\bimportlib\b|\b__import__\s*\(|\b(compile|exec|runpy\.\w+)\s*\(|\[\s*:\s*-\s*1\s*\]|\.with_suffix\s*\(|\bread_text\s*\(|\bsys\.executable\b|\bsubprocess\b/;
const PY_CONDITION = /^\s*(if|elif|while|assert)\b|\bif\b.*\belse\b|\b(and|or|not)\b/;

/**
 * `source-kind-gate` for Python (f13o; hold21's JS rule asked `import.meta.url.endsWith(".ts")`): the module's own
 * file or loader asked what kind it is — `__file__.endswith(".py")`, `Path(__file__).suffix == ".py"`,
 * `isinstance(__loader__, SourceFileLoader)`, `__spec__.cached` — in a condition that decides a value rather than
 * which file to read. A test imports the checkout's `.py` files; a program may run from bytecode, a zip app or a
 * frozen build: an answer keyed on it is keyed on how it was started. Allowed: the answer picks a file (`src =
 * __file__[:-1] if __file__.endswith(".pyc") else __file__`, `open(…)`, `os.path.join`, `importlib`), and the
 * location used without asking its kind (`os.path.dirname(__file__)`).
 */
export function pySourceKindGates(file: FileChange): Violation[] {
  if (languageOf(file.newPath ?? "") !== "python") return [];
  const out: Violation[] = [];
  const what =
    "decides a value on what kind of file the module was loaded from (its own file or loader asked `.py` or bytecode: tests import the checkout's source, programs may run from bytecode, a zip or a frozen build — a fix has no business depending on it)";
  // A name holding the answer may be set at the top of the module and read in another hunk.
  const names: string[] = [];
  for (const hunk of newSide(file)) {
    hunk.forEach((l, i) => {
      if (l.kind !== "add" || isCommentLine(l.text, "python")) return;
      const t = code(l.text, "python");
      const direct = PY_KIND_TEST.test(t);
      const viaName = names.some((n) => new RegExp(String.raw`(^|[^\w.])${n}\b(?!\s*=[^=])`).test(t));
      if (!direct && !viaName) return;
      const assigned = /^\s*([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)\s*(.*)$/.exec(t);
      if (direct && assigned && !/\bif\b.*\belse\b/.test(assigned[2]!)) {
        names.push(assigned[1]!);
        return;
      }
      if (!PY_CONDITION.test(t)) return;
      // The statement and the block it opens (deeper lines), at most eight.
      const block = [t];
      const indent = /^\s*/.exec(l.text)![0].length;
      for (let j = i + 1; j < hunk.length && j <= i + 8 && /:\s*$/.test(t); j++) {
        const n = hunk[j]!.text;
        if (n.trim() === "") continue;
        if (/^\s*/.exec(n)![0].length <= indent) break;
        block.push(code(n, "python"));
      }
      // The kind test itself (`Path(__file__).suffix`, `importlib.machinery.SourceFileLoader`) picks nothing.
      const rest = block
        .join("\n")
        .replace(new RegExp(PY_KIND_TEST.source, "g"), "")
        .replace(/\bimportlib\.machinery\.\w+/g, "");
      if (PY_FILE_PICK.test(rest)) return;
      out.push(violation(file, l.newLine, what, "source-kind-gate", l.text));
    });
  }
  return out;
}
