/**
 * What the failing check runs decides whether a suppression comment blocks (the mdast case of issue 15: the
 * upstream fix adds a `@ts-expect-error`, and the failing check is `node --test`, which no type checker runs).
 */
import { describe, expect, it } from "vitest";
import { failingCheckText } from "../../../src/fix/failing-check.ts";
import { verifyPatch } from "../../../src/fix/verify.ts";
import { PolicyConfig } from "../../../src/policy/config.ts";
import { fakeSandbox, tapReport } from "../../support/fake-sandbox.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";

const pkg = (scripts: Record<string, string>, extra: object = {}) =>
  JSON.stringify({ name: "x", type: "module", scripts, ...extra });
const scripts = {
  build: "tsc --build && type-coverage",
  "test-api": "node --test",
  "test-coverage": "c8 --100 npm run test-api",
  test: "npm run build && npm run test-coverage",
};
const files = (s: Record<string, string>, extra: object = {}) => ({
  "package.json": pkg(s, extra),
  "lib/root.js": "export function root(node) {\n  return flow(node)\n}\n",
  "test/root.test.js": "// tests\n",
});
const patch =
  "--- a/lib/root.js\n+++ b/lib/root.js\n@@ -1,3 +1,4 @@\n export function root(node) {\n-  return flow(node)\n+  // @ts-expect-error: roots hold one kind of content\n+  return (node.phrasing ? phrasing : flow)(node)\n }\n";

describe("failingCheckText", () => {
  it("expands the package scripts the command names, also inside compound scripts", async () => {
    const text = await failingCheckText(memoryWorkspace(files(scripts)), "npm test");
    expect(text).toContain("tsc --build");
    expect(text).toContain("c8 --100");
    expect(text).toContain("node --test");
    expect(await failingCheckText(memoryWorkspace(files(scripts)), "node --test")).toBe("node --test");
  });

  it("names ts-jest when the package declares it (it type-checks while the tests run)", async () => {
    const ws = memoryWorkspace(files({ test: "jest" }, { devDependencies: { "ts-jest": "^29.0.0" } }));
    expect(await failingCheckText(ws, "npx jest")).toContain("ts-jest");
  });

  it("adds pytest's addopts (a --mypy plug-in runs the type checker inside the tests)", async () => {
    const ws = memoryWorkspace({ "setup.cfg": "[tool:pytest]\naddopts = --mypy -q\n", "test_a.py": "" });
    expect(await failingCheckText(ws, "python3 -m pytest")).toContain("--mypy");
  });
});

describe("verifyPatch: a suppression comment and the failing check", () => {
  const policy = PolicyConfig.parse({});
  const base = { exitCode: 1, report: tapReport({ core: "failed", other: "passed" }) };
  const fixed = { exitCode: 0, report: tapReport({ core: "passed", other: "passed" }) };

  it("a check no type checker runs: not blocked, VERIFIED, the suppression named as a warning in the reasons", async () => {
    const { sandbox } = fakeSandbox([base, base, fixed, fixed]);
    const r = await verifyPatch({
      workspace: memoryWorkspace(files(scripts)),
      sandbox,
      patch,
      policy,
      testCommand: "npm run test-api",
      jobId: "j",
      antiGaming: false,
    });
    expect(r.verdict, r.reasons.join("; ")).toBe("VERIFIED");
    expect(r.reasons.join("\n")).toMatch(
      /policy warning suppressions: lib\/root\.js:2: TypeScript error suppressed \[ts-expect-error\].*not blocked: the failing check \(`node --test`\)/,
    );
  });

  it("a check that runs tsc (npm test → npm run build → tsc): BLOCKED before any run", async () => {
    const { sandbox, requests } = fakeSandbox([]);
    const r = await verifyPatch({
      workspace: memoryWorkspace(files(scripts)),
      sandbox,
      patch,
      policy,
      testCommand: "npm test",
      jobId: "j",
    });
    expect(r.verdict).toBe("BLOCKED");
    expect(r.violations.map((v) => v.rule)).toEqual(["suppressions"]);
    expect(requests).toHaveLength(0);
  });
});
