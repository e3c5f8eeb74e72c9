/**
 * "The registry answered: no such package" (404 / 410, a packument without releases, no index page) is not "the
 * registry could not be reached" (refused, time-out, 5xx): only the second is an infrastructure error (issue 12,
 * hold16: `@html-to-text/monorepo` and `@jupyter-notebook/root`, the private root manifests of the reports'
 * repositories, ended the job with exit 3). The registry is faked at the HTTP layer, on loopback; the look-up,
 * the installer and the pipeline are the real ones.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { ManualClock } from "../../../src/core/loop-clock.ts";
import type { SandboxRunRequest } from "../../../src/core/ports/sandbox.ts";
import { ContainerDependencyInstaller } from "../../../src/install/installer.ts";
import type { RegistryConfig } from "../../../src/install/registry-config.ts";
import { createRegistryLookup } from "../../../src/install/registry-lookup.ts";
import type { ReproPorts } from "../../../src/repro/ports.ts";
import { runRepro } from "../../../src/repro/run-repro.ts";
import { fakeSandbox, type ScriptedRun } from "../../support/fake-sandbox.ts";

/** Paths the fake registry answers, by status; anything else is 404. `/hang/…` never answers, `/broken/…` is 500. */
const routes: Record<string, { status: number; body?: unknown }> = {
  "/ms": { status: 200, body: { "dist-tags": { latest: "2.1.3" }, versions: { "2.1.3": {} } } },
  "/@html-to-text%2fmonorepo": { status: 404, body: { error: "Not found" } },
  "/gone-pkg": { status: 410, body: { error: "Gone" } },
  "/unpublished-pkg": { status: 200, body: { name: "unpublished-pkg", time: { unpublished: {} } } },
  "/broken-pkg": { status: 503, body: "Service Unavailable" },
  "/private-pkg": { status: 401, body: { error: "auth required" } },
  "/simple/requests/": {
    status: 200,
    body: '<a href="../../files/requests-2.32.3-py3-none-any.whl">w</a>',
  },
};

