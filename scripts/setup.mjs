#!/usr/bin/env node
// Idempotent set-up for a fresh machine: dependencies, a Docker engine, the sandbox image.
// Runs before `npm run demo` and `npm test`; every step is skipped when already done (a no-op costs < 1 s).
// Plain Node, no dependencies: it runs before `npm ci` has.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, openSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const image = process.env.RETRACE_SANDBOX_IMAGE ?? "retrace-sandbox:1";
const isRoot = process.getuid?.() === 0;
const log = (msg) => process.stderr.write(`setup: ${msg}\n`);

function fail(message, hint) {
  process.stderr.write(`setup: ${message}\n${hint ? `  → ${hint}\n` : ""}`);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", cwd: root, ...opts });
  if (r.status !== 0) fail(`\`${cmd} ${args.join(" ")}\` failed (exit ${r.status ?? r.signal})`);
}

function quiet(cmd, args, timeout = 15_000) {
  const r = spawnSync(cmd, args, { stdio: "pipe", timeout, encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

// 1. npm dependencies: install when node_modules is missing or older than the lockfile.
function dependencies() {
  const lock = path.join(root, "package-lock.json");
  const stamp = path.join(root, "node_modules", ".package-lock.json");
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= statSync(lock).mtimeMs) return;
  // `npm install` with the committed lockfile, not `npm ci`: a registry mirror that does not carry other
  // platforms' optional binaries (biome's, esbuild's) leaves them out of the lockfile, and `npm ci` then refuses
  // the lockfile as out of sync. `npm install` installs the locked versions all the same.
  log("installing npm dependencies (npm install, from package-lock.json)");
  run("npm", ["install", "--no-audit", "--no-fund"]);
}

// 2. A Docker engine: use the one that answers; as root, install and start one when none does.
function engineUp() {
  return quiet("docker", ["info", "--format", "{{.ServerVersion}}"]) !== null;
}

async function engine() {
  if (process.env.RETRACE_SKIP_DOCKER === "1") return log("RETRACE_SKIP_DOCKER=1: not checking Docker");
  if (engineUp()) return;
  if (!isRoot) {
    fail(
      "no Docker engine answers and this user is not root, so set-up cannot start one",
      "start Docker (or run `sudo npm run setup`), or set DOCKER_HOST to a running engine",
    );
  }
  if (!quiet("sh", ["-c", "command -v dockerd"])) {
    log("installing Docker (apt-get install docker.io)");
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "docker.io"], {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  }
  // The sandbox only ever uses `--network none`, so the engine needs no bridge or iptables rules; this also
  // lets it start in containers and VMs without netfilter. Override with RETRACE_DOCKERD_ARGS.
  const args = (process.env.RETRACE_DOCKERD_ARGS ?? "--iptables=false --bridge=none")
    .split(/\s+/)
    .filter(Boolean);
  const logFile = "/var/log/retrace-dockerd.log";
  log(`starting dockerd ${args.join(" ")} (log: ${logFile})`);
  const out = openSync(logFile, "a");
  spawn("dockerd", args, { detached: true, stdio: ["ignore", out, out] }).unref();
  for (let i = 0; i < 60; i++) {
    if (engineUp()) return log("Docker engine is up");
    await new Promise((r) => setTimeout(r, 500));
  }
  fail("dockerd did not answer within 30 s", `read ${logFile}`);
}

// 3. The sandbox image, rebuilt when its recipe (package list, build files) changed.
function recipeHash() {
  const h = createHash("sha256");
  for (const f of ["packages.txt", "build-offline.sh", "Dockerfile"])
    h.update(readFileSync(path.join(root, "sandbox", f)));
  return h.digest("hex").slice(0, 16);
}

function sandboxImage() {
  if (process.env.RETRACE_SKIP_DOCKER === "1") return;
  const want = recipeHash();
  const have = quiet("docker", [
    "image",
    "inspect",
    "--format",
    '{{index .Config.Labels "dev.retrace.recipe"}}',
    image,
  ]);
  if (have === want) return;
  log(
    have === null
      ? `building sandbox image ${image}`
      : `sandbox image ${image} is stale (recipe changed): rebuilding`,
  );
  const mode = process.env.RETRACE_IMAGE_BUILD ?? (isRoot ? "offline" : "dockerfile");
  if (mode === "offline") {
    if (!quiet("sh", ["-c", "command -v debootstrap"])) {
      log("installing debootstrap");
      run("apt-get", ["install", "-y", "-qq", "debootstrap"], {
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      });
    }
    run("bash", [path.join(root, "sandbox", "build-offline.sh"), image], {
      env: { ...process.env, RETRACE_RECIPE: want },
    });
  } else {
    run("docker", [
      "build",
      "--label",
      `dev.retrace.recipe=${want}`,
      "-t",
      image,
      path.join(root, "sandbox"),
    ]);
  }
}

// 4. What only the tests need (`--tests`): a local registry to test pulling the sandbox image (the Action
// on a runner pulls it; tests pull from Debian's docker-registry on loopback). Installed as root only.
function testTools() {
  if (!process.argv.includes("--tests") || process.env.RETRACE_SKIP_DOCKER === "1") return;
  if (existsSync("/usr/bin/docker-registry")) return;
  if (!isRoot)
    return log("docker-registry is not installed and this user is not root: the image-pull tests skip");
  log("installing docker-registry (apt-get install docker-registry) for the image-pull tests");
  run("apt-get", ["update", "-qq"]);
  run("apt-get", ["install", "-y", "-qq", "docker-registry"], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  // The package starts a registry service on :5000; the tests start their own on a free loopback port.
  quiet("sh", [
    "-c",
    "systemctl disable --now docker-registry 2>/dev/null; service docker-registry stop 2>/dev/null; true",
  ]);
}

// 2b. The compiled CLI (build/cli), rebuilt when any source is newer; bin/retrace.mjs falls back to tsx without it.
async function compiledCli() {
  const { buildCli, cliBuildIsFresh } = await import("./cli-build.mjs");
  if (cliBuildIsFresh()) return;
  log("compiling the CLI (build/cli)");
  await buildCli();
}

try {
  dependencies();
  await compiledCli();
  await engine();
  sandboxImage();
  testTools();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
