/**
 * Test helpers: build git-style patches from before/after texts with the `diff` package, and run the gate.
 */
import { createTwoFilesPatch } from "diff";
import { evaluatePatch, type PolicyConfigInput, type RuleId } from "../../../src/policy/index.ts";

/** A `git diff`-style section for one modified file. */
export function modify(path: string, before: string, after: string): string {
  const body = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, {
    context: 3,
  })
    .split("\n")
    .filter((l) => !l.startsWith("====")) // the diff package's separator line
    .join("\n");
  return `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n${body}`;
}

/** A `git diff`-style section creating a file. */
export function create(path: string, content: string, mode = "100644"): string {
  const lines = content.endsWith("\n") ? content.slice(0, -1).split("\n") : content.split("\n");
  return [
    `diff --git a/${path} b/${path}`,
    `new file mode ${mode}`,
    "index 0000000..1111111",
    "--- /dev/null",
    `+++ b/${path}`,
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((l) => `+${l}`),
    "",
  ].join("\n");
}

/** Adds `added` lines after `before` (context) in a file, as a patch. */
export function addLines(path: string, added: string[], context = ["// context"]): string {
  const before = `${context.join("\n")}\n`;
  return modify(path, before, `${context.join("\n")}\n${added.join("\n")}\n`);
}

export function rulesOf(patch: string, config: PolicyConfigInput = {}): RuleId[] {
  return evaluatePatch(patch, config).violations.map((v) => v.rule);
}

export function violationsOf(patch: string, rule: RuleId, config: PolicyConfigInput = {}) {
  return evaluatePatch(patch, config).violations.filter((v) => v.rule === rule);
}
