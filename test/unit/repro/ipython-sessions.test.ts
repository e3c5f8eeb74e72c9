/**
 * IPython sessions (`In [5]: …`, `   ...: …`, `Out[5]: …`) are REPL transcripts, read the way a `>>>` session
 * is, whatever their fence says; ordinary Python code is left alone.
 */
import { describe, expect, it } from "vitest";
import { classifyBlock } from "../../../src/repro/classify-block.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import {
  ipythonAsPycon,
  parseTranscript,
  pythonScriptFromTranscript,
} from "../../../src/repro/transcript.ts";
import { cpuMs } from "../../support/cpu-time.ts";

const f = "```";
const report = (fence: string, body: string) =>
  `# parse() is wrong\n\nThe value below is wrong.\n\n${f}${fence}\n${body}\n${f}\n`;

describe("an IPython session with an echoed value", () => {
  const session = [
    "In [1]: from dateutil.parser import parse",
    "",
    "In [2]: parse('2020-01-02', dayfirst=True)",
    "Out[2]: datetime.datetime(2020, 2, 1, 0, 0)",
  ].join("\n");

  it("is a transcript whatever the fence says", () => {
    for (const fence of ["python", "ipython", "", "py", "text"])
      expect(classifyBlock(fence || null, session).kind).toBe("python-transcript");
  });

  it("echoes the typed expression, and the Out[N] value (without its label) is the reported output", () => {
    const t = parseTranscript(session, "python");
    expect(t.inputs).toEqual(["from dateutil.parser import parse", "parse('2020-01-02', dayfirst=True)"]);
    expect(t.output).toEqual(["datetime.datetime(2020, 2, 1, 0, 0)"]);
    expect(t.errorText).toBeNull();
    expect(pythonScriptFromTranscript(t)).toContain("\n_echo(parse('2020-01-02', dayfirst=True))\n");
  });

  it("becomes the report's program and its claim, not code that does not parse", () => {
    const parsed = parseReport(report("python", session));
    expect(parsed.blocks.map((b) => b.kind)).toEqual(["python-transcript"]);
    const program = completeProgram(parsed);
    expect(program).not.toBeNull();
    const code = program!.files[program!.entry]!;
    expect(code).not.toContain("In [");
    expect(code).toContain("_echo(parse('2020-01-02', dayfirst=True))");
    expect(reportedExpectations(parsed).actual).toMatchObject({
      kind: "output",
      output: ["datetime.datetime(2020, 2, 1, 0, 0)"],
    });
  });
});

describe("notes between IPython cells", () => {
  it("a `# …` line after the blank line that ends a cell is the reporter's note, not output; a printed `#` line is output", () => {
    const session = [
      "In [1]: periods.parse('P1W')",
      "Out[1]: periods.Period(days=7)",
      "",
      "# the month is dropped here, but kept above",
      "In [2]: periods.parse('P1M')",
      "Out[2]: periods.Period(days=0)",
      "",
      "In [3]: print('#NUM  A\\n1     x')",
      "#NUM  A",
      "1     x",
    ].join("\n");
    const t = parseTranscript(session, "python");
    expect(t.output).toEqual(["periods.Period(days=7)", "periods.Period(days=0)", "#NUM  A", "1     x"]);
  });
});

describe("IPython statements", () => {
  it("a print's lines are its output (the None it returns is not echoed)", () => {
    const t = parseTranscript("In [3]: print(sorted({'b', 'a'}))\n['a', 'b']\n", "python");
    expect(t.inputs).toEqual(["print(sorted({'b', 'a'}))"]);
    expect(t.output).toEqual(["['a', 'b']"]);
    // `sys.displayhook` skips None, as IPython does: the replay prints the list once.
    expect(pythonScriptFromTranscript(t)).toContain("\n_echo(print(sorted({'b', 'a'})))\n");
  });

  it("a statement continued on `...:` lines is one statement, its indentation kept", () => {
    const session = [
      "In [7]: def total(xs):",
      "   ...:     s = 0",
      "   ...:     for x in xs:",
      "   ...:         s += x",
      "   ...:     return s",
      "   ...:",
      "",
      "In [8]: total([1, 2, 3])",
      "Out[8]: 7",
    ].join("\n");
    const t = parseTranscript(session, "python");
    expect(t.inputs).toEqual([
      "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s",
      "total([1, 2, 3])",
    ]);
    expect(t.output).toEqual(["7"]);
    const script = pythonScriptFromTranscript(t);
    expect(script).toContain("def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n");
    expect(script).toContain("_echo(total([1, 2, 3]))");
  });

  it("a value printed under a bare `Out[N]:` is the output", () => {
    const t = parseTranscript("In [2]: d\nOut[2]:\n{'a': 1,\n 'b': 2}\n", "python");
    expect(t.output).toEqual(["{'a': 1,", " 'b': 2}"]);
  });

  it("a statement ending in `;` shows no value (IPython prints none) and still runs", () => {
    const t = parseTranscript(
      "In [1]: import os\nIn [2]: os.getcwd();\nIn [3]: 1 + 1\nOut[3]: 2\n",
      "python",
    );
    const script = pythonScriptFromTranscript(t);
    expect(script).toContain("\nos.getcwd();\n");
    expect(script).not.toContain("_echo(os.getcwd()");
    expect(script).toContain("_echo(1 + 1)");
  });

  it("magics and help requests are not Python: left out with what they printed", () => {
    const session = [
      "In [1]: !pip install foo==1.0",
      "Collecting foo==1.0",
      "In [2]: %timeit sum(range(10))",
      "   ...: ",
      "241 ns ± 1.2 ns per loop",
      "In [3]: sum?",
      "In [4]: sum(range(4))",
      "Out[4]: 6",
    ].join("\n");
    const t = parseTranscript(session, "python");
    expect(t.inputs).toEqual(["sum(range(4))"]);
    expect(t.output).toEqual(["6"]);
  });
});

