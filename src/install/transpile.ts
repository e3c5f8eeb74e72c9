/**
 * TypeScript → JavaScript on the host (adapter of the `Transpile` port), with esbuild's transform: types are
 * stripped, nothing else changes. Runs before the sandbox, which only has Node.
 */
import { transform } from "esbuild";
import { RetraceError } from "../core/errors.ts";
import type { Transpile } from "../repro/ports.ts";

export const esbuildTranspile: Transpile = async (code, options) => {
  try {
    const out = await transform(code, {
      loader: "ts",
      format: options.format,
      target: "node18",
      sourcefile: options.filename,
      supported: { "top-level-await": true },
    });
    return out.code;
  } catch (error) {
    throw new RetraceError(
      "internal",
      `could not transpile ${options.filename}: ${(error as Error).message.split("\n")[0]}`,
      {
        hint: "The TypeScript in the report does not parse; the report needs valid TypeScript.",
        cause: error,
      },
    );
  }
};
