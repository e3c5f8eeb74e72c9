import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configJsonSchema, configJsonSchemaText, configMarkdown } from "../../../src/config/json-schema.ts";

const read = (rel: string) => readFileSync(new URL(`../../../${rel}`, import.meta.url), "utf8");

type Node = { type?: string; description?: string; properties?: Record<string, Node> };

describe("generated schema files", () => {
  it("schema/retrace.schema.json is up to date (run `npx tsx scripts/gen-schema.ts`)", () => {
    expect(read("schema/retrace.schema.json")).toBe(configJsonSchemaText());
  });

  it("docs/config.md is up to date (run `npx tsx scripts/gen-schema.ts`)", () => {
    expect(read("docs/config.md")).toBe(configMarkdown());
  });

  it("every field of the schema has a description, and objects reject unknown fields", () => {
    const missing: string[] = [];
    const open: string[] = [];
    const walk = (name: string, node: Node & { additionalProperties?: unknown }) => {
      if (name !== "(root)" && !node.description) missing.push(name);
      if (node.type === "object" && node.additionalProperties !== false) open.push(name);
      for (const [k, child] of Object.entries(node.properties ?? {}))
        walk(name === "(root)" ? k : `${name}.${k}`, child);
    };
    walk("(root)", configJsonSchema() as Node);
    expect(missing).toEqual([]);
    expect(open).toEqual([]);
  });

  it("has the sections the surfaces rely on", () => {
    const props = Object.keys((configJsonSchema() as Node).properties ?? {});
    expect(props).toEqual(["policy", "repro", "fix", "commands", "limits", "model", "sandbox", "install"]);
  });
});

describe("docs/config.md says where each section applies", () => {
  it("has an 'Applies on' line for every top-level section of the schema", async () => {
    const { SECTION_SURFACES } = await import("../../../src/config/json-schema.ts");
    const { RetraceConfig } = await import("../../../src/config/schema.ts");
    expect(Object.keys(SECTION_SURFACES).sort()).toEqual(Object.keys(RetraceConfig.shape).sort());
  });
});
