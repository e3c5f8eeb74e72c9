/**
 * A patch that changes package.json's dependencies (a registry package added, or a new range for one: the
 * policy gate's `dependencyChanges.allowRegistryRanges`) is verified against the dependencies it declares:
 * the patched runs get node_modules installed from the patched manifest in the install container, never the
 * base's (a fix that needs a newer release would otherwise be judged on the old one, and a new package would
 * be missing, or present only by accident as someone's transitive dependency). The base runs keep the base's.
 */
import { InfrastructureError } from "../core/errors.ts";
import type { ExtraDir } from "../core/ports/sandbox.ts";
import type { Workspace } from "../core/ports/workspace.ts";
import { parseUnifiedDiff } from "../policy/parse-diff.ts";
import { checkDirectories, JS_RUNNER_CONFIG_FILES, RUNNER_CONFIG_FILES } from "../policy/runner-configs.ts";
import type { PatchedFiles } from "./apply-patch.ts";
import { checkJsDependencies, type DependencyProvider, runsJs } from "./dependencies.ts";
import type { TestCommand } from "./test-runner/types.ts";

/**
 * Files whose base text the gate reads around a hunk: package.json (a dependency map opened above the hunk), and the
 * build files whose test lines are read by the block they sit in (red team 26: a Gradle test task or a surefire
 * `<configuration>` opened above the hunk, setup.cfg's `package_dir`).
 */
export const GATE_BASE_FILE = /(^|\/)(package\.json|pom\.xml|build\.gradle(\.kts)?|setup\.cfg)$/;

const DEP_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const;

/**
 * The base text of each package.json or build file (GATE_BASE_FILE) the patch changes, for the policy gate (a
 * dependency map or a test block opened above a hunk's context is then known). Unreadable patches and files give nothing: the gate then judges the hunk alone.
 */
export async function manifestSources(workspace: Workspace, patch: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let paths: string[];
  try {
    paths = parseUnifiedDiff(patch)
      .files.map((f) => f.oldPath)
      .filter((p): p is string => p !== null && GATE_BASE_FILE.test(p));
  } catch {
    return out;
  }
  for (const p of paths) {
    const text = await workspace.readFile(p).catch(() => null);
    if (text !== null) out[p] = text;
  }
  return out;
}

/**
 * The base text of every package.json or build file (GATE_BASE_FILE) among `paths`, at most `max` of them: the fix
 * loop's gate, which sees each patch only later, then knows the block around a hunk in a module's
 * `app/build.gradle` as well as the root's (rv20: an indented dependency line whose `dependencies {` sits above
 * the hunk was refused as a line of an unseen block).
 */
export async function gateBaseSources(
  workspace: Workspace,
  paths: readonly string[],
  max = 64,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const p of paths.filter((f) => GATE_BASE_FILE.test(f)).slice(0, max)) {
    const text = await workspace.readFile(p).catch(() => null);
    if (text !== null) out[p] = text;
  }
  return out;
}

/**
 * The text of each test-runner configuration file (RUNNER_CONFIG_FILES, JS_RUNNER_CONFIG_FILES) the workspace has at
 * its root and in each directory the failing check `cd`s into (checkDirectories: `cd backend && pytest` reads
 * `backend/pytest.ini`), read for the import roots they name (GateContext.runnerConfigs); larger than 256 KiB: left
 * out.
 */
export async function runnerConfigs(
  workspace: Workspace,
  failingCheck?: string,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const dir of ["", ...checkDirectories(failingCheck).slice(0, 16)])
    for (const name of [...RUNNER_CONFIG_FILES, ...JS_RUNNER_CONFIG_FILES]) {
      const p = dir === "" ? name : `${dir}/${name}`;
      const text = await workspace.readFile(p).catch(() => null);
      if (text !== null && text.length <= 256 * 1024) out[p] = text;
    }
  return out;
}

