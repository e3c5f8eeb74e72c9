/**
 * Host-side steps of the eighteenth red team's cases, run in a process of their own
 * (`tsx redteam18-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Waves 12–17 went to patches, Retrace's texts, model answers, run reports, format characters, the look-up cache and
 * events; this one goes to what they left and to time: unassigned code points that Unicode makes default-ignorable
 * (a conforming renderer draws them as nothing: U+2065, U+FFF0–U+FFF8, U+E0080–U+E00FF, U+E01F0–U+E0FFF) in an added
 * line, a path, a commit message and a PR title; IPv6 spellings that embed an internal IPv4 address (NAT64, 6to4,
 * IPv4-compatible and -translated) or name a deprecated internal range (site-local) as a repository's host in the
 * install proxy and as a checkout's origin; timestamps from the future (a host clock set ahead, then corrected) in
 * the look-up cache, the manifest index and the install cache's entries and temporaries; the `.tmp-` trees of killed
 * installs against the cache quota (left by wave 15); and comment commands a maintainer reads as code. One JSON line
 * per case: `{ id, cpuMs, outcome, contained }`.
 */
import { mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import path from "node:path";
import { existsSync } from "node:fs";
import { originAccess } from "../../../src/git/origin.ts";
import { InstallCache, lookupByManifest, recordManifest } from "../../../src/install/cache.ts";
import { startEgressProxy } from "../../../src/install/proxy.ts";
import { createRegistryLookup } from "../../../src/install/registry-lookup.ts";
import { parseEvent } from "../../../src/jobs/triggers.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { example } from "../../e2e/support/app-harness.ts";
import {
  commitMessageOf,
  gateLine as gate,
  gateVerdict as verdict,
  noRaw,
  prTitleOf,
  short,
} from "./patch-step.ts";
import { type Outcome, ok, runStepCases } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const APP = { kind: "app", identity: { appId: 1, appSlug: "retrace" } } as const;
const YEAR = 365 * 24 * 3_600_000;

// ---- Unassigned default-ignorable code points in what a maintainer reads.

// ---- IPv6 spellings of internal addresses.

/**
 * A CONNECT through Retrace's install proxy to `[host]:port`, a host the repository named, listed as the proxy
 * spells a target (`hostPort`: no brackets; the first try wrote them, and the allow-list answered 403 before the
 * internal-address rule was reached); contained when refused as internal.
 */
async function repositoryHost(bracketed: string): Promise<Outcome> {
  const target = bracketed.replace(/^\[([^\]]+)\]/, "$1");
  const proxy = await startEgressProxy({ allow: [target], repositoryHosts: [target], idleMs: 2_000 });
  try {
    const answer = await new Promise<string>((resolve) => {
      const c = net.connect(path.join(proxy.socketDir, "proxy.sock"), () =>
        c.write(`CONNECT ${bracketed} HTTP/1.1\r\nhost: ${bracketed}\r\n\r\n`),
      );
      let got = "";
      c.on("data", (d) => {
        got += d;
      });
      c.on("close", () => resolve(got.split("\r\n")[0] || "(closed without an answer)"));
      c.on("error", () => resolve(got.split("\r\n")[0] || "(connection error)"));
      setTimeout(() => c.destroy(), 4_000);
    });
    const why = proxy.refused().find((r) => r.includes("internal address"));
    return ok(
      why
        ? `refused: ${why}`
        : `the proxy connected out (client saw ${JSON.stringify(answer)}; refused: ${JSON.stringify(proxy.refused())})`,
      why !== undefined,
    );
  } finally {
    await proxy.close();
  }
}
async function origin(url: string, answer: string[] = []): Promise<Outcome> {
  const r = await originAccess(url, [], async () => answer);
  return ok("refused" in r ? `refused: ${short(r.refused, 160)}` : "git may fetch from it", "refused" in r);
}

// ---- Time: a host clock set ahead, then corrected.

