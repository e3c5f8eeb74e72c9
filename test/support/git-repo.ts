/** A git repository written for a test: `files` (flat or nested paths) committed once under `parent/name`. */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export function committedRepo(parent: string, name: string, files: Record<string, string>): string {
  const dir = path.join(parent, name);
  mkdirSync(dir);
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "ignore" });
  git("init", "-q");
  for (const [f, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), content);
  }
  git("add", ".");
  git("-c", "user.email=qa@example.com", "-c", "user.name=qa", "commit", "-qm", "init");
  return dir;
}
