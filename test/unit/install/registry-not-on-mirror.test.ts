/**
 * A package the host's local pip mirror (a `file://` index) has no page for, while every other index cannot be
 * reached (no network): `unmirrored`, apart from "unknown" (issue 12, hold17: `psf-infra-meta`, the package guessed
 * from a report's repository, ended the job with exit 3). A guessed package is dropped on it like one the registry
 * says does not exist; one the report's own code imports stays the infrastructure error. The look-up, installer
 * and pipeline are the real ones; the remote index is a closed loopback port, the mirror a real directory.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { ManualClock } from "../../../src/core/loop-clock.ts";
import { ContainerDependencyInstaller } from "../../../src/install/installer.ts";
import type { RegistryConfig } from "../../../src/install/registry-config.ts";
import { createRegistryLookup } from "../../../src/install/registry-lookup.ts";
import type { ReproPorts } from "../../../src/repro/ports.ts";
import { runRepro } from "../../../src/repro/run-repro.ts";
import { fakeSandbox } from "../../support/fake-sandbox.ts";

/** A port nothing listens on: the connection is refused (the sandbox host's PyPI without network). */
const closedPort = "http://127.0.0.1:9/";
let dir: string;
let server: http.Server;
let notFound: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "retrace-mirror-"));
  await mkdir(path.join(dir, "simple", "attrs"), { recursive: true });
  await writeFile(
    path.join(dir, "simple", "attrs", "index.html"),
    '<a href="../../files/attrs-23.2.0-py3-none-any.whl">w</a>',
  );
  server = http.createServer((_req, res) => {
    res.writeHead(404, { "content-type": "text/html" });
    res.end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  notFound = `http://127.0.0.1:${(server.address() as AddressInfo).port}/simple`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const config = (indexUrl: string): RegistryConfig => ({
  npm: closedPort,
  pip: { indexUrl, extraIndexUrls: [`file://${dir}/simple`], findLinks: [], ...{} },
  caFile: null,
});
const lookupOf = (c: RegistryConfig) =>
  createRegistryLookup({ registryConfig: c, cacheDir: null, timeoutMs: 300 });

describe("latestRelease (pip): not on the local mirror, apart from unknown and missing", () => {
  it("a mirror with no page and an index that cannot be reached: unmirrored", async () => {
    expect(await lookupOf(config(`${closedPort}simple`)).latestRelease!("pypi", "psf-infra-meta")).toEqual({
      kind: "unmirrored",
    });
  });
  it("must not fire: the mirror's page gives the release; every index saying no page is missing", async () => {
    expect(await lookupOf(config(`${closedPort}simple`)).latestRelease!("pypi", "attrs")).toEqual({
      kind: "release",
      version: "23.2.0",
    });
    expect(await lookupOf(config(notFound)).latestRelease!("pypi", "psf-infra-meta")).toEqual({
      kind: "missing",
    });
    // No local mirror at all: an unreachable index stays unknown.
    const remoteOnly: RegistryConfig = {
      npm: closedPort,
      pip: { indexUrl: `${closedPort}simple`, extraIndexUrls: [], findLinks: [] },
      caFile: null,
    };
    expect(await lookupOf(remoteOnly).latestRelease!("pypi", "psf-infra-meta")).toEqual({ kind: "unknown" });
  });
});

describe("pipeline: the guessed package the mirror lacks is dropped; the report's own stays infrastructure", () => {
  const f = "```";
  /** An engine that does not exist: the installer never reaches one here (nothing is left to install). */
  const noEngine = new Docker({ socketPath: "/nonexistent/retrace-test-docker.sock" });
  const ports = (stderr: string) => {
    const c = config(`${closedPort}simple`);
    const sb = fakeSandbox(() => ({ exitCode: 1, stderr }));
    const p: ReproPorts = {
      sandbox: sb,
      installer: new ContainerDependencyInstaller({
        docker: noEngine,
        registryConfig: c,
        cacheDir: path.join(os.tmpdir(), "retrace-mirror-cache"),
        registry: lookupOf(c),
      }),
      model: null,
      clock: new ManualClock(),
      registry: lookupOf(c),
      transpile: async (code) => code,
      compareLatest: false,
    };
    return { p, sb };
  };
  const spec = (markdown: string, pkg?: string) =>
    ReproJobSpec.parse({ kind: "repro", id: "t", markdown, runs: 2, ...(pkg ? { package: pkg } : {}) });

  it("the repository's package, bound to a free name, is dropped: NEEDS_INFO, never an error exit", async () => {
    const report = `# parse\n\n${f}python\nprint(child.tag, child.text)\n${f}\n\nIt prints \`test1\` but should print more.\n`;
    const { p, sb } = ports(
      `@@retrace-runtime 3.11.2\nTraceback (most recent call last):\n  File "/workspace/reproduction.py", line 1, in <module>\nNameError: name 'child' is not defined\n`,
    );
    const { result } = await runRepro(spec(report, "psf-infra-meta"), p);
    expect(result.verdict).toBe("NEEDS_INFO");
    expect(sb.requests.length).toBeGreaterThan(0);
    expect(result.reasons.join("\n")).toMatch(/could not install psf-infra-meta: not on the local mirror/);
    expect(result.reasons.join("\n")).toMatch(/Ran without `psf-infra-meta`/);
    expect(result.questions.join("\n")).toMatch(/not on this host's package mirror/);
  });

  it("must not fire: the report's own import of a package the mirror lacks ends with the infrastructure error", async () => {
    const report = `# parse\n\n${f}python\nimport psf_infra_meta\nprint(psf_infra_meta.run())\n${f}\n\nIt prints 1 but should print 2.\n`;
    const { p, sb } = ports("@@retrace-runtime 3.11.2\n");
    await expect(runRepro(spec(report), p)).rejects.toThrow(
      /could not install psf_infra_meta: its latest version is unknown — the pip index .*: its local mirror has no package of that name, and no other index could be reached/,
    );
    expect(sb.requests).toHaveLength(0);
  });
});
