/**
 * `python -m <module>` typed at a prompt: a module of the standard library run as `__main__` with the typed
 * arguments (a real report: `> python -m pprint` ending in pprint's own TypeError). And a block named like that
 * module which the report shows inside a Python installation (`…\Python310\lib\pprint.py`) is a quotation of the
 * library's source: it is not written beside the program, where it would replace the module. Reports written for
 * these tests, in the shape of the real one.
 */
import { describe, expect, it } from "vitest";
import { completeProgram, quotedLibrarySource } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { moduleProgram, parseShellSession } from "../../../src/repro/shell-session.ts";

const f = "```";

describe("python -m at a prompt", () => {
  it("runs a standard-library module as __main__ with its arguments, and reads what it printed", () => {
    const runs = parseShellSession(
      '$ python3 -m json.tool --sort-keys in.json\nTraceback (most recent call last):\n  File "x", line 1\nValueError: bad\n',
    );
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      interpreter: "python3",
      runtime: "python",
      errorText: expect.stringMatching(/^Traceback/),
    });
    expect(runs[0]!.code).toBe(moduleProgram("json.tool", ["--sort-keys", "in.json"]));
    expect(runs[0]!.code).toContain(
      '_module_globals = runpy.run_module("json.tool", run_name="__main__", alter_sys=True)',
    );
    expect(runs[0]!.code).toContain('sys.argv = ["json.tool","--sort-keys","in.json"]');
  });

  it("reads cmd.exe's `>` prompt when python follows", () => {
    const runs = parseShellSession("> python -m pprint\nTypeError: x\n");
    expect(runs.map((r) => r.code)).toEqual([moduleProgram("pprint", [])]);
  });

  it("counter-examples: pip (an install), a package's module, and text that is no prompt are not module runs", () => {
    expect(parseShellSession("$ python -m pip install requests==2.31.0\n")).toEqual([]);
    expect(parseShellSession("$ python -m pytest tests/\n1 failed\n")).toEqual([]);
    expect(parseShellSession("$ python -m mypackage.cli --help\nusage: …\n")).toEqual([]);
    expect(parseShellSession("run python -m pprint to see it\n")).toEqual([]);
  });
});

describe("a quoted standard-library source", () => {
  const traceback =
    '  File "C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python310\\lib\\pprint.py", line 645, in _perfcheck';

  it("is a stdlib module's file the report shows in a Python installation's lib directory", () => {
    expect(quotedLibrarySource("pprint.py", [traceback])).toBe(true);
    expect(quotedLibrarySource("pprint.py", ['  File "/usr/lib/python3.11/pprint.py", line 9'])).toBe(true);
  });

  it("counter-examples: the reporter's own file of a stdlib name, another file in lib, a non-stdlib name", () => {
    // A script the reporter named `random.py` may itself be the bug (it shadows the module): it is kept.
    expect(quotedLibrarySource("random.py", ['  File "/home/me/proj/random.py", line 3'])).toBe(false);
    expect(quotedLibrarySource("pprint.py", ['  File "/usr/lib/python3.11/json/decoder.py"'])).toBe(false);
    expect(quotedLibrarySource("pprint.py", ['  File "/usr/lib/python3.11/pprint.pyc"'])).toBe(false);
    expect(quotedLibrarySource("mylib.py", ['  File "/usr/lib/python3.11/mylib.py"'])).toBe(false);
    expect(quotedLibrarySource(null, [traceback])).toBe(false);
  });

  it("leaves the quotation out of a report's program, which runs the module from the runtime", () => {
    const md = `# python -m pprint raises\n\n${f}\n> python -m pprint\nTraceback (most recent call last):\n${traceback}\n    p._safe_repr(object, {}, None, 0, True)\nTypeError: PrettyPrinter._safe_repr() takes 5 positional arguments but 6 were given\n${f}\n\nIn \`pprint.py\`:\n\n${f}\nclass PrettyPrinter:\n   ...\n   self._safe_repr(self, object, context, maxlevels, level):\n   ...\n\ndef _perfcheck(object=None):\n    p = PrettyPrinter()\n    p._safe_repr(object, {}, None, 0, True)\n\nif __name__ == "__main__":\n    _perfcheck()\n${f}\n`;
    const parsed = parseReport(md);
    const program = completeProgram(parsed, reportedExpectations(parsed).invocation)!;
    expect(Object.keys(program.files)).toEqual([program.entry]);
    expect(program.files[program.entry]).toContain('runpy.run_module("pprint"');
    expect(program.files[program.entry]).not.toContain("_echo(");
    expect(program.completions).toContainEqual(
      expect.stringMatching(/^left out `pprint\.py`: the report quotes the standard library's own source/),
    );
  });
});
