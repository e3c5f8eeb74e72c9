/**
 * taoqf/node-html-parser#100's shapes, written here: a release named beside another ("`3.0.0` (or `3.0.1`)"), the
 * first never published, so the other is installed; and a block of stack frames only, its error line in the
 * title, which is what the error printed, not output.
 */
import { describe, expect, it } from "vitest";
import { alternativeRelease } from "../../../src/repro/alternative-release.ts";
import { classifyBlock } from "../../../src/repro/classify-block.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

describe("a release named as an alternative", () => {
  it("reads the other release beside the pinned one", () => {
    expect(alternativeRelease("Release `3.0.0` (or `3.0.1`) appears to break it", "3.0.0")).toBe("3.0.1");
    expect(alternativeRelease("It fails on 2.4.0 or 2.4.1.", "2.4.0")).toBe("2.4.1");
    expect(alternativeRelease("tested 1.2.0/1.2.1", "1.2.0")).toBe("1.2.1");
  });

  it("nothing when no release stands beside it", () => {
    expect(alternativeRelease("Release 3.0.0 breaks it; 2.1.0 worked", "3.0.0")).toBeNull();
    expect(alternativeRelease("on 13.0.0 or later", "13.0.0")).toBeNull();
    expect(alternativeRelease("on 3.0.0 or 3.0.1", "3.0.1")).toBeNull();
  });
});

describe("a block of stack frames only", () => {
  const f = "```";
  const frames =
    "      at Object.getValue (node_modules/tiny-dom/dist/matcher.js:11:17)\n      at Object.findOne (node_modules/tiny-dom/dist/matcher.js:68:13)\n\n...";

  it("is error output, and the title's error is the claim", () => {
    expect(classifyBlock(null, frames).kind).toBe("error-output");
    const e = reportedExpectations(
      parseReport(
        `# TypeError: el.getValue is not a function\n\n${f}js\nconst d = parse('<p>');\nd.querySelector('#x');\n${f}\n\nThe trace:\n\n${f}\n${frames}\n${f}\n`,
      ),
    );
    expect(e.actual).toMatchObject({ kind: "exception", exceptionType: "TypeError" });
  });

  it("not one frame alone, nor frames with other lines", () => {
    expect(classifyBlock(null, "    at main (a.js:1:2)").kind).not.toBe("error-output");
    expect(classifyBlock(null, "result 1\n    at main (a.js:1:2)\n    at b (a.js:3:4)").kind).not.toBe(
      "error-output",
    );
  });
});
