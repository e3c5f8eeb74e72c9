/**
 * src/git/promisor.ts: a partial clone's promisor remotes, from which git fetches missing objects by itself, judged
 * like an origin (twenty-eighth red team: a blobless clone of a host repository had `checkout` and `diff` copy its
 * file into the work tree and the output). Counter-examples: a clone that is not partial, a promisor key set to
 * false, a partial clone of a public https or ssh server (actions/checkout's `filter: blob:none`).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GitConfigRefusedError } from "../../../src/git/errors.ts";
import { promisorAccess, promisorRemotes } from "../../../src/git/promisor.ts";
import { safeGit } from "../../../src/git/run-git.ts";

const publicResolve = async () => ["140.82.112.3"];
const loopbackResolve = async () => ["127.0.0.1"];

describe("promisorRemotes", () => {
  it("names the remotes promisor keys and extensions.partialclone name, with their URLs", () => {
    const got = promisorRemotes([
      ["remote.origin.url", "https://github.com/octo/app.git"],
      ["remote.Vault.url", "/srv/host-repo"],
      ["remote.Vault.promisor", "true"],
      ["remote.origin.promisor", "false"],
      ["extensions.partialclone", "/abs/path/repo"],
    ]);
    expect(Object.fromEntries(got)).toEqual({
      Vault: ["/srv/host-repo"],
      "/abs/path/repo": ["/abs/path/repo"],
    });
  });

  it("reads git's boolean spellings, a valueless key as true", () => {
    expect([...promisorRemotes([["remote.a.promisor", null]]).keys()]).toEqual(["a"]);
    expect([...promisorRemotes([["remote.a.promisor", "On"]]).keys()]).toEqual(["a"]);
    expect([...promisorRemotes([["remote.a.promisor", "0"]]).keys()]).toEqual([]);
  });
});

describe("promisorAccess", () => {
  it.each([
    ["a path", "/srv/host-repo"],
    ["a file URL", "file:///srv/host-repo"],
    ["a relative path", "../other"],
    ["an http URL", "http://example.com/r.git"],
    ["an ext:: command", "ext::sh -c touch% /tmp/x"],
  ])("refuses a promisor remote at %s", async (_what, url) => {
    const r = await promisorAccess(
      [
        ["remote.vault.url", url],
        ["remote.vault.promisor", "true"],
      ],
      [],
      publicResolve,
    );
    expect(r).toHaveProperty("refused");
    expect((r as { refused: string }).refused).toContain('promisor remote "vault"');
  });

  it("refuses an https promisor whose name resolves to loopback, unless the operator lists the host", async () => {
    const entries: [string, string][] = [
      ["remote.origin.url", "https://git.internal/app.git"],
      ["extensions.partialclone", "origin"],
    ];
    expect(await promisorAccess(entries, [], loopbackResolve)).toHaveProperty("refused");
    expect(await promisorAccess(entries, ["git.internal"], loopbackResolve)).toHaveProperty("config");
  });

  it("allows a partial clone of a public server, pinning git to the address checked", async () => {
    const r = await promisorAccess(
      [
        ["remote.origin.url", "https://github.com/octo/app.git"],
        ["remote.origin.promisor", "true"],
        ["extensions.partialclone", "origin"],
      ],
      [],
      publicResolve,
    );
    expect("config" in r && r.config.every(([k]) => k === "http.curloptResolve")).toBe(true);
  });

  it("has nothing to say about a clone that is not partial", async () => {
    expect(await promisorAccess([["remote.origin.url", "/srv/x"]], [], publicResolve)).toEqual({
      config: [],
    });
  });
});

describe("safeGit on a partial clone", () => {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=a", "-c", "user.email=a@example.com", ...args], {
      cwd,
      env,
      encoding: "utf8",
    });

  function blobless(): { checkout: string; head: string } {
    const root = mkdtempSync(path.join(tmpdir(), "rt28-promisor-"));
    const host = path.join(root, "host");
    git(root, "init", "-q", host);
    writeFileSync(path.join(host, "notes.txt"), "host secret\n");
    git(host, "add", "-A");
    git(host, "commit", "-qm", "x");
    git(host, "config", "uploadpack.allowFilter", "true");
    const checkout = path.join(root, "checkout");
    git(
      root,
      "-c",
      "protocol.file.allow=always",
      "clone",
      "-q",
      "--no-checkout",
      "--filter=blob:none",
      `file://${host}`,
      checkout,
    );
    return { checkout, head: git(checkout, "rev-parse", "HEAD").trim() };
  }
  const packs = (checkout: string) =>
    readdirSync(path.join(checkout, ".git", "objects", "pack")).filter((f) => f.endsWith(".pack")).length;

  it("refuses to run git on a checkout whose promisor remote is a host repository: nothing is fetched", async () => {
    const { checkout, head } = blobless();
    const before = packs(checkout);
    await expect(safeGit(checkout).raw(["checkout", "--quiet", "--detach", head])).rejects.toBeInstanceOf(
      GitConfigRefusedError,
    );
    expect(packs(checkout)).toBe(before);
    expect(existsSync(path.join(checkout, "notes.txt"))).toBe(false);
  });

  it("runs git on the same checkout once its promisor key is false", async () => {
    const { checkout } = blobless();
    git(checkout, "config", "remote.origin.promisor", "false");
    await expect(safeGit(checkout).raw(["rev-parse", "HEAD"])).resolves.toMatch(/^[0-9a-f]{40}/);
  });

  it("runs git on a partial clone whose promisor is a public https server (by address)", async () => {
    const { checkout } = blobless();
    git(checkout, "remote", "set-url", "origin", "https://140.82.112.3/octo/app.git");
    await expect(safeGit(checkout).raw(["rev-parse", "HEAD"])).resolves.toMatch(/^[0-9a-f]{40}/);
  });
});
