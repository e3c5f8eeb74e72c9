/**
 * Writes schema/retrace.schema.json and docs/config.md from the zod schema in src/config/schema.ts.
 * Run after changing the schema: `npx tsx scripts/gen-schema.ts` (test/unit/config fails while they are stale).
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { configJsonSchemaText, configMarkdown } from "../src/config/json-schema.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
writeFileSync(`${root}schema/retrace.schema.json`, configJsonSchemaText());
writeFileSync(`${root}docs/config.md`, configMarkdown());
process.stdout.write("wrote schema/retrace.schema.json and docs/config.md\n");
