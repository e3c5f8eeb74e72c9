/**
 * Host-side steps of the ninth red team's cases, run in a process of their own
 * (`tsx redteam9-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Each case builds its hostile input under `<dir>/<id>` and calls the entry its pipeline uses on it: the real
 * `retrace repro` CLI on the real engine for a run's output, the App's tarball unpacker, the fix pipeline's git
 * steps (`createBranchWithCommit`, the failing commit's diff), Retrace's install proxy on its unix socket, the
 * config loader, the log parser, the report reader, the registry look-up against a registry on loopback.
 * For each case it prints one JSON line: `{ id, cpuMs, outcome, contained }` — `contained` is the case's own
 * verdict (nothing outside the checkout, no host file's bytes in an output, no request reached a host
 * service, …), null when only the runner's checks (marker, token, host CPU) decide.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import tar from "tar-stream";
import { loadConfigFromString } from "../../../src/config/load.ts";
import { createBranchWithCommit } from "../../../src/git/branch-commit.ts";
import { safeGit } from "../../../src/git/run-git.ts";
import { unpackTarball } from "../../../src/github/tarball.ts";
import { pyprojectRequirements, setupPyRequirements } from "../../../src/fix/python-requirements.ts";
import { startEgressProxy, VIRTUAL_NPM_HOST } from "../../../src/install/proxy.ts";
import type { RegistryConfig } from "../../../src/install/registry-config.ts";
import { createRegistryLookup } from "../../../src/install/registry-lookup.ts";
import { readExpectations, readReport } from "../../../src/repro/context.ts";
import { lines, log } from "./parse-step.ts";
import { short } from "./patch-step.ts";
import { type Outcome, ok, runStepCases } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const HERE = path.dirname(new URL(import.meta.url).pathname);
const REPO = path.resolve(HERE, "../../..");
/** What a host file outside the checkout holds; it must never reach an output. */
const HOST_TEXT = "RT9-HOST-FILE root:$6$rt9hash$abcdef:19000:0:99999:7:::\nRT9-HOST-FILE second line\n";
const HOST_MARK = "RT9-HOST-FILE";

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args],
    { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
  );
}

function hostFile(): string {
  const p = path.join(dir, "host", "secret.txt");
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, HOST_TEXT, { mode: 0o600 });
  return p;
}

/** A checkout with one commit (`a.txt`), the way `retrace fix` expects one. */
function checkout(name = "checkout"): string {
  const c = path.join(dir, name);
  mkdirSync(c, { recursive: true });
  git(c, "init", "-q");
  writeFileSync(path.join(c, "a.txt"), "a\n");
  git(c, "add", "a.txt");
  git(c, "commit", "-q", "-m", "first");
  writeFileSync(path.join(c, "a.txt"), "b\n");
  git(c, "commit", "-q", "-am", "second");
  return c;
}

/** A host repository outside the checkout, with a file only it holds. */
function hostRepo(): { dir: string; sha: string; refs: string } {
  const h = path.join(dir, "hostrepo");
  mkdirSync(h, { recursive: true });
  git(h, "init", "-q");
  writeFileSync(path.join(h, "secret.txt"), HOST_TEXT);
  git(h, "add", "secret.txt");
  git(h, "commit", "-q", "-m", "host one");
  writeFileSync(path.join(h, "secret.txt"), `${HOST_TEXT}more\n`);
  git(h, "commit", "-q", "-am", "host two");
  return { dir: h, sha: git(h, "rev-parse", "HEAD").trim(), refs: git(h, "for-each-ref") };
}

