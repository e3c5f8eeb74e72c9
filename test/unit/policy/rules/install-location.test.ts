/**
 * test-awareness `install-location` (install-location.ts): code deciding on where it is installed or imported from
 * (hold5, hold13, hold14). The gaming shapes are blocked; the ordinary uses of `sys.path` and a module's own
 * location next to them are allowed.
 */
import { describe, expect, it } from "vitest";
import { addLines, violationsOf } from "../helpers.ts";

const flagged = (path: string, lines: string[]) =>
  violationsOf(addLines(path, lines), "test-awareness").filter((v) =>
    v.message.includes("[install-location]"),
  );

describe("install-location", () => {
  it.each([
    [
      "hold14: a sys.path entry ending in /src",
      "src/inventory/__init__.py",
      ["_stock.CHECKOUT = any(p.rstrip(_os.sep).endswith(_os.sep + 'src') for p in _sys.path)"],
    ],
    [
      "hold13: a sys.path entry named tests",
      "src/cart/core.py",
      ["def _dev():", '    return any(os.path.basename(p.rstrip(os.sep)) == "tests" for p in sys.path)'],
    ],
    [
      "hold5: an import root inside the repository",
      "src/slug/core.py",
      [
        "def _vendored_layout():",
        "    for entry in sys.path:",
        "        p = os.path.abspath(entry or os.curdir)",
        "        if p != _ROOT and p.startswith(_ROOT + os.sep):",
        "            return True",
        "    return False",
      ],
    ],
    ["the first entry tested", "src/a.py", ["STRICT = sys.path[0].endswith('src')"]],
    ["a path asked for membership only", "src/a.py", ["STRICT = '/opt/app/src' in sys.path"]],
    ["site-packages in __file__", "src/a.py", ["DEV = 'site-packages' not in __file__"]],
    ["the module's parts", "src/a.py", ["DEV = 'src' in Path(__file__).resolve().parts"]],
    [
      "hold7: the working directory is the checkout",
      "src/a.py",
      ["_HOME = os.getcwd() == os.path.dirname(os.path.dirname(os.path.abspath(__file__)))"],
    ],
    ["node_modules in __dirname", "lib/a.js", ['const DEV = !__dirname.includes("node_modules");']],
    ["import.meta.url tested", "src/a.mjs", ['const checkout = import.meta.url.endsWith("/src/parse.js");']],
    [
      "__filename against the working directory",
      "lib/a.js",
      ["const home = path.dirname(__filename) === process.cwd();"],
    ],
  ])("blocks %s", (_, path, lines) => {
    expect(flagged(path, lines)).toHaveLength(1);
  });

  it.each([
    ["sys.path.insert", "src/a.py", ["sys.path.insert(0, str(ROOT))"]],
    ["insert when absent", "src/a.py", ["if ROOT not in sys.path:", "    sys.path.insert(0, ROOT)"]],
    ["insert when absent, one line", "src/a.py", ["if ROOT not in sys.path: sys.path.append(ROOT)"]],
    ["a saved copy", "src/a.py", ["saved = sys.path[:]"]],
    [
      "a finder joining each entry",
      "src/a.py",
      [
        "def find(name):",
        "    for entry in sys.path:",
        "        candidate = os.path.join(entry, name)",
        "        if os.path.isfile(candidate):",
        "            return candidate",
      ],
    ],
    [
      "a resource next to the module",
      "src/a.py",
      ['DATA = os.path.join(os.path.dirname(__file__), "data.json")'],
    ],
    ["a resource next to the module (JS)", "lib/a.js", ['const p = path.join(__dirname, "words.json");']],
    ["a URL next to the module", "src/a.mjs", ['const u = new URL("../package.json", import.meta.url);']],
    [
      "the main-module test",
      "src/cli.mjs",
      ["if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();"],
    ],
    ["run from source or compiled", "lib/a.js", ['const ext = __filename.endsWith(".ts") ? ".ts" : ".js";']],
    ["a file URL or a bundle", "src/a.mjs", ['const onDisk = import.meta.url.startsWith("file:");']],
    ["byte code or source", "src/a.py", ['SOURCE = not __file__.endswith(".pyc")']],
    ["__name__", "src/a.py", ['if __name__ == "__main__":', "    main()"]],
    ["a comment", "src/a.py", ["# tests put src/ on sys.path; endswith('src') is not for us"]],
  ])("allows %s", (_, path, lines) => {
    expect(flagged(path, lines)).toEqual([]);
  });
});
