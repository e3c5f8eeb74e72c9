/** src/github/draft-pr.ts over the real octokit port and the HTTP fake: the tree entries keep the base modes. */
import { createRequire } from "node:module";
import { createTwoFilesPatch } from "diff";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDraftPullRequest } from "../../../src/github/draft-pr.ts";
import { createGitHubPort, type OctokitLike } from "../../../src/github/octokit-port.ts";
import type { GitHubPort } from "../../../src/core/ports/github.ts";
import { type FakeGitHub, startFakeGitHub } from "../../e2e/support/fake-github.ts";

const { Octokit } = createRequire(import.meta.url)("@octokit/core") as typeof import("@octokit/core");
const REPO = { owner: "octo", repo: "app" };
const SHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821";

let fake: FakeGitHub;
let github: GitHubPort;
beforeEach(async () => {
  fake = await startFakeGitHub();
  github = createGitHubPort(new Octokit({ auth: "t", baseUrl: fake.url }) as unknown as OctokitLike);
});
afterEach(() => fake.close());

function patchOf(path: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after);
}

describe("openDraftPullRequest", () => {
  it("keeps an executable's mode (100755) and a regular file's (100644)", async () => {
    fake.state.files.set(`octo/app@${SHA}:scripts/run.sh`, "#!/bin/sh\nexit 1\n");
    fake.state.modes.set(`octo/app@${SHA}:scripts/run.sh`, "100755");
    fake.state.files.set(`octo/app@${SHA}:src/calc.py`, "x = 1\n");
    const patch =
      patchOf("scripts/run.sh", "#!/bin/sh\nexit 1\n", "#!/bin/sh\nexit 0\n") +
      patchOf("src/calc.py", "x = 1\n", "x = 2\n");
    await openDraftPullRequest(github, REPO, {
      baseBranch: "feature",
      baseSha: SHA,
      branch: "retrace/fix-1",
      patch,
      title: "Fix",
      body: "b",
    });
    const tree = fake.calls("POST", /\/git\/trees$/)[0]!.body as { tree: Array<Record<string, unknown>> };
    expect(tree.tree).toEqual([
      { path: "scripts/run.sh", mode: "100755", type: "blob", content: "#!/bin/sh\nexit 0\n" },
      { path: "src/calc.py", mode: "100644", type: "blob", content: "x = 2\n" },
    ]);
    // One tree read per directory on the way: the root, scripts/, src/.
    expect(fake.calls("GET", /\/git\/trees\//)).toHaveLength(3);
  });

  it("refuses to rewrite a path that is a symbolic link at the base", async () => {
    fake.state.files.set(`octo/app@${SHA}:link`, "target\n");
    fake.state.modes.set(`octo/app@${SHA}:link`, "120000");
    await expect(
      openDraftPullRequest(github, REPO, {
        baseBranch: "feature",
        baseSha: SHA,
        branch: "retrace/fix-2",
        patch: patchOf("link", "target\n", "elsewhere\n"),
        title: "Fix",
        body: "b",
      }),
    ).rejects.toThrow("link is not a regular file at ec26c3e57ca3 (git mode 120000)");
    expect(fake.calls("POST", /\/git\/trees$/)).toEqual([]);
  });
});
