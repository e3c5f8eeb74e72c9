/**
 * The one-file node:test repository the verify unit tests share: `add` subtracts (the bug), `sub` is right;
 * `fix` is the one-line patch that makes `add` add.
 */
import type { TestCommand } from "../../src/fix/test-runner/types.ts";
import { PolicyConfig } from "../../src/policy/config.ts";

export const policy = PolicyConfig.parse({});
export const command: TestCommand = { framework: "node-test", command: "node --test", detectedBy: "--test" };
export const files = {
  "package.json": JSON.stringify({ scripts: { test: "node --test" } }),
  "src/calc.js": "exports.add = (a, b) => a - b;\nexports.sub = (a, b) => a - b;\n",
  "test/calc.test.js": "// tests\n",
};
export const fix =
  "--- a/src/calc.js\n+++ b/src/calc.js\n@@ -1,2 +1,2 @@\n-exports.add = (a, b) => a - b;\n+exports.add = (a, b) => a + b;\n exports.sub = (a, b) => a - b;\n";
