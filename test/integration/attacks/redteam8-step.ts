/**
 * Host-side steps of the eighth red team's cases, run in a process of their own
 * (`tsx redteam8-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Each case builds its hostile input under `<dir>/<id>` and calls the function the pipeline calls on it. For each
 * case it prints one JSON line: `{ id, cpuMs, outcome, contained }` — `contained` is the case's own verdict on
 * what the step answered (a refusal with a reason, a count within its cap), null when only the runner's checks
 * (marker, token, host CPU) decide.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { loadConfigFromString, loadRepoConfigFile } from "../../../src/config/load.ts";
import { safeGit } from "../../../src/git/run-git.ts";
import { readWebhookBody } from "../../../src/app/server.ts";
import { fixRule } from "../../../src/jobs/intake-rules.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { checkNpmLockfile, checkPackageJson, describeProblem } from "../../../src/install/lockfile-policy.ts";
import { checkPnpmLockfile } from "../../../src/install/pnpm-lockfile.ts";
import {
  checkYarnBerryLockfile,
  checkYarnClassicLockfile,
  parseYarnClassic,
} from "../../../src/install/yarn-lockfile.ts";
import { requirementProblem } from "../../../src/install/pip.ts";
import { createRegistryLookup } from "../../../src/install/registry-lookup.ts";
import type { RegistryConfig } from "../../../src/install/registry-config.ts";
import {
  parseRequirements,
  pyprojectRequirements,
  requirementIncludes,
} from "../../../src/fix/python-requirements.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { readExpectations, readReport, type ReproContext } from "../../../src/repro/context.ts";
import { installPackages, pinDependencies } from "../../../src/repro/dependencies.ts";
import type { DependencyRequest } from "../../../src/repro/ports.ts";
import { allowedImages, repositorySandbox } from "../../../src/sandbox/limits.ts";
import { lines, log } from "./parse-step.ts";
import { type Outcome, ok, runStepCases } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const MARKER = process.env.RETRACE_RT8_MARKER ?? "/var/tmp/retrace-rt8-marker";
const REGISTRY = "https://registry.npmjs.org/";
const DEFAULT_POLICY = { allowGit: false, allowRemote: false, allowFile: false };

/**
 * The report steps the repro pipeline runs on the host before anything is installed (`run-repro.ts`,
 * `attempt.ts`): read (bounded parse), what was reported (bounded), the program completed from the code, the
 * versions pinned.
 */
function reportSteps(markdown: string): Outcome {
  const read = readReport(markdown);
  if (read.unreadable) return ok(`unreadable: ${read.unreadable.slice(0, 120)}`);
  const e = readExpectations(read.report);
  if (e.unreadable) return ok(`unreadable: ${e.unreadable.slice(0, 120)}`);
  const program = completeProgram(read.report, e.expectations.invocation);
  if (!program) return ok("nothing runnable");
  const pins = pinDependencies(program, read.report);
  return ok(
    `${program.language} program, ${program.completions.length} completions, ${program.dependencies.length} deps, ${pins.length} pins`,
  );
}

const js = (code: string) => `### Bug\n\nIt fails.\n\n\`\`\`js\n${code}\n\`\`\`\n`;
const py = (code: string) => `### Bug\n\nIt fails.\n\n\`\`\`python\n${code}\n\`\`\`\n`;

/** A verdict on lockfile/manifest checks: refused with a reason naming an entry (or accepted if `accept`). */
function refusal(
  problems: { entry: string; reason: string; field: string | null }[],
  expectRefused = true,
): Outcome {
  const text = problems.map((p) => describeProblem(p as never)).join("\n");
  const summary = `${problems.length} problems (${text.length} chars): ${text.slice(0, 160)}`;
  return ok(summary, expectRefused ? problems.length > 0 : problems.length === 0);
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args],
    { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
  );
}

function pwnScript(name = "pwn.sh"): string {
  const p = path.join(dir, name);
  writeFileSync(p, `#!/bin/sh\necho pwned > ${MARKER}\ncat\n`, { mode: 0o755 });
  return p;
}

const GLOB_BOMB = `${"*a".repeat(14)}*c`;