/** The fix pipeline's git steps on a checkout: the failing commit's diff, then the branch commit. */
async function fixGitSteps(c: string): Promise<string> {
  const g = safeGit(c);
  const out: string[] = [];
  out.push(
    await g.raw(["diff", "--no-color", "--no-ext-diff", "--no-textconv", "HEAD~1", "HEAD"]).then(
      (d) => `diff: ${d}`,
      (e: Error) => `diff failed: ${e.message}`,
    ),
  );
  out.push(
    await createBranchWithCommit(c, {
      branch: "retrace/fix-rt9",
      message: "fix",
      files: { "a.txt": "c\n" },
      author: { name: "Retrace", email: "retrace@users.noreply.github.com" },
    }).then(
      (r) => `committed ${r.commit} on ${r.branch}`,
      (e: Error) => `commit failed: ${e.message}`,
    ),
  );
  return out.join("\n");
}

/** A verdict on git cases: no byte of the host file reached what Retrace reports. */
function noHostText(text: string, extra = true): Outcome {
  return ok(short(text, 260), !text.includes(HOST_MARK) && !text.includes("rt9hash") && extra);
}

// ---- The App's tarball unpacker.

type TarEntry = { name: string; type?: "file" | "directory" | "symlink"; linkname?: string; body?: string };

async function tarball(entries: TarEntry[]): Promise<Uint8Array> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => {
    chunks.push(c as Buffer);
  });
  const done = new Promise<void>((r) => pack.on("end", () => r()));
  for (const e of entries) {
    const type = e.type ?? "file";
    await new Promise<void>((resolve, reject) =>
      pack.entry(
        {
          name: `o-r-0123456/${e.name}`,
          type,
          ...(e.linkname !== undefined ? { linkname: e.linkname } : {}),
        },
        type === "file" ? (e.body ?? "x\n") : "",
        (err?: Error | null) => (err ? reject(err) : resolve()),
      ),
    );
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

/**
 * Unpacks into `<case>/tmp/checkout` (as the App does into a fresh temp directory) and reports what exists
 * outside `checkout` afterwards, anywhere under the case directory: contained when nothing does.
 */
async function unpackOutside(entries: TarEntry[]): Promise<Outcome> {
  const tmp = path.join(dir, "tmp");
  const target = path.join(tmp, "checkout");
  mkdirSync(target, { recursive: true });
  const before = new Set(walk(dir));
  const answer = await unpackTarball(await tarball(entries), target).then(
    (r) => `unpacked ${r.files} files, ${r.links} links, dropped ${JSON.stringify(r.droppedLinks)}`,
    (e: Error) => `refused: ${e.message}`,
  );
  const outside = walk(dir).filter((p) => !before.has(p) && !p.startsWith(`${target}/`) && p !== target);
  return ok(
    `${short(answer, 160)}; outside the checkout: ${JSON.stringify(outside.map((p) => path.relative(dir, p)))}`,
    outside.length === 0,
  );
}

function walk(d: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(d)) {
    const p = path.join(d, name);
    out.push(p);
    const st = lstatSync(p);
    if (st.isDirectory()) out.push(...walk(p));
  }
  return out;
}

// ---- The install proxy, spoken to as a compromised npm in the install container would (its socket is all
// the container has).

async function hostService(): Promise<{ port: number; hits: () => number; close: () => void }> {
  let hits = 0;
  const server = net.createServer((s) => {
    hits++;
    s.end("HTTP/1.1 200 OK\r\ncontent-length: 12\r\nconnection: close\r\n\r\nHOST-SERVICE");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: () => server.close(),
  };
}

/** Raw bytes to the proxy's socket; what came back within `ms`. */
function viaSocket(socket: string, writes: string[], ms = 3_000): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(socket);
    let got = "";
    s.on("connect", async () => {
      for (const w of writes) {
        s.write(w);
        await new Promise((r) => setTimeout(r, 300));
      }
    });
    s.on("data", (d) => {
      got += d;
    });
    const end = () => resolve(got);
    s.on("error", end);
    s.on("close", end);
    setTimeout(() => {
      s.destroy();
      end();
    }, ms).unref();
  });
}

