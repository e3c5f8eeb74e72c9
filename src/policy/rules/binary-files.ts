/**
 * binary-files: binary content cannot be inspected by the gate or reviewed in a pull request. Catches
 * `Binary files … differ`, `GIT binary patch`, and NUL bytes in text hunks.
 */
import type { Rule, Violation } from "../types.ts";

export const binaryFiles: Rule = {
  id: "binary-files",
  enabled: (c) => c.binaryFiles.enabled,
  check({ patch }) {
    const out: Violation[] = [];
    for (const file of patch.files) {
      if (file.binary) {
        out.push({
          rule: "binary-files",
          file: file.path,
          line: null,
          message: "binary file changes cannot be inspected",
        });
        continue;
      }
      const nul = file.hunks
        .flatMap((h) => h.lines)
        .find((l) => l.kind === "add" && l.text.includes("\u0000"));
      if (nul) {
        out.push({
          rule: "binary-files",
          file: file.path,
          line: nul.newLine,
          message: "added line contains a NUL byte (binary content)",
        });
      }
    }
    return out;
  },
};
