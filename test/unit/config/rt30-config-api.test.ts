/**
 * Red team 30: the contents API answering `.github/retrace.yml` with anything but a file's bytes — a file over 1 MB
 * (served `encoding: none`, no content), a symbolic link, a directory, a submodule — was read as no config, the
 * defaults, where the file said `repro.enabled: false` and $1 a day (fail open). Each is now refused with its reason;
 * a file's base64 text is read, and a missing file (404) is still the defaults.
 */
import { describe, expect, it } from "vitest";
import { loadRepoConfig } from "../../../src/config/repo-config.ts";
import { createGitHubPort } from "../../../src/github/octokit-port.ts";

const TEXT = "repro:\n  enabled: false\nlimits:\n  usdPerDay: 1\n";
const repo = { owner: "octo", repo: "app" };
const answering = (data: unknown) => createGitHubPort({ request: async () => ({ status: 200, data }) });

describe("contents-API answers other than a file's bytes (red team 30)", () => {
  it.each([
    [
      "a file over 1 MB",
      { type: "file", encoding: "none", size: 1_500_000, content: "" },
      /served without its content/,
    ],
    ["a symbolic link", { type: "symlink", target: "../../etc/retrace.yml" }, /not a file but a symlink/],
    ["a directory", [{ type: "file", name: "x.yml" }], /not a file but a directory/],
    [
      "a submodule",
      { type: "submodule", submodule_git_url: "https://github.com/o/c.git" },
      /not a file but a submodule/,
    ],
    ["a file without content", { type: "file", encoding: "base64" }, /served without its content/],
  ])("%s is refused, not read as the defaults", async (_what, data, why) => {
    await expect(loadRepoConfig(answering(data), repo)).rejects.toThrow(why);
  });

  // Counter-examples.
  it("reads a file's base64 text", async () => {
    const c = await loadRepoConfig(
      answering({ type: "file", encoding: "base64", content: Buffer.from(TEXT).toString("base64") }),
      repo,
    );
    expect(c.repro.enabled).toBe(false);
    expect(c.limits.usdPerDay).toBe(1);
  });

  it("reads a missing file as the defaults", async () => {
    const port = createGitHubPort({
      request: async () => {
        throw Object.assign(new Error("Not Found"), { status: 404 });
      },
    });
    expect((await loadRepoConfig(port, repo)).repro.enabled).toBe(true);
  });
});
