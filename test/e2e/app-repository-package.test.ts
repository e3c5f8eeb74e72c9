/**
 * The App sets the reproduction's package from the repository the issue belongs to (issue 12, rp12c): the real
 * Probot server gets a signed `issues.labeled` webhook, the one intake reads the repository's package.json
 * through the GitHub API (the fake GitHub at the HTTP layer), and the production runner reproduces a report
 * that calls the package without an import — installed in the real install container from a registry on
 * loopback serving a package written here, run in the real Docker sandbox.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import type { AppServer } from "../../src/app/server.ts";
import { createDefaultRunner } from "../../src/jobs/default-runner.ts";
import { type LocalRegistry, startLocalRegistry } from "../integration/install/local-registry.ts";
import { describeDocker, sandboxImage } from "../support/docker.ts";
import { example, postWebhook, startApp } from "./support/app-harness.ts";
import { type FakeGitHub, startFakeGitHub } from "./support/fake-github.ts";

const REPO = "Codertocat/Hello-World";
const f = "```";

let registry: LocalRegistry;
let github: FakeGitHub;
let app: AppServer | null = null;
const before = process.env.npm_config_registry;

beforeAll(async () => {
  registry = await startLocalRegistry([
    {
      name: "size-fmt",
      version: "2.0.0",
      extra: { type: "module", exports: "./index.js" },
      files: { "index.js": 'export default function sizeFmt(bytes) {\n  return String(bytes) + " kB";\n}\n' },
    },
  ]);
  // The host's npm registry, as the operator's npm configuration would name it (the installer and the
  // latest-version look-up read it from npm's own configuration).
  process.env.npm_config_registry = registry.url;
});
afterAll(async () => {
  if (before === undefined) delete process.env.npm_config_registry;
  else process.env.npm_config_registry = before;
  await registry?.close();
});
beforeEach(async () => {
  github = await startFakeGitHub();
});
afterEach(async () => {
  await app?.close();
  app = null;
  await github.close();
});

describeDocker("App: the repository's package", () => {
  it("issues.labeled on a report that calls the repository's package without an import → its package.json names it → REPRODUCED", {
    timeout: 240_000,
  }, async () => {
    github.state.issues.set(`${REPO}#1`, {
      title: "sizes come out a thousand times too big",
      body: [
        "I'm on 2.0.0, and this:",
        "",
        f,
        "console.log(sizeFmt(1000))",
        f,
        "",
        "prints `1000 kB` where it should print `1 kB`.",
      ].join("\n"),
    });
    github.state.files.set(`${REPO}@:package.json`, JSON.stringify({ name: "size-fmt", version: "2.0.0" }));
    github.state.permissions.set(`${REPO}:Codertocat`, "write");
    const runner = createDefaultRunner({ env: { RETRACE_SANDBOX_IMAGE: sandboxImage } });
    app = await startApp(github, runner);
    const payload = example("issues", "labeled");
    payload.label.name = "needs-repro";
    expect((await postWebhook(app, "issues", payload)).status).toBe(200);
    await app.service.idle();

    const [job] = app.store.all();
    expect(job, JSON.stringify(app.store.all())).toMatchObject({ kind: "repro", state: "completed" });
    expect(job!.spec).toMatchObject({ kind: "repro", package: "size-fmt" });
    expect(github.calls("GET", /\/contents\/package\.json$/)).toHaveLength(1);
    expect(job!.result).toMatchObject({ verdict: "REPRODUCED", outcome: "succeeded" });
    const body = github.state.comments[0]!.body;
    expect(body).toContain("REPRODUCED");
    expect(body).toContain("size-fmt@2.0.0");
    expect(body).toContain('import * as _repositoryPackage from "size-fmt";');
    expect(github.unexpected).toEqual([]);
    expect(registry.requests.some((r) => r.includes("size-fmt-2.0.0.tgz"))).toBe(true);
  });
});