describe("an IPython traceback", () => {
  const session = [
    "In [1]: import json",
    "",
    "In [2]: json.loads('{')",
    "---------------------------------------------------------------------------",
    "JSONDecodeError                           Traceback (most recent call last)",
    "Cell In[2], line 1",
    "----> 1 json.loads('{')",
    "",
    "File /usr/lib/python3.11/json/__init__.py:346, in loads(s, cls, object_hook, **kw)",
    "",
    "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
  ].join("\n");

  it("is the session's error, not printed output", () => {
    const t = parseTranscript(session, "python");
    expect(t.output).toEqual([]);
    expect(t.errorText).toMatch(
      /^Traceback \(most recent call last\):\n {2}Cell In\[2\], line 1\n {2}----> 1/,
    );
    expect(t.errorText).toMatch(/\nJSONDecodeError: Expecting property name/);
    expect(pythonScriptFromTranscript(t)).toMatch(/\n_echo\(json\.loads\('\{'\)\)\n$/);
  });

  it("is the reported exception", () => {
    const actual = reportedExpectations(parseReport(report("ipython", session))).actual;
    expect(actual.exceptionType).toMatch(/JSONDecodeError$/);
    expect(actual.exceptionMessage).toBe(
      "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
    );
  });

  it("an error before the last goes on to the next prompt, as the session did", () => {
    const t = parseTranscript(
      [
        "In [1]: int('x')",
        "---------------------------------------------------------------------------",
        "ValueError                                Traceback (most recent call last)",
        "<ipython-input-1-3b1e> in <module>",
        "----> 1 int('x')",
        "",
        "ValueError: invalid literal for int() with base 10: 'x'",
        "",
        "In [2]: int('y')",
        "---------------------------------------------------------------------------",
        "ValueError                                Traceback (most recent call last)",
        "ValueError: invalid literal for int() with base 10: 'y'",
      ].join("\n"),
      "python",
    );
    expect(t.raised).toEqual([0, 1]);
    expect(pythonScriptFromTranscript(t)).toContain("try:\n    _echo(int('x'))\nexcept BaseException:");
  });
});

describe("a report mixing an IPython session with other blocks", () => {
  it("reads the session as a transcript and leaves the script and its output as they are", () => {
    const md = [
      "# round() is off",
      "",
      "My module:",
      "",
      `${f}python`,
      "def half(x):",
      "    return round(x / 2)",
      f,
      "",
      "In a session:",
      "",
      `${f}python`,
      "In [1]: from mymod import half",
      "",
      "In [2]: half(5)",
      "Out[2]: 2",
      f,
      "",
      "Expected:",
      "",
      f,
      "3",
      f,
    ].join("\n");
    const parsed = parseReport(md);
    expect(parsed.blocks.map((b) => b.kind)).toEqual(["code", "python-transcript", "output"]);
    expect(parsed.blocks[0]!.value).toBe("def half(x):\n    return round(x / 2)");
    expect(parsed.blocks[1]!.value).toBe(">>> from mymod import half\n\n>>> half(5)\n2");
  });
});

describe("ordinary Python is not an IPython session", () => {
  it("a file is code, untouched", () => {
    const code = "import sys\n\ndef main():\n    print(sys.argv)\n\nmain()\n";
    expect(ipythonAsPycon(code)).toBeNull();
    expect(classifyBlock("python", code).kind).toBe("code");
  });

  it("a file whose docstring shows an IPython example is still code", () => {
    const code = 'def f():\n    """Example:\n\nIn [1]: f()\nOut[1]: 1\n"""\n    return 1\n';
    expect(ipythonAsPycon(code)).toBeNull();
    expect(classifyBlock("python", code).kind).toBe("code");
  });

  it("a `>>>` session is read as before", () => {
    const pycon = ">>> x = [1]\n>>> x\n[1]\n";
    expect(ipythonAsPycon(pycon)).toBeNull();
    const t = parseTranscript(pycon, "python");
    expect(t.inputs).toEqual(["x = [1]", "x"]);
    expect(t.output).toEqual(["[1]"]);
  });

  it("a session started by `python3 -m IPython` at a shell prompt is one", () => {
    const t = parseTranscript(
      "user@host:~$ python3 -m IPython\n\nIn [1]: 'ab' * 2\nOut[1]: 'abab'\n",
      "python",
    );
    expect(t.inputs).toEqual(["'ab' * 2"]);
    expect(t.output).toEqual(["'abab'"]);
  });

  it("a long line before the first prompt is not a banner, and is read at once", () => {
    const { value, ms } = cpuMs(() => ipythonAsPycon(`${" ".repeat(60_000)}x\nIn [1]: 1\nOut[1]: 1`));
    expect(value).toBeNull();
    expect(ms).toBeLessThan(2000);
  });

  it("an IPython session after its launch and banner is still one", () => {
    const session = [
      "$ ipython",
      "Python 3.11.4 (main, Jun  7 2023, 00:00:00) [GCC 12.2.0]",
      "Type 'copyright', 'credits' or 'license' for more information",
      "IPython 8.14.0 -- An enhanced Interactive Python. Type '?' for help.",
      "",
      "In [1]: 2 ** 10",
      "Out[1]: 1024",
    ].join("\n");
    const t = parseTranscript(session, "python");
    expect(t.inputs).toEqual(["2 ** 10"]);
    expect(t.output).toEqual(["1024"]);
  });
});
