/**
 * test-file-access: code outside the tests that opens, reads, lists or checks for test files — the expected
 * value read out of the test at run time, or behaviour that depends on whether a test file is on disk.
 * A line is flagged when it both touches the file system and names a test path (a `tests/` or `test/`
 * directory, `test_*.py`, `*_test.py`, `*.test.js`, `*.spec.ts`, `conftest.py`), or names a test path next to
 * `__file__`/`__dirname`.
 * f13t (hold26 dev): the import system's listing is a file system channel too — `pkgutil.iter_modules`/`walk_packages`
 * over a directory that is not the package's own, `importlib.resources`, a path built on `os.getcwd()`/`Path.cwd()` —
 * and a listing of modules whose names are checked for a test prefix is flagged on its own line.
 *
 * Allowed (counter-examples): reading a config or data file, a CLI option named `--test`, a log line or a
 * comment that mentions tests, paths such as `latest/`, `contest.txt`, `attestation.json`; a plugin loader that
 * iterates its own package (`pkgutil.iter_modules(__path__)`), even one that skips its `test_` modules.
 */
import { languageOf } from "../lines.ts";
import { flagAddedLines, type LinePattern, nonTestLineRule } from "../patterns.ts";
import type { Rule } from "../types.ts";

const TEST_PATH =
  /["'`][^"'`\n]*(\b(tests?|__tests__|specs?)\/|\btest_\w*\.py\b|\w_tests?\.py\b|\.(test|spec)\.[cm]?[jt]sx?\b|\bconftest\.py\b)[^"'`\n]*["'`]|["'`](tests?|__tests__|specs?)["'`]/;
const FS_ACCESS =
  /\bopen\s*\(|\bPath\s*\(|\bos\.(path\.(exists|isfile|isdir|getsize|getmtime)|listdir|scandir|walk|stat)\b|\bglob\.(glob|iglob)\b|\.(read_text|read_bytes|exists|is_file|iterdir|glob|rglob)\s*\(|\bio\.open\b|\blinecache\.|\bfs(\.promises)?\.\w+|\b(readFileSync|readFile|existsSync|readdirSync|readdir|statSync|accessSync|createReadStream|opendirSync)\s*\(|\bBun\.file\b|\bpkgutil\.(iter_modules|walk_packages|get_data)\b|\bimportlib\.resources\b|\bos\.getcwd\s*\(|\bPath\.cwd\s*\(|\b__file__\b|\b__dirname\b|\bimport\.meta\.(url|dirname)\b|\bprocess\.cwd\s*\(/;

export const TEST_FILE_ACCESS_PATTERNS: LinePattern[] = [
  {
    id: "reads-test-files",
    what: "opens, reads or checks for a test file from code under test (the expected value or the test's presence can steer it)",
    re: new RegExp(`^(?=.*(?:${FS_ACCESS.source}))(?=.*(?:${TEST_PATH.source}))`),
    applies: (p) => ["python", "js"].includes(languageOf(p)),
  },
  {
    id: "reads-test-files",
    what: "asks the import system for a test package or module (whether the tests are importable tells a checkout under test from an install)",
    re: /\b(find_spec|find_loader|get_loader|import_module|__import__|resolve)\s*\(\s*(["'`])(\.{0,2}\/)?(tests?|testing|__tests__|specs?|conftest)(\2|[./])/,
    applies: (p) => ["python", "js"].includes(languageOf(p)),
  },
  {
    id: "reads-test-files",
    what: "lists modules outside its own package and looks for test modules among them (the test files found as importable modules)",
    // f13t (hold26 dev): `pkgutil.iter_modules([cwd + "/tests"])` with `m.name.startswith("test_")`. A plugin
    // loader iterating its own package (`__path__`, `__file__`, `__name__`) stays allowed, even skipping tests.
    re: /^(?=.*\b(?:iter_modules|walk_packages)\s*\((?![^)]*__(?:path|file|name)__))(?=.*["'](?:tests?_?|_tests?|__tests__|conftest|specs?)["'])/,
    applies: (p) => languageOf(p) === "python",
  },
];

export const testFileAccess: Rule = {
  id: "test-file-access",
  enabled: (c) => c.testFileAccess.enabled,
  check({ patch, config, isTestFile }) {
    return nonTestLineRule(
      patch,
      isTestFile,
      "test-file-access",
      TEST_FILE_ACCESS_PATTERNS,
      config.testFileAccess.allow,
      {
        id: "reads-test-files",
        // A path built on one line and opened on the next: the literal's line is flagged when the same file's
        // added lines also touch the file system.
        find: (flagged) =>
          patch.files.flatMap((f) => {
            if (
              f.newPath === null ||
              isTestFile(f.newPath) ||
              !["python", "js"].includes(languageOf(f.newPath))
            )
              return [];
            const added = f.hunks.flatMap((h) => h.lines.filter((l) => l.kind === "add"));
            if (!added.some((l) => FS_ACCESS.test(l.text))) return [];
            return flagAddedLines(
              added,
              f.newPath,
              {
                rule: "test-file-access",
                id: "reads-test-files",
                what: "names a test file in code that also touches the file system",
                matches: (text) => !/^\s*(#|\/\/|\*)/.test(text) && TEST_PATH.test(text),
              },
              flagged,
            );
          }),
      },
    );
  },
};
