import type { Command } from "commander";
import { loadConfigFile } from "../../config/load.ts";
import { readPatchInput } from "../read-patch.ts";
import { evaluatePatch, formatViolation } from "../../policy/index.ts";
import { printJson, printOut } from "../print.ts";

export function registerPolicy(program: Command): void {
  program
    .command("policy")
    .description(
      "Check a patch against the deterministic policy gate (exit 0 allowed, 1 blocked, 2 usage error: e.g. the file is not a unified diff)",
    )
    .argument("<patch>", "unified diff to check (`-` reads stdin)")
    .option(
      "--config <file>",
      "configuration file whose `policy:` section applies (default: built-in policy)",
    )
    .option("--json", "print { allowed, violations } as JSON")
    // Commander copies exitOverride only to commands added after it is set; without it a usage error here
    // would exit 1 (= "blocked") instead of reaching main's exit code 2.
    .exitOverride()
    .action(async (patchFile: string, opts: { config?: string; json?: boolean }) => {
      const config = opts.config === undefined ? undefined : await loadConfigFile(opts.config);
      const patch = await readPatchInput(patchFile);
      const result = evaluatePatch(patch, config?.policy ?? {});
      if (opts.json) {
        printJson(`${JSON.stringify(result, null, 2)}\n`);
      } else if (result.allowed) {
        printOut("allowed: no policy violations\n");
      } else {
        for (const v of result.violations) printOut(`${formatViolation(v)}\n`);
        printOut(`blocked: ${result.violations.length} violation(s)\n`);
      }
      process.exitCode = result.allowed ? 0 : 1;
    });
}
