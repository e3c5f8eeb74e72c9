/**
 * Completing dotted standard-library names (issue 12, hold17): `datetime.fromisoformat(…)` with no import means the
 * class `datetime.datetime` (the module has no such function; the sandbox's Python says so in python-stdlib.ts),
 * and `xml.etree.ElementTree.ElementTree(…)` reads a submodule named in capitals, which must be imported itself.
 * Each class with a counter-example where its rule must not fire. Reports written for these tests.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { submoduleImports, wholeImports } from "../../../src/repro/python-names.ts";
import { PYTHON_MODULE_CLASS_ATTRS } from "../../../src/repro/python-stdlib.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const programOf = (code: string) => {
  const report = parseReport(`# bug\n\n${f}python\n${code}\n${f}\n\nIt raises no error, but it should.\n`);
  const program = completeProgram(report, reportedExpectations(report).invocation);
  return program!.files[program!.entry]!;
};

describe("a module name used for its same-named class", () => {
  it("`datetime.fromisoformat(…)` unbound is `from datetime import datetime`", () => {
    const code = programOf('datetime.fromisoformat("2024-01-17T15:21:00-0800")');
    expect(code).toMatch(/^from datetime import datetime$/m);
    expect(code).not.toMatch(/^import datetime$/m);
    expect(PYTHON_MODULE_CLASS_ATTRS.datetime).toContain("fromisoformat");
  });

  it("must not fire: a module member read beside it, a module without such a class, a report's own import", () => {
    const mixed = programOf("print(datetime.now() + datetime.timedelta(days=1))");
    expect(mixed).toMatch(/^import datetime$/m);
    expect(mixed).not.toMatch(/^from datetime import datetime$/m);
    expect(programOf("print(time.time())")).toMatch(/^import time$/m);
    const own = programOf('import datetime\nprint(datetime.fromisoformat("2024-01-17"))');
    expect(own).not.toMatch(/^from datetime import datetime$/m);
  });
});

describe("a dotted chain through a submodule named in capitals", () => {
  it("imports every prefix before the last name, guarded", () => {
    const scan = 'import xml\ntree = xml.etree.ElementTree.ElementTree(element="")\n';
    expect(submoduleImports(scan, wholeImports(scan))).toEqual(["xml.etree", "xml.etree.ElementTree"]);
    const code = programOf('tree = xml.etree.ElementTree.ElementTree(element="")\ntree.write("file.xml")');
    expect(code).toMatch(/try:\n {4}import xml\.etree\.ElementTree\nexcept ImportError:/);
  });

  it("must not fire: a chain on a name the code binds itself, or imports under another name", () => {
    expect(submoduleImports("tree.Root.Node.find()\n", wholeImports("tree = 1\n"))).toEqual([]);
    expect(submoduleImports("e.etree.ElementTree.X()\n", wholeImports("import xml as e\n"))).toEqual([]);
  });
});

describe("the completed programs run on a real Python 3", () => {
  const python = (() => {
    try {
      execFileSync("python3", ["--version"]);
      return true;
    } catch {
      return false;
    }
  })();
  it.runIf(python)("datetime and ElementTree programs get past our completion", () => {
    const dt = programOf('print(repr(datetime.fromisoformat("2024-01-17T15:21:00")))');
    expect(execFileSync("python3", ["-c", dt], { encoding: "utf8" })).toMatch(
      /^datetime\.datetime\(2024, 1, 17/,
    );
    const et = programOf("print(type(xml.etree.ElementTree.ElementTree()).__name__)");
    expect(execFileSync("python3", ["-c", et], { encoding: "utf8" })).toBe("ElementTree\n");
  });
});
