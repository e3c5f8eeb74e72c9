import { describe, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { MAX_JEST_JSON_OBJECT_MEMBERS, readResults } from "../../../src/fix/test-runner/results.ts";

// A jest --json report with one failing test, and `extra` beside its results.
const report = (extra: string) =>
  `{"testResults":[{"name":"/workspace/t.test.js","assertionResults":[{"ancestorTitles":[],"title":"t","status":"failed"}]}],"x":${extra}}`;
const keys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(",")}}`;

describe("a jest report with one object wider than any real report's", () => {
  it("is refused before JSON.parse builds it, as an infrastructure error naming the limit", () => {
    const wide = report(keys(MAX_JEST_JSON_OBJECT_MEMBERS + 1));
    expect(() => readResults("jest-json", wide)).toThrow(InfrastructureError);
    expect(() => readResults("jest-json", wide)).toThrow(/one of its objects holds over 200,000 members/);
  });

  it("counter-examples: an object at the limit, a long array, commas and braces inside strings are read", () => {
    expect(readResults("jest-json", report(keys(MAX_JEST_JSON_OBJECT_MEMBERS)))).toHaveLength(1);
    const list = `[${Array.from({ length: 300_000 }, () => "0").join(",")}]`;
    expect(readResults("jest-json", report(list))).toHaveLength(1);
    const quoted = `"${"{a,".repeat(300_000)}"`;
    expect(readResults("jest-json", report(quoted))).toHaveLength(1);
    // Members of nested objects count for their own object, not the outer one.
    const nested = `{${Array.from({ length: 150_000 }, (_, i) => `"k${i}":{"a":1,"b":2}`).join(",")}}`;
    expect(readResults("jest-json", report(nested))).toHaveLength(1);
  });
});
