import { describe, expect, it } from "vitest";
import { gateBaseSources } from "../../../src/fix/manifest-change.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";

const gradle = [
  "plugins {",
  "    id 'java'",
  "}",
  "dependencies {",
  "    implementation 'a:a:1.0'",
  "    implementation 'b:b:1.0'",
  "    implementation 'c:c:1.0'",
  "    implementation 'd:d:1.0'",
  "    implementation 'e:e:1.0'",
  "    implementation 'f:f:1.0'",
  "}",
  "test {",
  "    useJUnitPlatform()",
  "}",
  "",
].join("\n");

// A dependency bump in a module's build file, four lines below `dependencies {` (out of the hunk's context).
const bump = [
  "diff --git a/app/build.gradle b/app/build.gradle",
  "--- a/app/build.gradle",
  "+++ b/app/build.gradle",
  "@@ -6,5 +6,5 @@",
  "     implementation 'b:b:1.0'",
  "     implementation 'c:c:1.0'",
  "-    implementation 'd:d:1.0'",
  "+    implementation 'd:d:1.1'",
  "     implementation 'e:e:1.0'",
  "     implementation 'f:f:1.0'",
  "",
].join("\n");

const infra = (ctx: Parameters<typeof evaluatePatch>[2]) =>
  evaluatePatch(bump, {}, ctx).violations.filter((v) => v.rule === "test-infrastructure");

describe("the fix loop's gate knows every build file's base (rv20)", () => {
  it("reads a module's build file as well as the root's, and nothing else", async () => {
    const ws = memoryWorkspace({
      "app/build.gradle": gradle,
      "build.gradle": gradle,
      "app/src/A.java": "class A {}\n",
    });
    const got = await gateBaseSources(ws, await ws.listFiles());
    expect(Object.keys(got).sort()).toEqual(["app/build.gradle", "build.gradle"]);
  });
  it("an indented dependency line whose block sits above the hunk is allowed once the base is known", async () => {
    expect(infra({}).length).toBeGreaterThan(0);
    const ws = memoryWorkspace({ "app/build.gradle": gradle });
    expect(infra({ sourceFiles: await gateBaseSources(ws, await ws.listFiles()) })).toEqual([]);
  });
  it("a line of the test block is still refused with the base known", async () => {
    const ws = memoryWorkspace({ "app/build.gradle": gradle });
    const off = [
      "diff --git a/app/build.gradle b/app/build.gradle",
      "--- a/app/build.gradle",
      "+++ b/app/build.gradle",
      "@@ -13,2 +13,3 @@",
      "     useJUnitPlatform()",
      "+    enabled = false",
      " }",
      "",
    ].join("\n");
    const v = evaluatePatch(off, {}, { sourceFiles: await gateBaseSources(ws, await ws.listFiles()) });
    expect(v.violations.map((x) => x.rule)).toContain("test-infrastructure");
  });
});
