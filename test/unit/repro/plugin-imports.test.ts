/**
 * Missing imports of APIs that only a plugin adds (issue 12, rp12b round): `moment.tz(…)` is moment-timezone's,
 * `dayjs.tz(…)` / `.tz()` / `dayjs.utc(…)` need dayjs's utc and timezone plugins extended; and blocks combined
 * into one program that declare the same names. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const program = (md: string) => {
  const report = parseReport(md);
  const p = completeProgram(report, reportedExpectations(report).invocation);
  return { code: p?.files[p.entry] ?? "", deps: p?.dependencies ?? [] };
};

describe("time-zone APIs a plugin adds", () => {
  it("`moment.tz` imports moment-timezone, which is moment with zones", () => {
    const { code, deps } = program(
      `# zones\n\n${f}js\nconsole.log(moment.tz("2021-01-02T03:04:05Z", "Europe/Paris").format("HH:mm"));\n${f}\n\nprints \`05:04\`\n`,
    );
    expect(code).toContain('const moment = require("moment-timezone");');
    expect(deps).toEqual(["moment-timezone"]);
  });

  it("`dayjs.tz` gets the utc and timezone plugins, extended after dayjs is imported", () => {
    const { code, deps } = program(
      `# zones\n\n${f}\nconsole.log(dayjs.tz("2021-01-02 03:04", "Asia/Seoul").format("HH:mm"));\n${f}\n\nprints \`03:04\`\n`,
    );
    const lines = code.split("\n");
    const at = (s: string) => lines.findIndex((l) => l.includes(s));
    expect(at('const dayjs = require("dayjs")')).toBeGreaterThanOrEqual(0);
    expect(at('require("dayjs/plugin/utc"); dayjs.extend(utc);')).toBeGreaterThan(at('require("dayjs")'));
    expect(at('require("dayjs/plugin/timezone"); dayjs.extend(timezone);')).toBeGreaterThan(
      at("dayjs/plugin/utc"),
    );
    expect(deps).toEqual(["dayjs"]);
  });

  it("only `dayjs.utc` gets only the utc plugin; a snippet that extends dayjs itself, or imports it, is left alone", () => {
    expect(
      program(`# u\n\n${f}js\nconsole.log(dayjs.utc("2021-01-02").format());\n${f}\n`).code,
    ).not.toContain("timezone");
    const own = program(
      `# u\n\n${f}js\nconst dayjs = require("dayjs");\nconst utc = require("dayjs/plugin/utc");\ndayjs.extend(utc);\nconsole.log(dayjs.utc("2021-01-02").format());\n${f}\n`,
    ).code;
    expect(own.match(/dayjs\.extend/g)).toHaveLength(1);
    expect(program(`# m\n\n${f}js\nconsole.log(moment("2021-01-02").format());\n${f}\n`).code).toContain(
      'require("moment");',
    );
  });
});

describe("blocks that declare the same names", () => {
  it("each runs in its own scope instead of a redeclaration error", () => {
    const { code } = program(
      `# dates\n\n${f}\n    const when = new Date('2020-01-05')\n    console.log(dayjs(when).format('d'))\n${f}\n\nprints \`0\`, while\n\n${f}\n    const when = new Date('2020-01-04')\n    console.log(dayjs(when).format('d'))\n${f}\n\nprints \`6\`\n`,
    );
    expect(code.match(/^\{$/gm)).toHaveLength(2);
    expect(() => new Function(code.replace(/^.*require\(.*$/gm, ""))).not.toThrow();
  });

  it("blocks with distinct names are combined as before", () => {
    const { code } = program(
      `# x\n\n${f}js\nconst a = dayjs('2020-01-05')\n${f}\n\n${f}js\nconst b = a.format('d')\nconsole.log(b)\n${f}\n`,
    );
    expect(code).not.toMatch(/^\{$/m);
  });
});
