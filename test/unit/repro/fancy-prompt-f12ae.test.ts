/**
 * A themed shell prompt with no `$` (issue 12, hold22 ordereddict-119004): ` user@host  ~/projects  python3.11
 * crash.py`, a status mark perhaps in front, is the command line `$ python3.11 crash.py`, never code. Prompts
 * written for these tests.
 */
import { describe, expect, it } from "vitest";
import { fancyPromptAsDollar } from "../../../src/repro/fancy-prompt.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";

describe("a themed prompt", () => {
  it("is read as the `$` command it stands for", () => {
    expect(
      fancyPromptAsDollar(
        " ann@box  ~/work  python3.11 crash.py\n0\n[1]    1234 segmentation fault  python3.11 crash.py\n ✘  ann@box  ~/work  python3.12 crash.py\nFalse",
      ),
    ).toBe(
      "$ python3.11 crash.py\n0\n[1]    1234 segmentation fault  python3.11 crash.py\n$ python3.12 crash.py\nFalse",
    );
    expect(fancyPromptAsDollar("dev@host \uE0B0 /srv/app \uE0B0 node main.js\nok")).toBe(
      "$ node main.js\nok",
    );
  });

  it("must not fire: other commands, a block with its own `$`, text with an address", () => {
    expect(fancyPromptAsDollar(" ann@box  ~/work  ls -la\nfile")).toBeNull();
    expect(fancyPromptAsDollar("$ python3 x.py\n ann@box  ~/work  python3 x.py")).toBeNull();
    expect(fancyPromptAsDollar("send to ann@box.org  /tmp  python is great")).toBeNull();
    expect(fancyPromptAsDollar("import os\nprint(os.name)")).toBeNull();
  });

  it("a report's session under such a prompt is a shell session, not code", () => {
    const r = parseReport(
      "Crash.\n\n```python\nprint(1)\n```\n\nRun:\n\n```\n ann@box  ~/work  python3.11 crash.py\n1\n```\n",
    );
    expect(r.blocks.map((b) => b.kind)).toContain("shell");
    expect(r.blocks.some((b) => b.kind === "code" && b.value.includes("ann@box"))).toBe(false);
  });
});