/** `name@range` of each dependency whose range the patched manifest adds or changes, sorted; [] when none. */
export function changedDependencies(baseText: string, patchedText: string): string[] {
  const maps = (text: string): Map<string, string> => {
    const out = new Map<string, string>();
    let pkg: Record<string, unknown>;
    try {
      pkg = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return out;
    }
    for (const field of DEP_FIELDS) {
      const deps = pkg[field];
      if (deps === null || typeof deps !== "object") continue;
      for (const [name, spec] of Object.entries(deps)) out.set(`${field}/${name}`, String(spec));
    }
    return out;
  };
  const before = maps(baseText);
  const after = maps(patchedText);
  const changed = new Set<string>();
  for (const [key, spec] of after) {
    if (before.get(key) !== spec) changed.add(`${key.slice(key.indexOf("/") + 1)}@${spec}`);
  }
  for (const key of before.keys())
    if (!after.has(key)) changed.add(`${key.slice(key.indexOf("/") + 1)} (removed)`);
  return [...changed].sort();
}

/** The workspace as the patch leaves it: patched files read from the overlay, deleted ones gone. */
export function patchedWorkspace(base: Workspace, patched: PatchedFiles): Workspace {
  const removed = new Set(patched.remove);
  return {
    root: base.root,
    readFile: async (p) => {
      if (p in patched.files) return patched.files[p]!;
      if (removed.has(p)) throw new Error(`${p} is deleted by the patch`);
      return base.readFile(p);
    },
    exists: async (p) => p in patched.files || (!removed.has(p) && (await base.exists(p))),
    findSymlink: (p) => base.findSymlink(p),
    listFiles: async (options) => {
      const files = new Set((await base.listFiles(options)).filter((p) => !removed.has(p)));
      for (const p of Object.keys(patched.files))
        if (options?.under === undefined || p.startsWith(`${options.under.replace(/\/+$/, "")}/`))
          files.add(p);
      return [...files].sort();
    },
  };
}

/**
 * The extra directories of the patched runs: `baseDirs` unless the patch changes the root package.json's
 * dependencies and the command runs JS; then the base's node_modules is replaced by an install of the patched
 * manifest (the provider's: the install container, cached). `log` says what changed. Without a provider that
 * is an infrastructure error: running the patch on dependencies it does not declare would prove nothing.
 */
export async function patchedDependencyDirs(
  workspace: Workspace,
  patched: PatchedFiles,
  command: TestCommand,
  baseDirs: ExtraDir[],
  provider: DependencyProvider | undefined,
  log?: (line: string) => void,
): Promise<{ dirs: ExtraDir[]; changed: string[] }> {
  const after = patched.files["package.json"];
  if (after === undefined || !runsJs(command)) return { dirs: baseDirs, changed: [] };
  const before = await workspace.readFile("package.json").catch(() => "{}");
  const changed = changedDependencies(before, after);
  if (changed.length === 0) return { dirs: baseDirs, changed };
  if (!provider) {
    throw new InfrastructureError(
      `the patch changes package.json's dependencies (${changed.join(", ")}), and this run has no way to install them: the patched runs would use dependencies the patch does not declare`,
      "run where Retrace installs the repository's dependencies in its install container (the CLI and the Action do), or install them in the checkout and pass the patch with its package.json change applied",
    );
  }
  const view = patchedWorkspace(workspace, patched);
  const js = await checkJsDependencies(view);
  if (js === null) return { dirs: baseDirs, changed };
  log?.(
    `dependencies: the patch changes package.json (${changed.join(", ")}): the patched runs get an install of the patched manifest`,
  );
  const installed = await provider.js(view, { ...js, missing: js.declared }, { baseDirs });
  const kept = baseDirs
    .map((d) => ({
      ...d,
      paths: d.paths.filter((p) => p !== "node_modules" && !p.startsWith("node_modules/")),
    }))
    .filter((d) => d.paths.length > 0);
  return { dirs: [...kept, ...installed], changed };
}