/** Runs `fn` with Date.now `ahead` ms in the future (a host clock set wrong, as after a VM resume). */
async function skewed<T>(ahead: number, fn: () => Promise<T>): Promise<T> {
  const real = Date.now;
  Date.now = () => real() + ahead;
  try {
    return await fn();
  } finally {
    Date.now = real;
  }
}
async function registry(version: string): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ "dist-tags": { latest: version }, versions: { [version]: {} } }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
const lookupOn = (url: string) =>
  createRegistryLookup({
    cacheDir: path.join(dir, "cache"),
    registryConfig: {
      npm: url,
      pip: { indexUrl: "", extraIndexUrls: [], findLinks: [] },
      caFile: null,
    } as never,
    timeoutMs: 2_000,
  });

/** Writes `bytes` bytes into a fresh temporary of `cache`, as an installer would. */
async function filled(cache: InstallCache, kind: string, key: string, bytes: number): Promise<string> {
  const tmp = await cache.tempDir(kind, key);
  mkdirSync(tmp, { recursive: true });
  writeFileSync(path.join(tmp, "blob"), Buffer.alloc(bytes, 1));
  return tmp;
}
function duBytes(p: string): number {
  let n = 0;
  for (const e of readdirSync(p, { withFileTypes: true })) {
    const f = path.join(p, e.name);
    if (e.isDirectory()) n += duBytes(f);
    else n += statSync(f).size;
  }
  return n;
}
const MiB = 1024 * 1024;

// ---- Comment commands.

