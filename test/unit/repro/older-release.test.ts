/**
 * A report that names no version, whose code the newest release no longer runs (a default export dropped, an
 * API renamed, an ESM-only major): the newest release where the code runs is the one it is judged on, and the
 * verdict says so. Fake ports: the installer installs what it is asked for, the registry answers the newest
 * release of a major line, and the sandbox "runs" by the installed directory's name.
 */
import { describe, expect, it } from "vitest";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { ManualClock } from "../../../src/core/loop-clock.ts";
import type { Sandbox, SandboxRunResult } from "../../../src/core/ports/sandbox.ts";
import type { DependencyInstaller, InstallRequest, ReproPorts } from "../../../src/repro/ports.ts";
import { runRepro } from "../../../src/repro/run-repro.ts";
import { fakeSandbox } from "../../support/fake-sandbox.ts";

const f = "```";

class Installer implements DependencyInstaller {
  readonly requests: InstallRequest[] = [];
  async install(req: InstallRequest) {
    this.requests.push(req);
    const installed = req.packages.map((p) => ({ name: p.name, version: p.version ?? "9.1.0" }));
    return {
      dir: `/cache/${installed.map((p) => `${p.name}-${p.version}`).join("+")}`,
      pythonPath: null,
      installed,
      failures: [],
      cached: false,
      durationMs: 5,
    };
  }
}

function ports(sandbox: Sandbox, installer = new Installer()): ReproPorts {
  return {
    sandbox,
    installer,
    model: null,
    clock: new ManualClock(),
    // The newest release of a major line: `8` → 8.3.0.
    registry: {
      latestVersion: async (_e, _n, q) => (q?.within ? `${q.within}.3.0` : "9.1.0"),
    },
    transpile: async (code) => code,
  };
}

const notAFunction = (): Partial<SandboxRunResult> => ({
  exitCode: 1,
  stderr:
    "@@retrace-runtime v18.20.4\n/workspace/reproduction.cjs:3\nTypeError: cli.flag is not a function\n    at Object.<anonymous> (/workspace/reproduction.cjs:3:5)\n",
});

const report = `# a flag with = is read wrong\n\n${f}js\nconst cli = require('flaggy');\ncli.flag('-n <name>');\nconsole.log(cli.parse(['-n=x']).name);\n${f}\n\nIt prints \`=x\` where I expected \`x\`.\n`;
const spec = (markdown: string) => ReproJobSpec.parse({ kind: "repro", id: "t", markdown, runs: 2 });

