/**
 * A test command that builds first (issue 15, chai: `npm run build && npm run test-node`, the bundle the tests
 * import not committed). A small node:test repository written here: `scripts/build.js` writes `dist/calc.js`
 * from `src/calc.js` (and prints lines shaped like TAP results, which must never be read as tests); the tests
 * import `dist/`. Real Docker sandbox: the build is made in every run — base, patched, and the anti-gaming run
 * (whose neutral copies import `dist/` too) — so the fix is VERIFIED with the anti-gaming checks passed, a no-op
 * REJECTED; a build that fails on the unchanged base is an infrastructure error.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { defaultConfig, policyForFix } from "../../../src/config/schema.ts";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { verifyPatch } from "../../../src/fix/verify.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const tmp = mkdtempSync(path.join(tmpdir(), "retrace-build-first-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const BUILD = `const fs = require("node:fs");
const src = fs.readFileSync("src/calc.js", "utf8");
if (src.includes("BROKEN")) {
  console.error("build: src/calc.js:1: cannot build a BROKEN module");
  process.exit(2);
}
fs.mkdirSync("dist", { recursive: true });
fs.writeFileSync("dist/calc.js", "// built\\n" + src);
// A build's own chatter, shaped like test results: never read as tests.
console.log("TAP version 13\\nnot ok 1 - build step looks like a test\\nok 2 - bundle\\n1..2");
`;
const TESTS = `const test = require("node:test");
const assert = require("node:assert");
const { add, sub } = require("../dist/calc.js");

test("adds", () => {
  assert.strictEqual(add(2, 3), 5);
});

test("subtracts", () => {
  assert.strictEqual(sub(5, 3), 2);
});
`;
const CALC = "exports.add = (a, b) => a - b;\nexports.sub = (a, b) => a - b;\n";

function repo(name: string, calc = CALC): string {
  const dir = path.join(tmp, name);
  for (const d of ["scripts", "src", "test"]) mkdirSync(path.join(dir, d), { recursive: true });
  writeFileSync(path.join(dir, "scripts/build.js"), BUILD);
  writeFileSync(path.join(dir, "src/calc.js"), calc);
  writeFileSync(path.join(dir, "test/calc.test.js"), TESTS);
  writeFileSync(path.join(dir, ".gitignore"), "dist/\n");
  return dir;
}

const fix =
  "--- a/src/calc.js\n+++ b/src/calc.js\n@@ -1,2 +1,2 @@\n-exports.add = (a, b) => a - b;\n+exports.add = (a, b) => a + b;\n exports.sub = (a, b) => a - b;\n";
const noop =
  "--- a/src/calc.js\n+++ b/src/calc.js\n@@ -1,2 +1,3 @@\n exports.add = (a, b) => a - b;\n exports.sub = (a, b) => a - b;\n+// a harmless comment\n";

const verify = async (dir: string, patch: string) =>
  verifyPatch({
    workspace: await createFsWorkspace(dir),
    sandbox: createDockerSandbox({ image: sandboxImage }),
    patch,
    policy: policyForFix(defaultConfig()),
    testCommand: "node scripts/build.js && node --test test/",
    jobId: "test-build-first",
    limits: { timeoutMs: 170_000 },
  });

describeDocker("verify: a test command that builds first", () => {
  it("the fix: VERIFIED, the build made in every run (the anti-gaming run's checks pass on the built code)", async () => {
    const r = await verify(repo("fix"), fix);
    expect(r.verdict, r.reasons.join("; ")).toBe("VERIFIED");
    expect(r.testCommand).toBe("node scripts/build.js && node --test test/");
    expect(r.framework).toBe("node-test");
    expect(r.failToPass).toEqual(["adds"]);
    // Nothing the build printed became a test.
    expect(r.tests.map((t) => t.id).sort()).toEqual(["adds", "subtracts"]);
    expect(r.antiGaming?.ran).toBe(true);
    expect(r.antiGaming?.rejections).toEqual([]);
  }, 600_000);

  it("a no-op: REJECTED, the test still fails", async () => {
    const r = await verify(repo("noop"), noop);
    expect(r.verdict).toBe("REJECTED");
    expect(r.stillFailing).toEqual(["adds"]);
  }, 600_000);

  it("a build that fails on the unchanged base: an infrastructure error quoting it", async () => {
    const error = await verify(repo("broken", `// BROKEN\n${CALC}`), fix).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(
      /`node scripts\/build\.js`, failed on the unchanged base \(exit 2\), so no test ran; its output ends: build: src\/calc\.js:1: cannot build a BROKEN module/,
    );
  }, 600_000);
});
