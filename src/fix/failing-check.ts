/**
 * What the failing check runs, as text the policy gate's suppressions rule reads (GateContext.failingCheck): the
 * test command, every package script it names (and the scripts those name, a few levels deep, also inside
 * compound scripts such as `npm run build && npm run test-api`), the TypeScript test transformer when the
 * package declares one (ts-jest type-checks while it runs the tests), and pytest's `addopts` (`--mypy`,
 * `--flake8` run checkers inside the tests). Reads files only.
 */
import type { Workspace } from "../core/ports/workspace.ts";

const SCRIPT_REF = /\b(?:npm|yarn|pnpm)\s+(?:run(?:-script)?\s+)?(?:--\S+\s+)*([\w:@./-]+)/g;
const PYTEST_CONFIGS = ["pytest.ini", "setup.cfg", "tox.ini", "pyproject.toml"];

async function readJson(workspace: Workspace, file: string): Promise<Record<string, unknown> | null> {
  try {
    const v: unknown = JSON.parse(await workspace.readFile(file));
    return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function failingCheckText(workspace: Workspace, command: string): Promise<string> {
  const parts = [command];
  const pkg = (await workspace.exists("package.json")) ? await readJson(workspace, "package.json") : null;
  if (pkg) {
    const scripts = (typeof pkg.scripts === "object" && pkg.scripts !== null ? pkg.scripts : {}) as Record<
      string,
      unknown
    >;
    const seen = new Set<string>();
    let frontier = [command];
    for (let depth = 0; depth < 5 && frontier.length > 0; depth++) {
      const next: string[] = [];
      for (const text of frontier) {
        for (const m of text.matchAll(SCRIPT_REF)) {
          const name = m[1] === "t" ? "test" : (m[1] as string);
          const script = scripts[name];
          if (typeof script !== "string" || seen.has(name)) continue;
          seen.add(name);
          parts.push(script);
          next.push(script);
        }
        // `pre`/`post` scripts run around the one named.
      }
      frontier = next;
    }
    for (const name of [...seen]) {
      for (const hook of [`pre${name}`, `post${name}`]) {
        if (typeof scripts[hook] === "string") parts.push(scripts[hook] as string);
      }
    }
    const deps = { ...(pkg.dependencies as object), ...(pkg.devDependencies as object) } as Record<
      string,
      unknown
    >;
    if ("ts-jest" in deps || JSON.stringify(pkg.jest ?? "").includes("ts-jest")) parts.push("ts-jest");
  }
  if (/\bpytest\b/.test(command)) {
    for (const file of PYTEST_CONFIGS) {
      if (!(await workspace.exists(file))) continue;
      const text = await workspace.readFile(file).catch(() => "");
      for (const m of text.matchAll(/^[ \t]*addopts\s*=\s*(.+(?:\n[ \t]+.+)*)/gm)) parts.push(m[1] ?? "");
    }
  }
  return parts.join("\n");
}
