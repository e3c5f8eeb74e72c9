/**
 * The Action on a runner-like machine that has no sandbox image: a SECOND Docker engine with an empty data
 * root (a fresh runner), a real registry on loopback (Debian's docker-registry) holding the sandbox image,
 * and the Action bundle run as a process with a real event file. It must pull the image pinned by digest,
 * reproduce the bundled example, and post the comment; with no image anywhere it must say so on the issue,
 * in its outputs and in the summary — an infrastructure error, never a verdict.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxImage } from "../support/docker.ts";
import { example } from "./support/app-harness.ts";
import { type FakeGitHub, startFakeGitHub } from "./support/fake-github.ts";

const run = promisify(execFile);
const REPO = "Codertocat/Hello-World";
const REGISTRY_BIN = "/usr/bin/docker-registry";
const haveTools = existsSync(REGISTRY_BIN) && process.getuid?.() === 0;
// In CI the set-up installs the registry and runs as root: this suite must run there, not skip.
if (process.env.CI === "true" && !haveTools) {
  throw new Error(
    `${REGISTRY_BIN} missing or not root in CI: scripts/setup.mjs --tests installs docker-registry`,
  );
}

let root: string;
let registry: ChildProcess | undefined;
let engine: ChildProcess | undefined;
let registryHost = "";
let pinned = "";
let dockerHost = "";
let github: FakeGitHub;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function until(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not come up within ${ms} ms`);
}

function eventEnv(dir: string, inputs: Record<string, string>): NodeJS.ProcessEnv {
  const report = readFileSync("examples/python-keyerror.md", "utf8");
  const [titleLine, ...rest] = report.split("\n");
  const payload = example("issues", "labeled");
  payload.label.name = "needs-repro";
  payload.issue.title = titleLine!.replace(/^#\s*/, "");
  payload.issue.body = rest.join("\n").trim();
  const eventPath = join(dir, "event.json");
  writeFileSync(eventPath, JSON.stringify(payload));
  writeFileSync(join(dir, "output"), "");
  writeFileSync(join(dir, "summary"), "");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    DOCKER_HOST: dockerHost,
    GITHUB_EVENT_NAME: "issues",
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: REPO,
    GITHUB_API_URL: github.url,
    GITHUB_WORKSPACE: dir,
    GITHUB_OUTPUT: join(dir, "output"),
    GITHUB_STEP_SUMMARY: join(dir, "summary"),
    GITHUB_RUN_ID: "777",
    GITHUB_RUN_ATTEMPT: "1",
    RUNNER_TEMP: dir,
    RUNNER_TOOL_CACHE: join(dir, "toolcache"),
    "INPUT_GITHUB-TOKEN": "ghs_faketokenfaketokenfaketokenfaketoken",
    INPUT_MODE: "auto",
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  return env;
}

async function action(env: NodeJS.ProcessEnv, dir: string) {
  try {
    const { stdout } = await run(process.execPath, ["dist/index.mjs"], { env, timeout: 240_000 });
    return { code: 0, stdout, outputs: readFileSync(join(dir, "output"), "utf8") };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout, outputs: readFileSync(join(dir, "output"), "utf8") };
  }
}

