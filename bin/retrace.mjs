#!/usr/bin/env node
// The `retrace` command. It runs the compiled CLI (build/cli, made by `npm run setup`) when that is newer than
// every source file, and the TypeScript sources through tsx otherwise: an edited source is never run stale.
import { cliBuildIsFresh, cliEntry } from "../scripts/cli-build.mjs";

let main;
if (process.env.RETRACE_CLI_FROM_SOURCE !== "1" && cliBuildIsFresh()) {
  ({ main } = await import(cliEntry));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../src/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
