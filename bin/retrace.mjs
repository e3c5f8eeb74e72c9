#!/usr/bin/env node
// The `retrace` command. TypeScript sources run through tsx's loader, so the CLI is always the code in src/.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
