/**
 * Lexical validation of repo-relative POSIX paths. Pure (no file system): shared by the adapters and
 * by pure code that handles paths from patches.
 */
import { WorkspacePathError } from "./errors.ts";

function posixNormalize(p: string): string {
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else out.push(part);
  }
  return out.join("/");
}

/** Normalises a repo-relative path; throws `WorkspacePathError` for empty, absolute, NUL-containing or escaping paths. */
export function normalizeRepoPath(input: string): string {
  if (input.length === 0)
    throw new WorkspacePathError(input, "empty path", "pass a repo-relative path such as src/app.ts");
  if (input.includes("\0"))
    throw new WorkspacePathError(input, `path contains a NUL byte: ${JSON.stringify(input)}`);
  const slashed = input.replace(/\\/g, "/");
  if (slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed)) {
    throw new WorkspacePathError(
      input,
      `absolute path not allowed: ${input}`,
      "use a path relative to the repository root",
    );
  }
  const normal = posixNormalize(slashed);
  if (normal === ".." || normal.startsWith("../")) {
    throw new WorkspacePathError(
      input,
      `path escapes the repository: ${input}`,
      "use a path inside the repository",
    );
  }
  return normal === "" ? "." : normal;
}