async function withServer(
  handler: http.RequestListener,
  use: (port: number) => Promise<Outcome>,
): Promise<Outcome> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    return await use((server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** `n` unknown unpinned `require()`s through the repro install stage's host steps; look-ups counted on loopback. */
async function unknownRequires(n: number, expected: number): Promise<Outcome> {
  // The look-ups for unpinned packages go to a local registry on loopback that counts them; the installer
  // port records what reaches it. Contained: no more look-ups than packages a report may have installed (20).
  let lookups = 0;
  return withServer(
    (req, res) => {
      lookups++;
      const name = decodeURIComponent((req.url ?? "/").slice(1));
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          name,
          "dist-tags": { latest: "1.0.0" },
          versions: { "1.0.0": { name, version: "1.0.0" } },
        }),
      );
    },
    async (port) => {
      const requires = Array.from({ length: n }, (_, i) => `require('rt8-unknown-pkg-${i}')`).join("\n");
      const read = readReport(js(requires));
      const e = readExpectations(read.report!);
      const program = completeProgram(read.report!, e.expectations.invocation)!;
      const pins = pinDependencies(program, read.report!);
      let requested: DependencyRequest[] = [];
      const registryConfig: RegistryConfig = {
        npm: `http://127.0.0.1:${port}/`,
        pip: { indexUrl: "https://pypi.org/simple", extraIndexUrls: [], findLinks: [] } as never,
        caFile: null,
      } as RegistryConfig;
      const ctx = {
        ...read,
        expectations: e.expectations,
        ports: {
          registry: createRegistryLookup({ registryConfig, cacheDir: null }),
          runtimeVersions: async () => ({ node: "22.11.0", python: null }),
          installer: {
            maxPackages: 20,
            install: async (r: { packages: DependencyRequest[] }) => {
              requested = r.packages;
              return {
                dir: null,
                pythonPath: null,
                installed: [],
                failures: [],
                cached: false,
                durationMs: 0,
              };
            },
          },
        },
      } as unknown as ReproContext;
      await installPackages(ctx, program, pins, "reported versions");
      return ok(
        `${program.dependencies.length} deps, ${lookups} registry look-ups, ${requested.length} sent to the installer`,
        lookups <= expected && requested.length === n,
      );
    },
  );
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // ---- Reports: the steps after the bounded parse (completion, pins) and the parse itself.
  "report-inline-code-said-to-work": () => {
    const codes = Array.from({ length: 1500 }, (_, i) => `\`k${i}\``).join(" ");
    return reportSteps(
      `### Bug\n\nIt fails.\n\n\`\`\`js\nconsole.log(1)\n\`\`\`\n\nSee a.${" ".repeat(20_000)}b. ${codes}\n`,
    );
  },
  "report-shell-args-trailing-spaces": () =>
    reportSteps(
      `### Bug\n\n\`\`\`js\nconsole.log(process.argv)\n\`\`\`\n\n\`\`\`sh\n$ node index.js x${" ".repeat(60_000)}y\n\`\`\`\n`,
    ),
  "report-js-unclosed-comments": () => reportSteps(js(`const a = 1\n${"/* ".repeat(20_000)}`)),
  "report-placeholder-your": () => reportSteps(js(`const a = 1 // ${"<your ".repeat(10_000)}`)),
  "report-python-def-paren": () => reportSteps(py(`x = 1\n${"def a(".repeat(10_000)}`)),
  "report-js-const-brace": () => reportSteps(js(`const a = 1\n${"const {".repeat(9_000)}`)),
  "report-js-import-no-quote": () => reportSteps(js(`const a = 1\n${"import a \n".repeat(6_000)}`)),
  "report-many-pycon-blocks": () =>
    reportSteps(
      `### Bug\n\n${Array.from({ length: 2_400 }, (_, i) => `\`\`\`pycon\n>>> x${i}\n\`\`\`\n`).join("\n")}`,
    ),
  "report-many-js-blocks": () =>
    reportSteps(
      `### Bug\n\n${Array.from({ length: 2_400 }, (_, i) => `\`\`\`js\nlet a${i} = ${i}\n\`\`\`\n`).join("\n")}`,
    ),
  "report-version-suffix-dots": () =>
    reportSteps(
      `### Bug\n\nWith a@1.2.3-${"a.".repeat(30_000)}! it fails.\n\n\`\`\`js\nrequire('a')\n\`\`\`\n`,
    ),
  "report-backtick-ladder": () => {
    let s = "";
    for (let n = 1; s.length < 64_000; n++) s += `${"`".repeat(n)}x`;
    return reportSteps(s);
  },
  "report-link-reference-definitions": () => reportSteps(`${"[a]: <\n".repeat(9_000)}`),
  "report-wide-table": () =>
    reportSteps(`${"|a".repeat(3_000)}|\n${"|-".repeat(3_000)}|\n${`${"|b".repeat(3_000)}|\n`.repeat(9)}`),
  "report-150-unknown-requires": () => unknownRequires(150, 20),
  // Added after the first try (a control): within the cap, every unpinned package is still looked up.
  "report-15-unknown-requires": () => unknownRequires(15, 15),
  // ---- CI logs, at the default budget.
  "log-eslint-row-spaces": () => log(lines(`  1:1  error x${" ".repeat(16_000)}!`, 1 << 20)),
  "log-dotnet-frame-parens": () => log(lines(`   at a${"()".repeat(8_000)}x`, 1 << 20)),
  "log-one-line-no-newline": () => log("a".repeat(32 << 20)),
  "log-carriage-returns": () => log("x\r".repeat(8 << 20)),
  "log-ansi-unterminated": () => log(lines(`\x1b[${"1;".repeat(8_000)}`, 2 << 20)),
  // ---- Lockfiles and manifests, checked on the host before any install container.
  "npm-lock-workspace-glob-bomb": () => {
    const pkg = { name: "x", version: "1.0.0", workspaces: [GLOB_BOMB] };
    const packages: Record<string, unknown> = { "": pkg };
    packages[`${"a".repeat(60)}`] = { name: "w", version: "1.0.0" };
    // Refused (the directory is not one the glob names: a local package) or accepted: only host CPU decides.
    return ok(refusal(checkNpmLockfile({ lockfileVersion: 3, packages }, REGISTRY, DEFAULT_POLICY)).outcome);
  },
  "npm-lock-300k-git-entries": () => {
    const packages: Record<string, unknown> = { "": { name: "x", version: "1.0.0" } };
    for (let i = 0; i < 300_000; i++)
      packages[`node_modules/p${i}`] = {
        version: "1.0.0",
        resolved: `git+ssh://git@example.invalid/p${i}.git#${"0".repeat(40)}`,
      };
    const text = JSON.stringify({ lockfileVersion: 3, packages });
    const r = refusal(checkNpmLockfile(JSON.parse(text), REGISTRY, DEFAULT_POLICY));
    return ok(`${(text.length / 1e6).toFixed(1)} MB; ${r.outcome}`, r.contained);
  },
  "npm-lock-registry-lookalike-hosts": () =>
    refusal(
      checkNpmLockfile(
        {
          lockfileVersion: 3,
          packages: {
            "": { name: "x", version: "1.0.0", dependencies: { a: "1.0.0", b: "1.0.0", c: "1.0.0" } },
            "node_modules/a": {
              version: "1.0.0",
              resolved: "https://registry.npmjs.org.evil.invalid/a/-/a-1.0.0.tgz",
              integrity: "sha512-AAAA",
            },
            "node_modules/b": {
              version: "1.0.0",
              resolved: "https://registry.npmjs.org/b/-/%2E%2E/%2E%2E/evil/b-1.0.0.tgz",
              integrity: "sha512-AAAA",
            },
            "node_modules/c": {
              version: "1.0.0",
              resolved: "https://registry.npmjs.org\\@evil.invalid/c.tgz",
              integrity: "sha512-AAAA",
            },
          },
        },
        REGISTRY,
        DEFAULT_POLICY,
      ),
    ),
  "yarn-berry-exec-portal-patch": () =>
    refusal(
      checkYarnBerryLockfile(
        parseYaml(
          [
            "__metadata:\n  version: 8\n",
            '"a@exec:./pwn.js":\n  version: 0.0.0-use.local\n  resolution: "a@exec:./pwn.js"\n',
            '"b@portal:/etc":\n  version: 0.0.0-use.local\n  resolution: "b@portal:/etc"\n',
            '"c@patch:lodash@npm%3A4.17.21#%2E%2E/%2E%2E/%2E%2E/etc/shadow::version=4.17.21":\n  version: 4.17.21\n  resolution: "c@patch:lodash@npm%3A4.17.21#%2E%2E/%2E%2E/%2E%2E/etc/shadow::version=4.17.21"\n',
          ].join("\n"),
        ),
        REGISTRY,
        DEFAULT_POLICY,
      ),
    ),
  "yarn-classic-value-spaces": () => {
    const text = `a@^1.0.0:\n  version x${" ".repeat(300_000)}y\n  resolved "https://registry.yarnpkg.com/a/-/a-1.0.0.tgz"\n`;
    const entries = parseYarnClassic(text);
    return ok(
      `${entries.length} entries; ${checkYarnClassicLockfile(entries, REGISTRY, DEFAULT_POLICY).length} problems`,
    );
  },
  "yarn-classic-utf16-bom": () => {
    const text = Buffer.from(
      `\ufeffa@^1.0.0:\n  version "1.0.0"\n  resolved "https://evil.invalid/a.tgz"\n`,
      "utf16le",
    ).toString("utf8");
    const entries = parseYarnClassic(text);
    const problems = checkYarnClassicLockfile(entries, REGISTRY, DEFAULT_POLICY);
    // Contained: the evil resolved URL is not silently accepted (refused, or the file not read as a lockfile).
    return ok(
      `${entries.length} entries, ${problems.length} problems`,
      entries.length === 0 || problems.length > 0,
    );
  },
  "pnpm-lock-link-and-tarball": () =>
    refusal(
      checkPnpmLockfile(
        parseYaml(
          "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      a:\n        specifier: link:../../../../etc\n        version: link:../../../../etc\n      b:\n        specifier: https://evil.invalid/b.tgz\n        version: https://evil.invalid/b.tgz\npackages:\n  b@https://evil.invalid/b.tgz:\n    resolution: {tarball: https://evil.invalid/b.tgz}\n",
        ),
        REGISTRY,
        DEFAULT_POLICY,
      ),
    ),
  "package-json-dependency-sources": () =>
    refusal(
      checkPackageJson(
        {
          name: "x",
          version: "1.0.0",
          dependencies: {
            a: "npm:b@file:../../../etc",
            c: "git+file:///work/main",
            d: "github:evil/pwn#semver:^1",
            e: "http://127.0.0.1:1/x.tgz",
            f: "exec:./pwn.js",
          },
          optionalDependencies: { g: "link:/" },
          overrides: { h: "file:/etc" },
        },
        REGISTRY,
        DEFAULT_POLICY,
      ),
    ),
  "requirements-options-and-urls": () => {
    const text = [
      "--index-url http://evil.invalid/simple",
      "--extra-index-url=http://evil.invalid/simple",
      "-e git+file:///work/main#egg=main",
      "-r ../../../../etc/passwd",
      "--find-links /",
      "-c /etc/passwd",
      "x @ file:///etc/passwd",
      "y==1.0 ; python_version > '0' @ http://evil.invalid/y.whl",
      "z==1.0 --config-settings=editable_mode=compat",
      "w[a,b] (>=1.0) ; os_name == 'posix' --index-url http://evil.invalid",
    ].join("\n");
    const specs = parseRequirements(text);
    const accepted = specs.filter((s) => requirementProblem(s) === null);
    const includes = requirementIncludes(text);
    // Contained: no accepted spec can make pip fetch from anywhere but the index.
    const risky = accepted.filter((s) => /:\/\/|@|--/.test(s));
    return ok(
      `${specs.length} specs, accepted ${JSON.stringify(accepted)}; includes ${JSON.stringify(includes)}`,
      risky.length === 0,
    );
  },
  "pyproject-poetry-path-git": () => {
    const r = pyprojectRequirements(
      `[project]\nname = "x"\ndependencies = ["a @ file:///etc", "b"]\n[tool.poetry.dependencies]\nc = { path = "../../../../etc" }\nd = { git = "file:///work/main" }\n[tool.uv.sources]\nb = { path = "/etc" }\n`,
    );
    const all = r.requirements;
    const accepted = all.filter((s) => requirementProblem(s) === null);
    return ok(
      `requirements ${JSON.stringify(all)}; accepted ${JSON.stringify(accepted)}`,
      !accepted.some((s) => /:\/\/|@|\//.test(s)),
    );
  },
  // ---- The config file and what it decides.
  "config-fix-checks-glob-bomb": () => {
    const config = loadConfigFromString(`fix:\n  checks: ["${GLOB_BOMB}"]\n`);
    const r = fixRule(config, { via: "check_run", word: "", checkName: "a".repeat(60) });
    return ok(`fixRule: ${r}`);
  },
  "policy-testfiles-glob-bomb": () => {
    const name = "a".repeat(60);
    const patch = `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n@@ -1 +1 @@\n-x\n+y\n`;
    const r = evaluatePatch(patch, {
      testFiles: [GLOB_BOMB],
      forbiddenPaths: { allow: [GLOB_BOMB] },
    } as never);
    return ok(`allowed ${r.allowed}, ${r.violations.length} violations`);
  },
  "config-limits-nonpositive": () => {
    try {
      const c = loadConfigFromString("sandbox:\n  limits:\n    pids: -1\n    memoryMb: 0\n    cpus: .nan\n");
      const r = repositorySandbox(c.sandbox, {}, "retrace-sandbox:1");
      return ok(`accepted: ${JSON.stringify(r.limits)}`, false);
    } catch (e) {
      return ok(`refused: ${(e as Error).message.slice(0, 160)}`, true);
    }
  },
  "config-image-digest-smuggle": () => {
    const env = { RETRACE_SANDBOX_IMAGES: "node:20" };
    const out: string[] = [];
    for (const image of [
      "node:20@sha256:" + "f".repeat(64),
      "node:20 ",
      "NODE:20",
      "docker.io/library/node:20",
    ]) {
      try {
        const c = loadConfigFromString(`sandbox:\n  image: ${JSON.stringify(image)}\n`);
        const r = repositorySandbox(c.sandbox, env, "retrace-sandbox:1");
        out.push(`${JSON.stringify(image)} -> ${r.image}`);
      } catch {
        out.push(`${JSON.stringify(image)} refused`);
      }
    }
    const allowed = allowedImages(env, "retrace-sandbox:1");
    const smuggled = out.filter((o) => o.includes("->") && !allowed.has(o.split(" -> ")[1]!));
    return ok(out.join("; "), smuggled.length === 0);
  },
  "config-merge-key-bomb": async () => {
    const keys = Array.from({ length: 50 }, (_, i) => `k${i}: ${i}`).join(", ");
    const refs = Array.from({ length: 90 }, () => "*a").join(", ");
    mkdirSync(path.join(dir, ".github"), { recursive: true });
    writeFileSync(
      path.join(dir, ".github/retrace.yml"),
      `x: &a {${keys}}\ny: &b {<<: [${refs}]}\nz: [${Array.from({ length: 5000 }, () => "*b").join(", ")}]\n`,
    );
    return loadRepoConfigFile(dir).then(
      () => ok("read", false),
      (e: Error) => ok(`refused: ${e.message.slice(0, 140)}`, true),
    );
  },
  // ---- Git on the checkout.
  "git-gpg-ssh-verify-programs": async () => {
    git(dir, "init", "-q");
    const pwn = pwnScript();
    writeFileSync(path.join(dir, "a.txt"), "a\n");
    git(dir, "add", "a.txt");
    git(dir, "commit", "-q", "-m", "x");
    // A commit carrying a signature header, and verification programs under every name git knows.
    const tree = git(dir, "rev-parse", "HEAD^{tree}").trim();
    const body = `tree ${tree}\nparent ${git(dir, "rev-parse", "HEAD").trim()}\nauthor t <t@t> 0 +0000\ncommitter t <t@t> 0 +0000\ngpgsig -----BEGIN SSH SIGNATURE-----\n U1NIU0lH\n -----END SSH SIGNATURE-----\n\nsigned\n`;
    writeFileSync(path.join(dir, "commit.txt"), body);
    const sha = git(dir, "hash-object", "-t", "commit", "-w", "commit.txt").trim();
    git(dir, "update-ref", "HEAD", sha);
    for (const [k, v] of [
      ["gpg.format", "ssh"],
      ["gpg.ssh.program", pwn],
      ["gpg.x509.program", pwn],
      ["gpg.openpgp.program", pwn],
      ["gpg.ssh.defaultKeyCommand", pwn],
      ["gpg.ssh.allowedSignersFile", "/etc/shadow"],
      ["log.showSignature", "true"],
      ["merge.verifySignatures", "true"],
      ["status.showUntrackedFiles", "all"],
    ])
      git(dir, "config", k!, v!);
    const g = safeGit(dir);
    await g.raw(["cat-file", "-p", "HEAD"]);
    await g.raw(["diff-tree", "-p", "HEAD"]);
    await g.raw(["status", "--porcelain"]);
    return ok("git ran");
  },
  "git-filter-driver-odd-subsections": async () => {
    git(dir, "init", "-q");
    const pwn = pwnScript();
    writeFileSync(path.join(dir, ".gitattributes"), "*.txt filter=PwN.clean\n*.md filter=a=b diff=X.Y\n");
    writeFileSync(path.join(dir, "inc.cfg"), `[filter "PwN.clean"]\n\tclean = ${pwn}\n\tsmudge = ${pwn}\n`);
    writeFileSync(
      path.join(dir, ".git", "config"),
      `${git(dir, "config", "--list", "--local").length > 0 ? "" : ""}[core]\n\trepositoryformatversion = 0\n[include]\n\tpath = ../inc.cfg\n[filter "a=b"]\n\tclean = ${pwn}\n\tprocess = ${pwn}\n[diff "X.Y"]\n\ttextconv = ${pwn}\n\tcommand = ${pwn}\n`,
    );
    writeFileSync(path.join(dir, "a.txt"), "a\n");
    writeFileSync(path.join(dir, "b.md"), "b\n");
    const g = safeGit(dir);
    await g.raw(["add", "a.txt", "b.md"]);
    await g.raw(["hash-object", "--path=a.txt", "a.txt"]);
    await g.raw(["diff", "--cached"]);
    await g.raw(["status", "--porcelain"]);
    return ok("git ran");
  },
  "git-includeif-onbranch-later": async () => {
    git(dir, "init", "-q");
    const pwn = pwnScript();
    writeFileSync(path.join(dir, "a.txt"), "a\n");
    git(dir, "add", "a.txt");
    git(dir, "commit", "-q", "-m", "x");
    git(dir, "branch", "retrace-fix");
    writeFileSync(path.join(dir, ".gitattributes"), "*.txt filter=later\n");
    writeFileSync(
      path.join(dir, "later.cfg"),
      `[filter "later"]\n\tsmudge = ${pwn}\n\tclean = ${pwn}\n[core]\n\tfsmonitor = ${pwn}\n`,
    );
    git(dir, "config", "includeIf.onbranch:retrace-*.path", "../later.cfg");
    git(dir, "config", "includeIf.hasconfig:remote.*.url:**.path", "../later.cfg");
    const g = safeGit(dir);
    await g.raw(["checkout", "-q", "retrace-fix"]).catch(() => undefined);
    writeFileSync(path.join(dir, "a.txt"), "b\n");
    await g.raw(["status", "--porcelain"]).catch(() => undefined);
    await g.raw(["add", "a.txt"]).catch(() => undefined);
    return ok("git ran");
  },
  // ---- Webhook deliveries to the App's body reader.
  "webhook-depth-behind-escaped-backslash": () =>
    withServer(
      async (req, res) => {
        const body = await readWebhookBody(req, res, 100);
        if (body !== null) {
          JSON.parse(body);
          res.end(`read ${body.length}`);
        }
      },
      async (port) => {
        const payload = `{"a":"\\\\","b":${"[".repeat(300_000)}${"]".repeat(300_000)}}`;
        const r = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: payload }).then(
          async (x) => `${x.status} ${(await x.text()).slice(0, 100)}`,
          (e: Error) => `failed: ${e.message}`,
        );
        return ok(r, !r.startsWith("200"));
      },
    ),
  "webhook-lying-content-length": () =>
    withServer(
      async (req, res) => {
        const body = await readWebhookBody(req, res, 100);
        if (body !== null) res.end(`read ${body.length}`);
      },
      async (port) => {
        const net = await import("node:net");
        const before = process.memoryUsage().rss;
        const answer = await new Promise<string>((resolve) => {
          const s = net.connect(port, "127.0.0.1", () => {
            s.write("POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 10\r\n\r\n");
            const chunk = Buffer.alloc(1 << 20, 0x5b);
            let sent = 0;
            const pump = () => {
              while (sent < 48 && s.write(chunk)) sent++;
              if (sent < 48) s.once("drain", pump);
            };
            pump();
          });
          let got = "";
          s.on("data", (d) => {
            got += d;
          });
          s.on("error", () => resolve(`socket error; got ${got.slice(0, 60)}`));
          s.on("close", () => resolve(`closed; got ${got.slice(0, 60).replace(/\r\n/g, " ")}`));
          setTimeout(() => {
            s.destroy();
            resolve(`timeout; got ${got.slice(0, 60)}`);
          }, 20_000).unref();
        });
        const grew = Math.round((process.memoryUsage().rss - before) / 1048576);
        return ok(`${answer}; rss +${grew} MiB`, grew < 100);
      },
    ),
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
});