function comment(body: string) {
  const p = example("issue_comment", "created");
  p.comment.body = body;
  p.comment.user = { login: "maintainer", type: "User" };
  p.sender = { login: "maintainer", type: "User" };
  return p;
}
function command(body: string): Outcome {
  const d = parseEvent("issue_comment", comment(body), APP);
  return ok(
    d.accept ? `a comment GitHub renders as code started a ${d.trigger.type} job` : `skipped: ${d.reason}`,
    !d.accept,
  );
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // Unassigned default-ignorable code points (Cn, so not \p{Cf}): Unicode tells renderers to draw them as nothing.
  "patch-line-unassigned-ignorable-2065-in-key": () => gate('const role = roles["admin\u2065"] ?? "guest";'),
  "patch-line-unassigned-ignorable-fff0-in-key": () => gate('const role = roles["admin\ufff0"] ?? "guest";'),
  "patch-line-unassigned-ignorable-fff8-between-operators": () => gate("if (ok \ufff8|| true) allow();"),
  "patch-line-unassigned-ignorable-e0080-after-tags": () => gate('const key = "sk\u{e0080}\u{e00ff}";'),
  "patch-line-unassigned-ignorable-e01f0-after-selectors": () =>
    gate('const role = roles["admin\u{e01f0}"] ?? "guest";'),
  "patch-path-unassigned-ignorable-twin": () =>
    verdict(
      "diff --git a/src/auth\u2065.js b/src/auth\u2065.js\nnew file mode 100644\n--- /dev/null\n+++ b/src/auth\u2065.js\n@@ -0,0 +1 @@\n+module.exports = () => true;\n",
    ),
  "commit-message-unassigned-ignorable-in-summary": async () =>
    noRaw(
      "the commit message",
      await commitMessageOf("rt18-cm", "Fix the check\u2065\ufff0 [skip ci]\u{e0fff}", []),
      ["\u2065", "\ufff0", "\u{e0fff}"],
    ),
  "pr-title-unassigned-ignorable-in-test-id": () =>
    noRaw("the PR title", prTitleOf("rt18-pr", ["tests/test_a.py::test_admin\u2065\u{e0080}"]), [
      "\u2065",
      "\u{e0080}",
    ]),
  "commit-message-unassigned-ignorable-in-test-id": async () =>
    noRaw("the commit message", await commitMessageOf("rt18-ti", "Fix it", ["t::admin\ufff5\u{e01f0}"]), [
      "\ufff5",
      "\u{e01f0}",
    ]),

  // IPv6 spellings of internal addresses as a repository's host (install proxy) and a checkout's origin.
  "proxy-repository-host-nat64-private": () => repositoryHost("[64:ff9b::a00:1]:443"),
  "proxy-repository-host-nat64-local-use-metadata": () => repositoryHost("[64:ff9b:1::a9fe:a9fe]:80"),
  "proxy-repository-host-6to4-loopback": () => repositoryHost("[2002:7f00:1::1]:443"),
  "proxy-repository-host-site-local": () => repositoryHost("[fec0::1]:443"),
  "proxy-repository-host-ipv4-compatible-loopback": () => repositoryHost("[::7f00:1]:443"),
  "proxy-repository-host-ipv4-translated-loopback": () => repositoryHost("[::ffff:0:7f00:1]:443"),
  "origin-literal-nat64-metadata": () => origin("https://[64:ff9b::a9fe:a9fe]/o/r.git"),
  "origin-name-resolves-to-6to4-private": () =>
    origin("https://git.example.com/o/r.git", ["2002:c0a8:101::1"]),
  "origin-literal-site-local": () => origin("ssh://git@[fec0::1]/o/r.git"),
  "patch-line-unassigned-ignorable-e0fff-in-identifier": () => gate("const isAdmin\u{e0fff} = true;"),
  "origin-name-resolves-to-nat64-loopback": () =>
    origin("ssh://git@git.example.com/o/r.git", ["64:ff9b::7f00:1"]),

  // Timestamps from the future: the host clock was set a year ahead while these were written, then corrected.
  "lookup-cache-future-entry-served-forever": async () => {
    const old = await registry("0.0.1");
    await skewed(YEAR, () => lookupOn(old.url).latestVersion("npm", "left-pad"));
    old.close();
    // The same registry address now serves 1.0.0 (a fixed release); the cached answer is a year "fresh".
    const reg = await registry("1.0.0");
    const port = new URL(old.url).port;
    reg.close();
    const now = await registry("1.0.0");
    try {
      // Same cache key needs the same URL: re-listen on the old port when free, else compare through the cache file.
      const v = await (async () => {
        const server = http.createServer((req, res) => {
          req.resume();
          res.end(JSON.stringify({ "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": {} } }));
        });
        await new Promise<void>((r) => server.listen(Number(port), "127.0.0.1", r));
        try {
          return await lookupOn(old.url).latestVersion("npm", "left-pad");
        } finally {
          server.closeAllConnections();
          server.close();
        }
      })();
      return ok(
        v === "0.0.1"
          ? "after the clock was corrected, the answer written a year ahead (0.0.1) is still served; the registry says 1.0.0"
          : `looked up again: ${v}`,
        v !== "0.0.1",
      );
    } finally {
      now.close();
    }
  },
  "lookup-cache-future-entries-crowd-out-fresh": async () => {
    const reg = await registry("1.0.0");
    try {
      await skewed(YEAR, async () => {
        const l = lookupOn(reg.url);
        await Promise.all(Array.from({ length: 1_000 }, (_, i) => l.latestVersion("npm", `old-${i}`)));
      });
      const l = lookupOn(reg.url);
      await Promise.all(Array.from({ length: 20 }, (_, i) => l.latestVersion("npm", `new-${i}`)));
      const { readFileSync } = await import("node:fs");
      const disk = JSON.parse(readFileSync(path.join(dir, "cache", "latest-versions.json"), "utf8"));
      const kept = Object.keys(disk).filter((k) => k.includes(":new-")).length;
      return ok(
        `after the clock was corrected: ${kept} of 20 new answers kept on disk beside ${Object.keys(disk).length - kept} dated a year ahead`,
        kept === 20,
      );
    } finally {
      reg.close();
    }
  },
  "cache-manifest-index-from-future-never-expires": async () => {
    const cache = new InstallCache({ root: path.join(dir, "install-cache") } as never);
    const tree = await filled(cache, "npm", "tree1", 10);
    await cache.commit("npm", "tree1", tree, {});
    await skewed(YEAR, () => recordManifest(cache, "npm", "manifest1", "tree1"));
    // A day and a half later (real time): the manifest's floating ranges must be resolved again.
    const real = Date.now;
    Date.now = () => real() + 36 * 3_600_000;
    try {
      const hit = await lookupByManifest(cache, "npm", "manifest1");
      return ok(
        hit
          ? `a resolution dated ${hit.resolvedAt} is reused 36 h later (TTL 24 h): floating ranges never pick up a release`
          : "resolved again after the TTL",
        hit === null,
      );
    } finally {
      Date.now = real;
    }
  },
  "cache-entry-from-future-never-evicted": async () => {
    const cache = new InstallCache({
      root: path.join(dir, "install-cache"),
      quotaBytes: 3 * MiB,
      protectMs: 60_000,
    } as never);
    const a = await filled(cache, "npm", "old", 2 * MiB);
    const e = await cache.commit("npm", "old", a, {});
    // Written while the clock was a year ahead: its marker's mtime is in the future.
    const marker = path.join(e.dir, ".retrace-entry.json");
    const future = new Date(Date.now() + YEAR);
    utimesSync(marker, future, future);
    const b = await filled(cache, "npm", "new", 2 * MiB);
    try {
      await cache.commit("npm", "new", b, {});
      return ok(
        existsSync(e.dir) ? "both kept past the quota" : "the entry dated ahead was evicted for the new one",
        !existsSync(e.dir),
      );
    } catch (err) {
      return ok(
        `the new entry was refused (${short((err as Error).message, 160)}): an entry dated a year ahead counts as used in the protection window for a year`,
        false,
      );
    }
  },
  "cache-tmp-tree-from-future-never-removed": async () => {
    const cache = new InstallCache({ root: path.join(dir, "install-cache"), quotaBytes: 8 * MiB } as never);
    // A temporary another process left (it was killed): named as `tempDir` names them, not handed out here (the
    // first try used this process's `tempDir`, which the fix now keeps as in flight).
    await cache.tempDir("npm", "x");
    const tmp = path.join(dir, "install-cache", "npm", "killed.tmp-4194304-deadbeef");
    mkdirSync(tmp, { recursive: true });
    writeFileSync(path.join(tmp, "blob"), Buffer.alloc(MiB, 1));
    const future = new Date(Date.now() + YEAR);
    utimesSync(tmp, future, future);
    // Two hours later (real time) a commit sweeps the dead installs.
    const real = Date.now;
    Date.now = () => real() + 2 * 3_600_000;
    try {
      const c = await filled(cache, "npm", "next", 10);
      await cache.commit("npm", "next", c, {});
    } finally {
      Date.now = real;
    }
    return ok(
      existsSync(tmp)
        ? "a killed install's temporary dated ahead is kept (never older than an hour)"
        : "removed",
      !existsSync(tmp),
    );
  },
  "cache-killed-install-temporaries-past-quota": async () => {
    const root2 = path.join(dir, "install-cache");
    const cache = new InstallCache({ root: root2, quotaBytes: 2 * MiB } as never);
    for (let i = 0; i < 4; i++) await filled(cache, "npm", `killed${i}`, 2 * MiB);
    const c = await filled(cache, "npm", "next", MiB);
    let said = "committed";
    try {
      await cache.commit("npm", "next", c, {});
    } catch (err) {
      said = `refused: ${short((err as Error).message, 100)}`;
    }
    const bytes = duBytes(root2);
    return ok(
      `${said}; ${Math.round(bytes / MiB)} MiB on disk under a 2 MiB quota (killed installs' temporaries not counted)`,
      bytes <= 2 * MiB + 64 * 1024,
    );
  },

  // Comment commands a maintainer reads as code (GitHub renders an indented line as a code block).
  "event-comment-command-in-indented-code": () =>
    command("    /autofix\n\nThe docs say to run the line above."),
  "event-comment-command-in-tab-indented-code": () => command("\t/repro\n\nthat is how the bot is called"),
  "event-comment-command-after-blank-lines-in-code": () => command("\n\n      /autofix --help\n"),
  "event-comment-command-in-indented-code-crlf": () => command("    /autofix\r\n\r\nquoted from the README"),
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
  if (!existsSync(d)) throw new Error(`no case directory ${d}`);
});
