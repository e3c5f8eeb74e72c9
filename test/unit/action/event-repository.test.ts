/**
 * The Action's event file without a `repository` field (issue 14, red team 27's Left): GitHub always writes one, so
 * an event file without it is refused before any API call — the step fails (exit 1, `core.setFailed`) naming the
 * missing field — rather than checked against an empty repository name. Run as the Action runs: a process of
 * `src/action/main.ts` with a real event file.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../../..");

function action(
  event: string,
  payload: unknown,
  overrides: Record<string, string | undefined> = {},
): { code: number | null; out: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "retrace-event-"));
  const file = path.join(dir, "event.json");
  writeFileSync(file, JSON.stringify(payload));
  writeFileSync(path.join(dir, "output"), "");
  const r = spawnSync(
    process.execPath,
    [
      "--import",
      pathToFileURL(path.join(REPO, "node_modules/tsx/dist/loader.mjs")).href,
      path.join(REPO, "src/action/main.ts"),
    ],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        GITHUB_TOKEN: "t-not-a-token",
        GITHUB_API_URL: "http://127.0.0.1:9", // nothing listens: any API call fails
        GITHUB_EVENT_NAME: event,
        GITHUB_EVENT_PATH: file,
        GITHUB_REPOSITORY: "Codertocat/Hello-World",
        GITHUB_WORKSPACE: dir,
        GITHUB_OUTPUT: path.join(dir, "output"),
        RUNNER_TEMP: dir,
        "INPUT_GITHUB-TOKEN": "t-not-a-token",
        "INPUT_ANTHROPIC-API-KEY": "",
        INPUT_MODE: "auto",
        ...overrides,
      },
      encoding: "utf8",
      timeout: 120_000,
    },
  );
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const spec = JSON.stringify({
  kind: "fix",
  id: "fix-x",
  repo: { fullName: "attacker/other" },
  logJobIds: [42],
  model: null,
});

describe("the Action's event file names its repository", () => {
  it("refuses a dispatched event with no repository field: exit 1, the field named, no API call", () => {
    const r = action("workflow_dispatch", {
      inputs: { "job-spec": spec },
      sender: { login: "Codertocat", type: "User" },
    });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/the event file names no repository/);
    expect(r.out).not.toMatch(/ECONNREFUSED|127\.0\.0\.1:9/);
  }, 150_000);

  it("refuses an empty or non-string repository name the same way", () => {
    for (const full_name of ["", 42]) {
      const r = action("issues", { action: "labeled", repository: { full_name } });
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/the event file names no repository/);
    }
  }, 300_000);

  it("refuses when GITHUB_REPOSITORY is unset: the event file's repository is not trusted (exit 1, no API call)", () => {
    const r = action(
      "workflow_dispatch",
      {
        inputs: { "job-spec": spec },
        repository: { full_name: "attacker/other", default_branch: "main" },
        sender: { login: "Codertocat", type: "User" },
      },
      { GITHUB_REPOSITORY: undefined },
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/GITHUB_REPOSITORY is not set/);
    expect(r.out).not.toMatch(/ECONNREFUSED|127\.0\.0\.1:9/);
  }, 150_000);

  it("refuses an event naming another repository than GITHUB_REPOSITORY", () => {
    const r = action("issues", {
      action: "opened",
      issue: { number: 1, title: "x", body: "", labels: [], user: { login: "a", type: "User" } },
      repository: { full_name: "attacker/other", default_branch: "main" },
      sender: { login: "a", type: "User" },
    });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/names the repository "attacker\/other", not this workflow's/);
  }, 150_000);

  it("counter-example: an event naming this workflow's repository is read (an unlabelled issue: nothing to do)", () => {
    const r = action("issues", {
      action: "opened",
      issue: { number: 1, title: "x", body: "", labels: [], user: { login: "a", type: "User" } },
      repository: { full_name: "Codertocat/Hello-World", default_branch: "main" },
      sender: { login: "a", type: "User" },
    });
    expect(r.out).not.toMatch(/names no repository/);
    expect(r.code).toBe(0);
  }, 150_000);
});