let server: http.Server;
let base: string;
let dir: string;
const requests: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "retrace-no-such-"));
  server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    if (req.url?.startsWith("/hang/")) return; // never answers: the look-up's time limit ends it
    const route = req.url?.startsWith("/broken/")
      ? { status: 500, body: "oops" }
      : (routes[req.url ?? ""] ?? { status: 404, body: "not found" });
    res.writeHead(route.status, {
      "content-type": typeof route.body === "string" ? "text/html" : "application/json",
    });
    res.end(typeof route.body === "string" ? route.body : JSON.stringify(route.body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const config = (npm: string, pip: Partial<RegistryConfig["pip"]> = {}): RegistryConfig => ({
  npm,
  pip: { indexUrl: `${base}simple`, extraIndexUrls: [], findLinks: [], ...pip },
  caFile: null,
});
const lookupOf = (c: RegistryConfig) =>
  createRegistryLookup({ registryConfig: c, cacheDir: null, timeoutMs: 300 });
/** A port nothing listens on: the connection is refused. */
const closedPort = "http://127.0.0.1:9/";

describe("latestRelease: the registry's 'no such package' apart from 'could not be reached'", () => {
  it("npm: 404 and 410 and a packument without releases are missing; 503, 401, refused and a time-out are unknown", async () => {
    const lookup = lookupOf(config(base));
    expect(await lookup.latestRelease!("npm", "ms")).toEqual({ kind: "release", version: "2.1.3" });
    expect(await lookup.latestRelease!("npm", "@html-to-text/monorepo")).toEqual({ kind: "missing" });
    expect(await lookup.latestRelease!("npm", "gone-pkg")).toEqual({ kind: "missing" });
    expect(await lookup.latestRelease!("npm", "unpublished-pkg")).toEqual({ kind: "missing" });
    expect(await lookup.latestRelease!("npm", "broken-pkg")).toEqual({ kind: "unknown" });
    expect(await lookup.latestRelease!("npm", "private-pkg")).toEqual({ kind: "unknown" });
    expect(await lookupOf(config(closedPort)).latestRelease!("npm", "ms")).toEqual({ kind: "unknown" });
    expect(await lookupOf(config(`${base}hang/`)).latestRelease!("npm", "x")).toEqual({ kind: "unknown" });
    // latestVersion answers both as null, as it always did.
    expect(await lookup.latestVersion("npm", "@html-to-text/monorepo")).toBeNull();
    expect(await lookup.latestVersion("npm", "broken-pkg")).toBeNull();
    expect(requests).toContain("/@html-to-text%2fmonorepo");
  });

  it("pip: missing only when every index has no page for it; one index that cannot answer makes it unknown", async () => {
    await mkdir(path.join(dir, "simple"), { recursive: true });
    const both = lookupOf(config(base, { extraIndexUrls: [`file://${dir}/simple`] }));
    expect(await both.latestRelease!("pypi", "requests")).toEqual({ kind: "release", version: "2.32.3" });
    expect(await both.latestRelease!("pypi", "no-such-project")).toEqual({ kind: "missing" });
    const oneBroken = lookupOf(config(base, { extraIndexUrls: [`${base}broken/simple`] }));
    expect(await oneBroken.latestRelease!("pypi", "no-such-project")).toEqual({ kind: "unknown" });
    expect(
      await lookupOf(config(base, { indexUrl: `${closedPort}simple` })).latestRelease!("pypi", "x"),
    ).toEqual({
      kind: "unknown",
    });
  });
});

/** An engine that does not exist: any Docker call fails, so nothing here may reach one. */
const noEngine = new Docker({ socketPath: "/nonexistent/retrace-test-docker.sock" });
const installerOn = (npm: string) =>
  new ContainerDependencyInstaller({
    docker: noEngine,
    registryConfig: config(npm),
    cacheDir: path.join(os.tmpdir(), "retrace-no-such-cache"),
    registry: lookupOf(config(npm)),
  });

describe("installer: a package the registry says does not exist is a failure of that package", () => {
  it("404: a failure naming the package and the registry, never an infrastructure error", async () => {
    const r = await installerOn(base).install({
      ecosystem: "npm",
      packages: [{ name: "@html-to-text/monorepo", version: "latest" }],
    });
    expect(r.dir).toBeNull();
    expect(r.failures).toEqual([
      {
        name: "@html-to-text/monorepo",
        version: null,
        reason: "no such package: the npm registry (npm_config_registry) has no package of that name",
      },
    ]);
  });

  it("must not fire: a registry that cannot answer (503, refused) stays the infrastructure error", async () => {
    for (const [npm, name] of [
      [base, "broken-pkg"],
      [closedPort, "ms"],
    ] as const) {
      const error = await installerOn(npm)
        .install({ ecosystem: "npm", packages: [{ name, version: "latest" }] })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(InfrastructureError);
      expect((error as Error).message).toMatch(
        new RegExp(`^could not install ${name}: its latest version is unknown`),
      );
    }
  });
});

describe("pipeline: real look-up and installer against the loopback registry (hold16 class)", () => {
  const f = "```";
  const ports = (
    script: (req: SandboxRunRequest) => ScriptedRun,
  ): { p: ReproPorts; sb: ReturnType<typeof fakeSandbox> } => {
    const sb = fakeSandbox(script);
    return {
      sb,
      p: {
        sandbox: sb,
        installer: installerOn(base),
        model: null,
        clock: new ManualClock(),
        registry: lookupOf(config(base)),
        transpile: async (code) => code,
        compareLatest: false,
      },
    };
  };
  const spec = (markdown: string, pkg?: string) =>
    ReproJobSpec.parse({ kind: "repro", id: "t", markdown, runs: 2, ...(pkg ? { package: pkg } : {}) });

  it("the repository's package (a private monorepo root) is dropped and the run goes on without it", async () => {
    const report = `# wrapping\n\n${f}js\nconsole.log(htmlToText("<p>a b</p>", { wordwrap: 2 })) // "a\\nb"\n${f}\n`;
    const { p, sb } = ports(() => ({
      exitCode: 1,
      stderr:
        "@@retrace-runtime v18.20.4\n/workspace/reproduction.mjs:1\nconsole.log(htmlToText('<p>a b</p>'))\n            ^\n\nReferenceError: htmlToText is not defined\n    at file:///workspace/reproduction.mjs:1:13\n",
    }));
    const { result } = await runRepro(spec(report, "@html-to-text/monorepo"), p);
    expect(result.verdict).toBe("NEEDS_INFO");
    expect(sb.requests.length).toBeGreaterThan(0);
    expect(result.reasons.join("\n")).toMatch(
      /could not install @html-to-text\/monorepo: no such package: the npm registry \(npm_config_registry\) has no package of that name/,
    );
    expect(result.reasons.join("\n")).toMatch(/Ran without `@html-to-text\/monorepo`/);
  });

  it("the report's own import of a package that does not exist: NEEDS_INFO naming it, no run, no error exit", async () => {
    const report = `# wrapping\n\n${f}js\nconst { htmlToText } = require("@html-to-text/monorepo");\nconsole.log(htmlToText("<p>a b</p>", { wordwrap: 2 })) // "a\\nb"\n${f}\n`;
    const { p, sb } = ports(() => ({ exitCode: 0, stdout: "a\nb\n" }));
    const { result } = await runRepro(spec(report), p);
    expect(result.verdict).toBe("NEEDS_INFO");
    expect(sb.requests).toHaveLength(0);
    expect(result.reasons).toEqual([
      "could not install @html-to-text/monorepo: no such package: the npm registry (npm_config_registry) has no package of that name",
    ]);
    expect(result.questions.join("\n")).toMatch(
      /Where does `@html-to-text\/monorepo` come from\? The registry has no package of that name/,
    );
  });

  it("must not fire: the report's own import when the registry cannot answer ends with the infrastructure error", async () => {
    const report = `# wrapping\n\n${f}js\nconst x = require("broken-pkg");\nconsole.log(x(1)) // 2\n${f}\n`;
    const { p } = ports(() => ({ exitCode: 0, stdout: "2\n" }));
    await expect(runRepro(spec(report), p)).rejects.toThrow(
      /could not install broken-pkg: its latest version is unknown/,
    );
  });
});
