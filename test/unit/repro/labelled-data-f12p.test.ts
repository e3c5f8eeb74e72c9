/**
 * A name the code never defines, bound to the text the report quotes under that name's label (issue 12, hold15,
 * nashwaan/xml-js#51). Reports and snippets written for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { labelledData } from "../../../src/repro/labelled-data.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";

const f = "```";

describe("data the report labels with the name the code uses", () => {
  it("binds the span under the label, in JavaScript and Python", () => {
    const prose = 'Some words.\nThe input XML string:\n`<a b="1"/>`\nThe code:';
    expect(labelledData("const out = convert(xmlString, {});", "js", prose)).toEqual([
      { name: "xmlString", value: '<a b="1"/>', label: "The input XML string:" },
    ]);
    expect(labelledData("out = convert(xml_string)", "python", prose).map((d) => d.name)).toEqual([
      "xml_string",
    ]);
    expect(
      labelledData("go(inputDate)", "js", "With the input date: `2020-01-01`").map((d) => d.value),
    ).toEqual(["2020-01-01"]);
  });

  it("a report's program defines it on its first line", () => {
    const report = parseReport(
      [
        "# escaped quotes",
        "",
        "The input XML string:",
        "",
        "`<a/>`",
        "",
        `${f}js`,
        "const convert = require('xml-js');",
        "console.log(convert.xml2json(xmlString, { compact: true }));",
        f,
      ].join("\n"),
    );
    const p = completeProgram(report)!;
    expect(p.files[p.entry]!.split("\n")[0]).toBe('const xmlString = "<a/>";');
    expect(p.completions.join(" ")).toContain("`xmlString`");
  });

  it("must not fire: a bound name, a one-word name, two candidate spans, no label", () => {
    const prose = "The input XML string:\n`<a/>`";
    expect(labelledData("let xmlString = '<b/>'; go(xmlString);", "js", prose)).toEqual([]);
    expect(labelledData("function f(xmlString) { return go(xmlString); }", "js", prose)).toEqual([]);
    expect(labelledData("for xml_string in items: go(xml_string)", "python", prose)).toEqual([]);
    expect(labelledData("go(message)", "js", "The message:\n`hi`")).toEqual([]);
    expect(labelledData("go(xmlString)", "js", `${prose}\nAnother XML string:\n\`<c/>\``)).toEqual([]);
    expect(labelledData("go(xmlString)", "js", "We parse an XML string here.\n`<a/>`")).toEqual([]);
    expect(labelledData("go({ xmlString: 1 })", "js", prose)).toEqual([]);
  });
});
