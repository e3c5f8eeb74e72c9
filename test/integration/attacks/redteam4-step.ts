/**
 * One host-side step of Retrace on a hostile input, in a child process so that a step that never ends (a
 * super-linear pattern on the host) can be killed by the test instead of holding its worker: the real
 * functions, on a real repository directory or text file. Prints one JSON line: what the step returned or
 * threw, how long it took and the host CPU time it used. Used by `redteam4.test.ts`.
 *
 *   node --import tsx/esm redteam4-step.ts <step> <json args>
 */
import { readFileSync } from "node:fs";
import { checkPythonDependencies } from "../../../src/fix/dependencies.ts";
import { planRunnerFree } from "../../../src/fix/runner-free.ts";
import { detectTestCommand } from "../../../src/fix/test-runner/detect.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { npmRegistryNodeSource } from "../../../src/install/node-runtime.ts";
import { installRepoPythonDependencies } from "../../../src/install/repo-deps.ts";
import { sandboxForRepo } from "../../../src/install/repo-runtime.ts";
import { parseLog } from "../../../src/logs/index.ts";
import { readReport } from "../../../src/repro/context.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";

type Args = Record<string, unknown>;

const steps: Record<string, (a: Args) => Promise<unknown>> = {
  /** The runtime a repository asks for, as `verify`/`fix` resolve it (Node releases from `registry`). */
  async runtime(a) {
    const r = await sandboxForRepo(createDockerSandbox({ image: a["image"] as string }), a["dir"] as string, {
      cacheDir: a["cacheDir"] as string,
      node: npmRegistryNodeSource(a["cacheDir"] as string, 60_000),
    });
    return {
      node: r.runtime?.toolchain.node ?? null,
      python: r.runtime?.toolchain.python ?? null,
      image: r.installImage ?? null,
    };
  },
  /** What a Python repository's tests need, read from its manifests. */
  async python(a) {
    return checkPythonDependencies(await createFsWorkspace(a["dir"] as string));
  },
  /** The repository's Python requirements installed as `verify`/`fix` install them (the install container). */
  async pyInstall(a) {
    const py = await checkPythonDependencies(await createFsWorkspace(a["dir"] as string));
    if (py === null) return null;
    return installRepoPythonDependencies(py, {
      cacheDir: a["cacheDir"] as string,
      image: a["image"] as string,
      timeoutMs: 60_000,
      registryConfig: {
        npm: a["registry"] as string,
        pip: { indexUrl: a["pipIndex"] as string, extraIndexUrls: [], findLinks: [] },
        caFile: null,
      },
    });
  },
  /** How a repository runs its tests. */
  async detect(a) {
    return detectTestCommand(await createFsWorkspace(a["dir"] as string));
  },
  /** The runner-free plan of the anti-gaming check, over the repository's (patched) files. */
  async runnerFree(a) {
    const ws = await createFsWorkspace(a["dir"] as string);
    const plan = await planRunnerFree({
      framework: a["framework"] as "pytest" | "jest",
      targets: a["targets"] as never,
      readFile: (p) => ws.readFile(p).catch(() => null),
      listFiles: () => ws.listFiles({ max: 20_000 }),
      nonce: "0123456789abcdef0123456789abcdef",
    });
    return "unsupported" in plan ? plan : { files: Object.keys(plan.files).length };
  },
  /** A CI log parsed as `parse-log` does. */
  async log(a) {
    const parsed = parseLog(readFileSync(a["file"] as string, "utf8"));
    return { failures: parsed.failures.length };
  },
  /** A bug report read as `repro` does. */
  async report(a) {
    const r = readReport(readFileSync(a["file"] as string, "utf8"));
    return { unreadable: r.unreadable, blocks: r.report.blocks.length };
  },
};

const [step, json] = process.argv.slice(2);
const started = performance.now();
const cpu = process.cpuUsage();
/** Host CPU time of this process (what a hostile input costs the host; waiting on a container is not). */
const cpuMs = () => {
  const d = process.cpuUsage(cpu);
  return Math.round((d.user + d.system) / 1000);
};
try {
  const value = await steps[step as string]!(JSON.parse(json ?? "{}") as Args);
  console.log(
    JSON.stringify({ ok: true, value, ms: Math.round(performance.now() - started), cpuMs: cpuMs() }),
  );
} catch (error) {
  const e = error as Error;
  console.log(
    JSON.stringify({
      ok: false,
      name: e.name,
      message: String(e.message),
      ms: Math.round(performance.now() - started),
      cpuMs: cpuMs(),
    }),
  );
}
