/**
 * Review rv18: prose calls the report places on the expected side, not the claim. A call plan's "bad" call that is
 * really the wanted behaviour turns a package that works into REPRODUCED (the worst error), so these must not be
 * read as claims.
 */
import { describe, expect, it } from "vitest";
import { readProseCall } from "../../../src/repro/prose-call.ts";

const badClaims = (title: string, md: string) => {
  const r = readProseCall(title, md, "validate");
  return r?.kind === "plan" ? r.plan.calls.filter((c) => c.side === "bad").map((c) => c.claimed) : [];
};

describe("a prose call under an expected-side heading", () => {
  it("is never the claim (markdown heading)", () => {
    const md = `# isValid rejects short names

### Expected behavior
\`isValid("abc")\` returns \`true\`

### Actual behavior
It throws an error.
`;
    expect(badClaims("isValid rejects short names", md)).toEqual([]);
  });
  it("is never the claim (bold heading, quoted input)", () => {
    const md = `**Expected result:**

"abc" returns "ABC"

**What happens:** it crashes.
`;
    expect(badClaims("toUpper crashes", md)).toEqual([]);
  });
  it("still reads the actual section's call after it", () => {
    const md = `### Expected behavior
\`isValid("abc")\` returns \`true\`

### Actual behavior
\`isValid("abc")\` returns \`false\`
`;
    expect(badClaims("isValid rejects short names", md)).toEqual(["false"]);
  });
});

describe("a line that marks its call as the working one", () => {
  it("is the good side: `as it should`, `as expected` after the value", () => {
    const md = `\`isEmail("a@b.c")\` returns \`true\` as it should, but \`isEmail("a@b")\` also returns \`true\`.
`;
    const r = readProseCall("isEmail accepts a@b", md, "validate");
    const calls = r?.kind === "plan" ? r.plan.calls : [];
    expect(calls.filter((c) => c.side === "bad").map((c) => c.label)).not.toContain('isEmail("a@b.c")');
  });
});
