/**
 * A report filed on a plugin named for its host (moment/moment-timezone#1080, jsmreese/moment-duration-format#76
 * shapes: code that loads `moment` and calls what the plugin adds) runs with the plugin loaded after the host.
 * Reports written here.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { hostOf } from "../../../src/repro/host-plugin.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";

const f = "```";
const build = (code: string, pkg: string) =>
  completeProgram(parseReport(`# x\n\n${f}js\n${code}\n${f}\n`), null, pkg)!;

describe("the repository's plugin is loaded after its host", () => {
  it("after the code's own require of the host", () => {
    const p = build(
      `const moment = require('moment');\nconsole.log(moment.duration(1100).format('s'));`,
      "moment-duration-format",
    );
    const src = p.files[p.entry]!;
    expect(src).toMatch(/require\('moment'\);\nrequire\("moment-duration-format"\);/);
    expect(p.dependencies).toEqual(expect.arrayContaining(["moment", "moment-duration-format"]));
    expect(p.completions.join("\n")).toContain("plugin named for `moment`");
    expect(p.completions.join("\n")).not.toContain("ran without `moment-duration-format`");
  });

  it("after an ES import of the host", () => {
    const p = build(
      `import moment from 'moment';\nconsole.log(moment().tz('Europe/Paris').format());`,
      "moment-timezone",
    );
    expect(p.files[p.entry]).toMatch(/from 'moment';\nimport "moment-timezone";/);
  });

  it("not when the code already loads the package, nor for an unrelated one or a repository root", () => {
    const own = build(
      `const moment = require('moment-timezone');\nconsole.log(moment.tz.zone('UTC'));`,
      "moment-timezone",
    );
    expect(own.files[own.entry]).not.toContain('require("moment-timezone")');
    const other = build(`const moment = require('moment');\nconsole.log(moment(0).year());`, "momentous");
    expect(other.dependencies).not.toContain("momentous");
    expect(hostOf("messageformat-monorepo", ["messageformat"])).toBeNull();
    expect(hostOf("moment-timezone", ["moment"])).toBe("moment");
    expect(hostOf("moment", ["moment"])).toBeNull();
  });
});