async function proxyCase(
  options: { repositoryHosts?: (port: number) => string[]; allow?: (port: number) => string[] },
  writes: (port: number) => string[],
): Promise<Outcome> {
  const service = await hostService();
  const registry = http.createServer((_req, res) => res.end("{}"));
  await new Promise<void>((r) => registry.listen(0, "127.0.0.1", r));
  const regPort = (registry.address() as AddressInfo).port;
  const repositoryHosts = options.repositoryHosts?.(service.port) ?? [];
  const proxy = await startEgressProxy({
    allow: [`127.0.0.1:${regPort}`, ...(options.allow?.(service.port) ?? []), ...repositoryHosts],
    routes: { [VIRTUAL_NPM_HOST]: `http://127.0.0.1:${regPort}/` },
    repositoryHosts,
    idleMs: 5_000,
  });
  try {
    const answer = await viaSocket(path.join(proxy.socketDir, "proxy.sock"), writes(service.port));
    return ok(
      `answer ${JSON.stringify(short(answer, 120))}; host service reached ${service.hits()} times; refused ${JSON.stringify(proxy.refused())}`,
      service.hits() === 0 && !answer.includes("HOST-SERVICE"),
    );
  } finally {
    await proxy.close();
    service.close();
    registry.close();
  }
}

// ---- Reports and run outputs.

/** An ordinary report (about 51 KB: prose, a code block, a pasted stack trace), nothing hostile in it. */
function ordinaryReport(): string {
  const prose =
    "When I call `parse()` on a large input with the `strict` option the library throws instead of returning the parsed value. This started after upgrading from 2.3.1 to 2.4.0. ";
  const code = Array.from(
    { length: 150 },
    (_, i) => `const v${i} = parse(input${i % 7}, { strict: true, depth: ${i} });\nconsole.log(v${i});`,
  ).join("\n");
  const trace = Array.from(
    { length: 500 },
    (_, i) => `    at Object.parse (/home/me/app/node_modules/lib/dist/index.js:${100 + i}:${i % 80})`,
  ).join("\n");
  return `### Describe the bug\n\n${prose.repeat(20)}\n\n### To reproduce\n\n\`\`\`js\nconst { parse } = require('lib');\n${code}\n\`\`\`\n\n### Actual\n\n\`\`\`\nTypeError: Cannot read properties of undefined (reading 'x')\n${trace}\n\`\`\`\n\n### Expected\n\nIt returns the value.\n\n### Environment\n\n- lib 2.4.0\n- Node 20.11.0\n`;
}

/**
 * `retrace repro --offline --json --runs 1` on a report, through the real CLI and the real engine; its host CPU
 * (the CLI and what it starts) from /usr/bin/time. Contained when it answers within 240 s and 20 s of CPU.
 */