describe("a report with no version, on a release that lost the API its code calls", () => {
  it("is judged on the newest release where the code runs, and says why", async () => {
    const sb = fakeSandbox((req) => {
      const dir = req.input?.dir ?? "";
      if (/flaggy-(9|8)\./.test(dir)) return notAFunction();
      return { stdout: "=x\n", stderr: "@@retrace-runtime v18.20.4\n" };
    });
    const installer = new Installer();
    const { result } = await runRepro(spec(report), ports(sb, installer));
    expect(installer.requests.map((r) => r.packages[0]!.version)).toEqual([null, "8.3.0", "7.3.0"]);
    expect(result.verdict).toBe("REPRODUCED");
    expect(result.versions).toEqual([expect.objectContaining({ name: "flaggy", version: "7.3.0" })]);
    expect(result.reasons.join(" ")).toContain(
      "flaggy@9.1.0, no longer has what the report's code calls (`TypeError: cli.flag is not a function`), so flaggy@7.3.0, the newest release where the code runs, was used",
    );
  });

  it("an older release that behaves correctly is NOT_REPRODUCED there, never PARTIAL on the missing API", async () => {
    const sb = fakeSandbox((req) =>
      /flaggy-9\./.test(req.input?.dir ?? "")
        ? notAFunction()
        : { stdout: "x\n", stderr: "@@retrace-runtime v18.20.4\n" },
    );
    const { result } = await runRepro(spec(report), ports(sb));
    expect(result.verdict).toBe("NOT_REPRODUCED");
    expect(result.versions[0]).toMatchObject({ version: "8.3.0" });
  });

  it("a release that keeps the name only to say it is removed counts as missing it", async () => {
    const sb = fakeSandbox((req) =>
      /flaggy-9\./.test(req.input?.dir ?? "")
        ? {
            exitCode: 1,
            stderr:
              "@@retrace-runtime v18.20.4\nError: Function cli.flag is removed in flaggy 9. Use cli.option instead\n    at Object.<anonymous> (/workspace/reproduction.cjs:2:5)\n",
          }
        : { stdout: "=x\n", stderr: "@@retrace-runtime v18.20.4\n" },
    );
    const { result } = await runRepro(spec(report), ports(sb));
    expect(result.verdict).toBe("REPRODUCED");
    expect(result.versions[0]).toMatchObject({ version: "8.3.0" });
  });

  it("an ESM-only release whose require() error was printed with its code dropped (f12d, hold8 flat-56)", async () => {
    const sb = fakeSandbox((req) =>
      /flaggy-9\./.test(req.input?.dir ?? "")
        ? {
            exitCode: 1,
            stderr:
              "@@retrace-runtime v18.20.4\nError: require() of ES Module /workspace/node_modules/flaggy/index.js from /workspace/reproduction.cjs not supported.\nInstead change the require of index.js in /workspace/reproduction.cjs to a dynamic import() which is available in all CommonJS modules.\n    at Object.<anonymous> (/workspace/reproduction.cjs:1:13)\n",
          }
        : { stdout: "=x\n", stderr: "@@retrace-runtime v18.20.4\n" },
    );
    const { result } = await runRepro(spec(report), ports(sb));
    expect(result.verdict).toBe("REPRODUCED");
    expect(result.versions[0]).toMatchObject({ version: "8.3.0" });
  });

  it("does not take another Error for an ESM-only release", async () => {
    const sb = fakeSandbox((req) =>
      /flaggy-9\./.test(req.input?.dir ?? "")
        ? {
            exitCode: 1,
            stderr:
              "@@retrace-runtime v18.20.4\nError: cannot parse -n=x\n    at Object.<anonymous> (/workspace/reproduction.cjs:3:5)\n",
          }
        : { stdout: "=x\n", stderr: "@@retrace-runtime v18.20.4\n" },
    );
    const { result } = await runRepro(spec(report), ports(sb));
    expect(result.versions[0]).toMatchObject({ version: "9.1.0" });
  });

  it("stays with the newest release when no older line runs either", async () => {
    const sb = fakeSandbox(() => notAFunction());
    const installer = new Installer();
    const { result } = await runRepro(spec(report), ports(sb, installer));
    expect(installer.requests).toHaveLength(4);
    expect(result.verdict).toBe("PARTIAL");
    expect(result.versions[0]).toMatchObject({ version: "9.1.0" });
  });

  it("does not step back when the report names a version, or claims that very error", async () => {
    const pinned = report.replace("It prints", "With flaggy@9.1.0 it prints");
    const sb = fakeSandbox(() => notAFunction());
    const installer = new Installer();
    await runRepro(spec(pinned), ports(sb, installer));
    expect(installer.requests.every((r) => r.packages[0]!.version !== "8.3.0")).toBe(true);

    const claimed = `# flag gone\n\n${f}js\nconst cli = require('flaggy');\ncli.flag('-n <name>');\n${f}\n\nIt throws \`TypeError: cli.flag is not a function\`.\n`;
    const installer2 = new Installer();
    const { result } = await runRepro(
      spec(claimed),
      ports(
        fakeSandbox(() => notAFunction()),
        installer2,
      ),
    );
    expect(installer2.requests).toHaveLength(1);
    expect(result.verdict).toBe("REPRODUCED");
  });
});