describe.skipIf(!haveTools)("the Action provisions its sandbox image on a fresh engine", () => {
  beforeAll(async () => {
    root = mkdtempSync("/tmp/rt-img-");
    // A registry on loopback with the sandbox image pushed to it (from the machine's main engine).
    const port = await freePort();
    registryHost = `127.0.0.1:${port}`;
    writeFileSync(
      join(root, "registry.yml"),
      `version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: ${root}/registry\nhttp:\n  addr: ${registryHost}\n`,
    );
    registry = spawn(REGISTRY_BIN, ["serve", join(root, "registry.yml")], { stdio: "ignore" });
    await until("the registry", 20_000, async () => (await fetch(`http://${registryHost}/v2/`)).ok);
    const tag = `${registryHost}/retrace/sandbox:e2e`;
    await run("docker", ["tag", sandboxImage, tag]);
    const { stdout } = await run("docker", ["push", tag], { timeout: 300_000 });
    const digest = /digest: (sha256:[0-9a-f]{64})/.exec(stdout)?.[1];
    if (!digest) throw new Error(`no digest in docker push output:\n${stdout}`);
    pinned = `${registryHost}/retrace/sandbox@${digest}`;
    await run("docker", ["rmi", tag]);
    // A second engine with an empty data root: a runner that has never seen the image.
    mkdirSync(join(root, "data"));
    mkdirSync(join(root, "exec"));
    dockerHost = `unix://${root}/d.sock`;
    engine = spawn(
      "dockerd",
      [
        "--data-root",
        join(root, "data"),
        "--exec-root",
        join(root, "exec"),
        "--pidfile",
        join(root, "d.pid"),
        "-H",
        dockerHost,
        "--iptables=false",
        "--bridge=none",
      ],
      { stdio: "ignore" },
    );
    await until("the second engine", 30_000, async () => {
      await run("docker", ["-H", dockerHost, "info"]);
      return true;
    });
    const { stdout: images } = await run("docker", ["-H", dockerHost, "images", "-q"]);
    expect(images.trim()).toBe("");
  }, 420_000);

  afterAll(async () => {
    await github?.close();
    if (engine) {
      // Containers first (the reaper labels them), then the engine and its data.
      await run("docker", ["-H", dockerHost, "rm", "-f", ...(await listAll())]).catch(() => {});
      engine.kill("SIGTERM");
      await new Promise((r) => engine!.once("exit", r));
    }
    registry?.kill("SIGTERM");
    rmSync(root, { recursive: true, force: true });
    // Removing the engine's containers and stopping it took more than 60 s at load 50 (CI).
  }, 240_000);

  async function listAll(): Promise<string[]> {
    const { stdout } = await run("docker", ["-H", dockerHost, "ps", "-aq"]);
    return stdout.split("\n").filter(Boolean);
  }

  it("pulls the image pinned by digest, reproduces the bundled example and comments REPRODUCED", async () => {
    github = await startFakeGitHub();
    github.state.permissions.set(`${REPO}:Codertocat`, "write");
    const dir = mkdtempSync(join(root, "ws-"));
    const r = await action(eventEnv(dir, { "sandbox-image": pinned }), dir);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain(`pulling the sandbox image ${pinned}`);
    expect(r.stdout).toMatch(
      new RegExp(`sandbox image ${pinned.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(pulled`),
    );
    expect(r.outputs).toMatch(/verdict<<.*\nREPRODUCED\n/);
    const comments = github.calls("POST", /issues\/1\/comments$/);
    expect(comments).toHaveLength(1);
    expect(String((comments[0]!.body as { body: string }).body)).toContain("REPRODUCED");
    // The pulled image is now on the fresh engine by its digest, and saved for the next run.
    const { stdout: digests } = await run("docker", [
      "-H",
      dockerHost,
      "images",
      "--digests",
      "--format",
      "{{.Digest}}",
    ]);
    expect(digests).toContain(pinned.split("@")[1]);
    expect(existsSync(join(dir, "toolcache", "retrace-sandbox"))).toBe(true);
  }, 300_000);

  it("with no image anywhere: the issue, the outputs and the summary say so, and the step fails (no verdict)", async () => {
    github = await startFakeGitHub();
    github.state.permissions.set(`${REPO}:Codertocat`, "write");
    const dir = mkdtempSync(join(root, "ws-"));
    // A digest the registry does not hold, and no Dockerfile that can build (the bundle's sandbox/ is used,
    // whose FROM needs a registry this machine cannot reach).
    const missing = `${registryHost}/retrace/sandbox@sha256:${"0".repeat(64)}`;
    const r = await action(eventEnv(dir, { "sandbox-image": missing }), dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("::error::Retrace: the sandbox image could not be made available");
    expect(r.stdout).toContain(`pulling ${missing}`);
    expect(r.outputs).toMatch(/outcome<<.*\nerror\n/);
    expect(r.outputs).not.toMatch(/verdict<<.*\n[A-Z_]+\n/);
    const comments = github.calls("POST", /issues\/1\/comments$/);
    expect(comments).toHaveLength(1);
    const body = String((comments[0]!.body as { body: string }).body);
    expect(body).toContain("the sandbox image could not be made available");
    expect(body).not.toMatch(/REPRODUCED|NOT_REPRODUCED|PARTIAL|NEEDS_INFO/);
    expect(readFileSync(join(dir, "summary"), "utf8")).toContain(
      "the sandbox image could not be made available",
    );
  }, 300_000);
});