function cliRepro(body: string): Outcome {
  const file = path.join(dir, "report.md");
  writeFileSync(file, body);
  const r = spawnSync(
    "/usr/bin/time",
    [
      "-f",
      "cpu %U %S",
      process.execPath,
      path.join(REPO, "bin/retrace.mjs"),
      "repro",
      file,
      "--offline",
      "--json",
      "--runs",
      "1",
    ],
    {
      cwd: dir,
      env: { ...process.env, RETRACE_CLI_FROM_SOURCE: "1", ANTHROPIC_API_KEY: "" },
      timeout: 240_000,
      killSignal: "SIGKILL",
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr ?? "");
  const cpuS = cpu ? Number(cpu[1]) + Number(cpu[2]) : null;
  const verdict = /"verdict"\s*:\s*"(\w+)"/.exec(r.stdout ?? "")?.[1] ?? "none";
  const killed = r.signal === "SIGKILL" || cpuS === null;
  return ok(
    `${killed ? "killed after 240 s" : `exit ${r.status}, verdict ${verdict}`}, CLI host CPU ${cpuS ?? "?"} s; ${short(
      (r.stderr ?? "")
        .split("\n")
        .filter((l) => !l.startsWith("cpu "))
        .slice(-3)
        .join(" | "),
      160,
    )}`,
    !killed && cpuS !== null && cpuS <= 20,
  );
}

const jsReport = (code: string, actual: string) =>
  `### Bug\n\nIt prints the wrong thing.\n\n\`\`\`js\n${code}\n\`\`\`\n\nActual output:\n\n\`\`\`\n${actual}\n\`\`\`\n\nExpected output:\n\n\`\`\`\nok\n\`\`\`\n`;

/**
 * Busy processes on every core while `fn` runs (a loaded host, as the App's is under several jobs). The hogs and
 * this process run at nice 19 meanwhile: among themselves they share the CPU as equals, so `fn` is starved as on
 * a loaded host, while other processes of the machine (other tests, other sessions) barely notice them. The first
 * try ran the hogs at the default priority, which starved everything else on the machine too.
 */
async function underLoad<T>(n: number, fn: () => T): Promise<T> {
  const before = os.getPriority();
  os.setPriority(19);
  const hogs = Array.from({ length: n }, () =>
    spawn("nice", ["-n", "19", process.execPath, "-e", "for(;;){}"], { stdio: "ignore" }),
  );
  await new Promise((r) => setTimeout(r, 500));
  try {
    return fn();
  } finally {
    for (const h of hogs) h.kill("SIGKILL");
    try {
      os.setPriority(before);
    } catch {
      // Raising priority back needs privilege; the process ends after its cases anyway.
    }
  }
}

/** A registry on loopback answering every packument request with `body`. */
async function withRegistry(
  body: (name: string) => string | { status: number; text: string },
  use: (url: string) => Promise<Outcome>,
): Promise<Outcome> {
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? "/").slice(1));
    const b = body(name);
    if (typeof b === "string") {
      res.setHeader("content-type", "application/json");
      res.end(b);
    } else {
      res.statusCode = b.status;
      res.end(b.text);
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

function lookupWith(npm: string) {
  const registryConfig = {
    npm,
    pip: { indexUrl: "https://pypi.org/simple", extraIndexUrls: [], findLinks: [] },
    caFile: null,
  } as unknown as RegistryConfig;
  return createRegistryLookup({ registryConfig, cacheDir: null });
}

const yamlTime = (text: string): Outcome => {
  try {
    loadConfigFromString(text);
    return ok("read");
  } catch (e) {
    return ok(`refused: ${short((e as Error).message, 120)}`);
  }
};

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // ---- A run's output, read on the host by the repro matcher (the report's code prints whatever it likes).
  "run-stderr-enoent-line": () =>
    cliRepro(
      jsReport(`process.stderr.write("ENOENT".repeat(2_500_000));\nthrow new Error("boom")`, "Error: boom"),
    ),
  "run-stdout-osc-unterminated": () =>
    cliRepro(jsReport(`process.stdout.write("\\x1b]".repeat(4_000_000));\nconsole.log("done")`, "done")),
  "run-stdout-16mib-lines": () =>
    cliRepro(
      jsReport(
        `const line = "line of output ".repeat(4) + "\\n";\nprocess.stdout.write(line.repeat(270_000));\nconsole.log("done")`,
        "done",
      ),
    ),
  "run-stderr-python-dotted-lines": () =>
    cliRepro(
      `### Bug\n\nIt raises.\n\n\`\`\`python\nimport sys\nsys.stderr.write(("a." * 40000 + "\\n") * 300)\nraise KeyError("x")\n\`\`\`\n\nActual:\n\n\`\`\`\nKeyError: 'x'\n\`\`\`\n`,
    ),
  // Added after the first try (it reached the rule the first try's ENOENT case meant to): the run fails with
  // another error than the reported one, so the matcher looks for a missing file in 1 MiB of `ENOENT`.
  "run-stderr-enoent-other-error": () =>
    cliRepro(
      `### Bug\n\nIt throws.\n\n\`\`\`js\nprocess.stderr.write("ENOENT".repeat(170_000));\nthrow new RangeError("other")\n\`\`\`\n\nActual:\n\n\`\`\`\nTypeError: boom\n\`\`\`\n`,
    ),
  // ---- An ordinary report on a loaded host: the parse's limit must not be a verdict about the report.
  "report-ordinary-on-loaded-host": async () => {
    const text = ordinaryReport();
    const r = await underLoad(8, () => {
      try {
        const read = readReport(text);
        if (read.unreadable) return `unreadable: ${read.unreadable}`;
        const e = readExpectations(read.report!);
        return e.unreadable ? `unreadable: ${e.unreadable}` : "read";
      } catch (e) {
        // An infrastructure error naming the busy host is an answer about the host, not the report.
        return `${(e as { kind?: string }).kind ?? "error"} error: ${(e as Error).message}`;
      }
    });
    return ok(short(r, 200), r === "read" || /^infrastructure error: .*busy/.test(r));
  },
  "report-ordinary-idle-host": () => {
    const read = readReport(ordinaryReport());
    const e = read.report ? readExpectations(read.report) : null;
    const r = read.unreadable ?? e?.unreadable ?? "read";
    return ok(short(r, 200), r === "read");
  },
  // ---- CI logs.
  "log-unittest-outcome-parens": () =>
    log(lines(`test_a (pkg.mod.Case) (${"(x) ... ".repeat(1_900)}`, 1 << 20), true),
  "log-unittest-subtest-brackets": () =>
    log(lines(`  test_a (pkg.mod.Case) [${"x] ... [".repeat(1_800)}`, 1 << 20), true),
  "log-unittest-described-dots": () =>
    log(lines(`test_a (pkg.mod.Case)${" ...".repeat(4_000)}`, 1 << 20), true),
  // ---- The App's tarball unpacker: links under links.
  "tarball-link-under-link-one-up": () =>
    unpackOutside([
      { name: "s", type: "symlink", linkname: "." },
      { name: "t", type: "symlink", linkname: "s/.." },
      { name: "t/rt9-escape/x", type: "symlink", linkname: "y" },
    ]),
  "tarball-link-under-link-two-up": () =>
    unpackOutside([
      { name: "s", type: "symlink", linkname: "." },
      { name: "t", type: "symlink", linkname: "s/.." },
      { name: "u", type: "symlink", linkname: "t/.." },
      { name: "u/rt9-escape-2", type: "symlink", linkname: "a.txt" },
      { name: "a.txt", body: "a\n" },
    ]),
  "tarball-file-under-link": () =>
    unpackOutside([
      { name: "s", type: "symlink", linkname: "." },
      { name: "t", type: "symlink", linkname: "s/.." },
      { name: "t/rt9-file.txt", body: "x\n" },
    ]),
  "tarball-dir-named-like-link-target": () =>
    unpackOutside([
      { name: "d", type: "directory" },
      { name: "d/l", type: "symlink", linkname: ".." },
      { name: "d/l/d/m", type: "symlink", linkname: "../.." },
      { name: "d/l/d/m/rt9-escape-3", type: "symlink", linkname: "x" },
    ]),
  // ---- Files git reads in the checkout's .git, as links to a host file or pointers to a host repository.
  "git-packed-refs-link-to-host-file": async () => {
    const c = checkout();
    symlinkSync(hostFile(), path.join(c, ".git", "packed-refs"));
    return noHostText(await fixGitSteps(c));
  },
  "git-shallow-link-to-host-file": async () => {
    const c = checkout();
    symlinkSync(hostFile(), path.join(c, ".git", "shallow"));
    return noHostText(await fixGitSteps(c));
  },
  "git-alternates-link-to-host-file": async () => {
    const c = checkout();
    mkdirSync(path.join(c, ".git", "objects", "info"), { recursive: true });
    symlinkSync(hostFile(), path.join(c, ".git", "objects", "info", "alternates"));
    // HEAD names a commit the checkout does not hold, so git fails and its stderr is reported.
    writeFileSync(path.join(c, ".git", "refs", "heads", "main"), `${"1".repeat(40)}\n`);
    return noHostText(await fixGitSteps(c));
  },
  "git-index-link-to-host-file": async () => {
    const c = checkout();
    // The index exists after the commits: replaced by the link (the first try's harness linked over it and failed).
    rmSync(path.join(c, ".git", "index"));
    symlinkSync(hostFile(), path.join(c, ".git", "index"));
    const r = await safeGit(c)
      .raw(["status", "--porcelain"])
      .then(
        (s) => `status: ${s}`,
        (e: Error) => `status failed: ${e.message}`,
      );
    // The host file's first four bytes as git prints an index signature.
    const sig = `0x${Buffer.from(HOST_TEXT.slice(0, 4)).toString("hex")}`;
    return noHostText(r, !r.includes(sig));
  },
  "git-head-link-to-host-file": async () => {
    const c = checkout();
    const head = path.join(c, ".git", "HEAD");
    execFileSync("rm", [head]);
    symlinkSync(hostFile(), head);
    return noHostText(await fixGitSteps(c));
  },
  "git-commondir-host-repository": async () => {
    const h = hostRepo();
    const c = checkout();
    writeFileSync(path.join(c, ".git", "commondir"), `${path.join(h.dir, ".git")}\n`);
    const r = await fixGitSteps(c);
    const after = git(h.dir, "for-each-ref");
    return noHostText(
      `${r}; host repository refs ${after === h.refs ? "unchanged" : "CHANGED"}`,
      after === h.refs,
    );
  },
  "git-alternates-host-repository-objects": async () => {
    const h = hostRepo();
    const c = checkout();
    mkdirSync(path.join(c, ".git", "objects", "info"), { recursive: true });
    writeFileSync(
      path.join(c, ".git", "objects", "info", "alternates"),
      `${path.join(h.dir, ".git", "objects")}\n`,
    );
    // The checkout's branch moved to a commit of the host repository (its objects come through the alternate).
    writeFileSync(path.join(c, ".git", "refs", "heads", "main"), `${h.sha}\n`);
    return noHostText(await fixGitSteps(c));
  },
  "git-gitdir-file-host-repository": async () => {
    const h = hostRepo();
    const c = path.join(dir, "checkout");
    mkdirSync(c, { recursive: true });
    writeFileSync(path.join(c, ".git"), `gitdir: ${path.join(h.dir, ".git")}\n`);
    writeFileSync(path.join(c, "a.txt"), "a\n");
    const r = await fixGitSteps(c);
    const after = git(h.dir, "for-each-ref");
    return noHostText(
      `${r}; host repository refs ${after === h.refs ? "unchanged" : "CHANGED"}`,
      after === h.refs,
    );
  },
  // ---- The install proxy.
  "proxy-absolute-form-to-loopback": () =>
    proxyCase({}, (port) => [`GET http://127.0.0.1:${port}/ HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`]),
  "proxy-ipv6-mapped-repository-host": () =>
    proxyCase({ repositoryHosts: (port) => [`::ffff:7f00:1:${port}`] }, (port) => [
      `CONNECT [::ffff:127.0.0.1]:${port} HTTP/1.1\r\nhost: [::ffff:127.0.0.1]:${port}\r\n\r\n`,
      "GET / HTTP/1.1\r\nhost: x\r\n\r\n",
    ]),
  "proxy-virtual-tunnel-then-loopback": () =>
    proxyCase({}, (port) => [
      `CONNECT ${VIRTUAL_NPM_HOST}:80 HTTP/1.1\r\nhost: ${VIRTUAL_NPM_HOST}:80\r\n\r\n`,
      `GET http://127.0.0.1:${port}/ HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`,
    ]),
  "proxy-connect-userinfo-confusion": () =>
    proxyCase({}, (port) => [
      `CONNECT registry.npmjs.org:443@127.0.0.1:${port} HTTP/1.1\r\nhost: x\r\n\r\n`,
      `CONNECT 127.0.0.1:${port}#registry.npmjs.org:443 HTTP/1.1\r\nhost: x\r\n\r\n`,
    ]),
  "proxy-route-host-header-to-loopback": () =>
    proxyCase({}, (port) => [
      `GET http://${VIRTUAL_NPM_HOST}/lodash HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nx-forwarded-host: 127.0.0.1:${port}\r\n\r\n`,
      `GET http://${VIRTUAL_NPM_HOST}@127.0.0.1:${port}/lodash HTTP/1.1\r\nhost: x\r\n\r\n`,
    ]),
  // ---- The config file: YAML's own cost on 64 KiB (configKb).
  "config-yaml-6500-keys": () => yamlTime(Array.from({ length: 6_500 }, (_, i) => `k${i}: 1`).join("\n")),
  "config-yaml-flow-map-keys": () =>
    yamlTime(`{${Array.from({ length: 6_500 }, (_, i) => `k${i}: 1`).join(", ")}}`),
  "config-yaml-tagged-scalars": () =>
    yamlTime(Array.from({ length: 6_000 }, (_, i) => `k${i}: !!str 1`).join("\n")),
  // ---- Python manifests at the workspace read cap (8 MiB).
  "setup-py-unclosed-list-8mib": () => {
    const t = `setup(install_requires=[${"'a',".repeat(2_000_000)}`;
    const r = setupPyRequirements(t);
    return ok(`${t.length} chars; ${r.requirements.length} requirements`);
  },
  "pyproject-array-tables-8mib": () => {
    const t = "[[a]]\n".repeat(1_400_000);
    try {
      const r = pyprojectRequirements(t);
      return ok(`${t.length} chars; ${r.requirements.length} requirements`);
    } catch (e) {
      return ok(`refused: ${short((e as Error).message, 120)}`);
    }
  },
  // ---- The registry look-up: what a registry answers (public packages are anyone's).
  "lookup-engines-range-bomb": () =>
    withRegistry(
      (name) => {
        const engines = { node: Array.from({ length: 60_000 }, (_, i) => `<0.0.${i}`).join(" || ") };
        const versions: Record<string, unknown> = {};
        for (let i = 0; i < 200; i++) versions[`1.0.${i}`] = { name, version: `1.0.${i}`, engines };
        return JSON.stringify({ name, "dist-tags": { latest: "1.0.199" }, versions });
      },
      async (url) => {
        const v = await lookupWith(url).latestVersion("npm", "rt9-engines", { node: "22.11.0" });
        return ok(`latest for node 22: ${v}`);
      },
    ),
  "lookup-200k-versions": () =>
    withRegistry(
      (name) => {
        const versions: Record<string, unknown> = {};
        for (let i = 0; i < 200_000; i++)
          versions[`1.${i >> 10}.${i & 1023}`] = { engines: { node: ">=99" } };
        return JSON.stringify({ name, "dist-tags": { latest: "1.195.319" }, versions });
      },
      async (url) => {
        const v = await lookupWith(url).latestVersion("npm", "rt9-many", { node: "22.11.0" });
        return ok(`latest for node 22: ${v}`);
      },
    ),
  "lookup-registry-userinfo-error": () =>
    withRegistry(
      () => ({ status: 500, text: "boom" }),
      async (url) => {
        const secret = "rt9registryPASSWORD0123456789";
        const withAuth = url.replace("http://", `http://rt9user:${secret}@`);
        const v = await lookupWith(withAuth)
          .latestVersion("npm", "rt9-pkg")
          .then(
            (x) => `answer ${x}`,
            (e: Error) => `threw ${e.message}`,
          );
        return ok(v, !v.includes(secret));
      },
    ),
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
});
