/**
 * Classes of real reports the hold26 dev half showed read wrong (issue 12, fixer f12h), each with counter-examples
 * that keep their reading. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { correctedComments } from "../../../src/repro/corrected-comment.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { jsFreeBindings, nameWordOf } from "../../../src/repro/repository-binding.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const complete = (md: string, pkg?: string) => {
  const report = parseReport(md);
  return completeProgram(report, reportedExpectations(report).invocation, pkg)!;
};

describe("a function called by a word of the package's name is the package's binding", () => {
  it("a word of a hyphenated name, called, is the package's own binding", () => {
    expect(nameWordOf("stringify", "safe-sorted-stringify")).toBe(true);
    expect(nameWordOf("digest", "object-digest")).toBe(true);
    expect(nameWordOf("cache", "@acme/tiny-cache")).toBe(true);
    const [b] = jsFreeBindings("console.log(digest({ a: 1 }));\n", new Set(), "object-digest");
    expect(b).toMatchObject({ name: "digest", called: true, own: true });
  });

  it("not for a one-word name, a short word, a different case, or a name that is no word of it", () => {
    expect(nameWordOf("digest", "digest")).toBe(false);
    expect(nameWordOf("js", "js-yaml")).toBe(false);
    expect(nameWordOf("Digest", "object-digest")).toBe(false);
    expect(nameWordOf("hashOf", "object-digest")).toBe(false);
    expect(nameWordOf("dig", "object-digest")).toBe(false);
  });

  it("a word used as data, never called, stays the reporter's (not the package)", () => {
    const found = jsFreeBindings("console.log(digest(object.inner));\n", new Set(), "object-digest");
    expect(found.find((b) => b.name === "object")).toMatchObject({ called: false, own: false });
  });

  it("the program binds the called word and leaves an elided data name free (a question names it)", () => {
    const md = `# digest differs for equal objects\n\n${f}js\nconsole.log(digest(settings));\n${f}\n\nIt prints two values.\n`;
    const p = complete(md, "object-digest");
    const code = p.files[p.entry]!;
    expect(code).toContain('["digest",[],true,true]');
    expect(code).not.toContain('"settings"');
  });
});

describe("an inline span in a workaround's lead never displaces the fenced block it leads", () => {
  const md = `# equal objects hash differently\n\nI worked around it with \`\`Object.keys(someObject).sort()\`\`, like so:\n${f} javascript\nconst a = {x: 1, y: 2};\nconsole.log(digest(a)); // 1111\n${f}\n`;

  it("the fenced block is the program, not the inline code of the sentence", () => {
    const p = complete(md, "object-digest");
    const code = p.files[p.entry]!;
    expect(code).toContain("const a = {x: 1, y: 2};");
    expect(code).not.toContain("someObject");
  });

  it("a fenced block led as a workaround still gives way to another fenced block that shows the bug", () => {
    const two = `# equal objects hash differently\n\n${f}js\nconsole.log(digest({x: 1, y: 2}) === digest({y: 2, x: 1})); // false\n${f}\n\nFor now I work around it with:\n${f}js\nconst sortedDigest = (o) => digest(Object.fromEntries(Object.entries(o).sort()));\n${f}\n`;
    const all = Object.values(complete(two, "object-digest").files).join("\n");
    expect(all).toContain("=== digest({y: 2, x: 1})");
    expect(all).not.toContain("sortedDigest");
  });
});

describe("a bare comment the prose corrects is the value the expression gave", () => {
  const md = (comment: string, wanted: string) =>
    `# capitalize misses words\n\n${f}js\ncapitalizeAll('good day, sir') // ${comment}\n${f}\n\nThe docs say every word is capitalised. For \`good day, sir\` the output should be \`${wanted}\`.\n`;

  it('`f(x) // Good day, sir` under "the output should be `Good Day, Sir`": the claim is the comment', () => {
    const r = parseReport(md("Good day, sir", "Good Day, Sir"));
    expect(reportedExpectations(r).actual).toMatchObject({ kind: "output", output: ["Good day, sir"] });
    expect(correctedComments("f(x) // Good day, sir", "js", ["Good Day, Sir"])).toBe(
      "f(x) // => Good day, sir",
    );
    expect(correctedComments("f(x)  # good day", "python", ["Good Day"])).toBe("f(x) # => good day");
  });

  it("a comment equal to the wanted value, words about the code, a declaration's comment: still comments", () => {
    expect(correctedComments("f(x) // Good Day, Sir", "js", ["Good Day, Sir"])).toBeNull();
    expect(correctedComments("f(x) // capitalises each word", "js", ["Good Day, Sir"])).toBeNull();
    expect(correctedComments("const s = f(x) // Good day, sir", "js", ["Good Day, Sir"])).toBeNull();
    expect(correctedComments("f(x) // Good day, sir", "js", [])).toBeNull();
    expect(reportedExpectations(parseReport(md("Good Day, Sir", "Good Day, Sir"))).actual.kind).toBe(
      "unknown",
    );
    expect(reportedExpectations(parseReport(md("capitalises each word", "Good Day, Sir"))).actual.kind).toBe(
      "unknown",
    );
  });

  it("the same annotated block pasted twice states its claim once (it runs once)", () => {
    const twice = `# pad is off\n\n${f}js\nconsole.log(pad('7', 3)) // 7\n${f}\n\nAgain:\n\n${f}js\nconsole.log(pad('7', 3)) // 7\n${f}\n\nIt should be \`007\`.\n`;
    expect(reportedExpectations(parseReport(twice)).actual.output).toEqual(["7"]);
    // Two different blocks each keep their claim.
    const two = twice.replace(
      "Again:\n\n```js\nconsole.log(pad('7', 3)) // 7",
      "Again:\n\n```js\nconsole.log(pad('8', 3)) // 8",
    );
    expect(reportedExpectations(parseReport(two)).actual.output).toEqual(["7", "8"]);
  });
});

describe("an HTML <pre> block is a block of preformatted text", () => {
  const md = (actual: string) =>
    `# wrap splits strings\n\n${f}python\nfrom pprint import pprint\npprint({'k': 'a long text'}, width=12)\n${f}\n\n**Actual** result:\n${actual}\n\nNB: the text above is split in two\n\n**Expected** result:\n<pre>\n{'k': 'a long text'}\n</pre>\n`;

  it("under an Actual label, its text (entities read back) is the reported output, not the note after it", () => {
    const r = parseReport(md("<pre>\n{'k': 'a long '\n &#39;text&#39;}\n</pre>"));
    const e = reportedExpectations(r);
    expect(e.actual).toMatchObject({ kind: "output", output: ["{'k': 'a long '", " 'text'}"] });
    expect(e.expectedOutput).toEqual(["{'k': 'a long text'}"]);
  });

  it("an empty <pre> and other HTML blocks are not output", () => {
    const empty = parseReport(md("<pre>\n\n</pre>"));
    expect(
      empty.blocks.some((b) => b.section === "actual" && b.kind === "output" && b.value.trim() === ""),
    ).toBe(false);
    const details = parseReport(
      `# x\n\n<details>\n<summary>Traceback</summary>\n\nno pre here\n</details>\n`,
    );
    expect(details.blocks).toEqual([]);
  });
});

describe("a comment giving the Expected section's value, beside an Actual section that opens with its own", () => {
  const md = (comment: string, actual: string) =>
    `# hex overflows\n\n${f}\nconst Shade = require("shade-kit");\nconst s = new Shade('#00aaff');\nconsole.log(s.lighter().hex); // ${comment}\n${f}\n\n## Expected\nIt ought to print #eaf2ff, as other converters show.\n\n## Actual\n${actual}\n`;

  it("the Actual section's inline value is the claim; the comment is the expectation", () => {
    const e = reportedExpectations(
      parseReport(md("#eaf2ff, rgb(234, 242, 255)", "`#eaf2101` one channel overflows")),
    );
    expect(e.actual).toMatchObject({ kind: "output", output: ["#eaf2101"] });
    expect(e.actual.source).toMatch(/Actual section/);
  });

  it("counter-examples keep the comment as the claim", () => {
    // The comment's value is not the one the Expected words want.
    expect(
      reportedExpectations(parseReport(md("#eaf2101", "`#eaf2101` one channel overflows"))).actual.output,
    ).toEqual(["#eaf2101"]);
    // The Actual words name the comment's value too.
    expect(
      reportedExpectations(parseReport(md("#eaf2ff", "`#00ffff`, not #eaf2ff, comes out"))).actual.output,
    ).toEqual(["#eaf2ff"]);
    // No value of its own opens the Actual section.
    expect(
      reportedExpectations(parseReport(md("#eaf2ff", "one channel overflows past `0xFF`"))).actual.output,
    ).toEqual(["#eaf2ff"]);
  });
});

describe("TypeScript blocks that import and declare the same name, and a module block without its file name", () => {
  const md = (importLine: string) =>
    `# get throws\n\n${f}\nconst Store = require('store-kit');\nmodule.exports = new Store();\n${f}\n\n${f}\nexport class Wrap {\n  private s: any;\n  constructor() { this.s = require('./storeMod'); }\n  get(k) { return this.s.get(k); }\n}\n${f}\n\n${f}\n${importLine}\nconst w = new Wrap();\nconst v = w.get('k');\n${f}\n`;
  it("drops the import the report's own block declares, and writes the module block as the one required file", () => {
    const p = complete(md("import { Wrap } from './wrapper';"));
    expect(p.files["storeMod.cjs"]).toContain("module.exports = new Store();");
    expect(p.files[p.entry]).toContain("require('./storeMod.cjs')");
    expect(p.files[p.entry]).not.toContain("from './wrapper'");
  });
  it("keeps an import of a name no block declares, and one from a file the report gives", () => {
    const p = complete(md("import { Other, Wrap } from './wrapper';"));
    expect(p.files[p.entry]).toContain("import { Other, Wrap } from './wrapper';");
  });
});
