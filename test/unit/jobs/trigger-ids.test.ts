/**
 * Ids in a payload that are not exact positive integers (red team 32, webhook-ids-not-exact-integers): a fraction,
 * zero, a negative or a number past 2^53 (JSON.parse reads 9007199254740993 as …992, another issue) was accepted as a
 * trigger by the App and the Action; each names another object, or none, in every API path built from it.
 */
import { describe, expect, it } from "vitest";
import { isGitHubId, parseEvent, type Surface } from "../../../src/jobs/triggers.ts";

const APP: Surface = { kind: "app", identity: { appId: 4242, appSlug: "retrace" } };
const ACTION: Surface = { kind: "action" };
const human = { login: "ana", type: "User" };
const comment = (issueNumber: unknown, installation: unknown = 7) =>
  JSON.parse(
    JSON.stringify({
      repository: { full_name: "octo/app", default_branch: "main" },
      installation: { id: "__I__" },
      action: "created",
      sender: human,
      issue: { number: "__N__" },
      comment: { body: "/repro", user: human, author_association: "OWNER" },
    })
      .replace('"__N__"', String(issueNumber))
      .replace('"__I__"', String(installation)),
  );
const run = (id: string) =>
  JSON.parse(
    JSON.stringify({
      repository: { full_name: "octo/app", default_branch: "main" },
      installation: { id: 7 },
      action: "completed",
      sender: human,
      check_run: {
        id: "__ID__",
        name: "test",
        head_sha: "abc123",
        conclusion: "failure",
        check_suite: { head_branch: "feature" },
        pull_requests: [],
      },
    }).replace('"__ID__"', id),
  );

describe("ids that are not exact positive integers", () => {
  it.each(["1.5", "-7", "0", "9007199254740993", "1e300"])(
    "issue.number %s is refused by the App and the Action",
    (n) => {
      for (const surface of [APP, ACTION]) {
        const d = parseEvent("issue_comment", comment(n), surface);
        expect(d, `${surface.kind} ${n}`).toMatchObject({
          accept: false,
          reason: "the comment names no issue",
        });
      }
    },
  );

  it("an installation id that is not an id is refused, not read as none", () => {
    for (const surface of [APP, ACTION]) {
      const d = parseEvent("issue_comment", comment(9, "1e300"), surface);
      expect(d).toMatchObject({ accept: false });
      expect((d as { reason: string }).reason).toMatch(/installation\.id 1e\+300 is not an id/);
    }
  });

  it("a check run whose id is not an id is refused", () => {
    expect(parseEvent("check_run", run("2.5"), APP)).toMatchObject({
      accept: false,
      reason: "the check run has no id",
    });
  });

  it("counter-examples: ordinary ids, large ones below 2^53, and an Action event without an installation", () => {
    for (const n of [1, 9, 30433642, 4242424242, 2 ** 53 - 1]) expect(isGitHubId(n)).toBe(true);
    for (const n of [0, -1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, "9"])
      expect(isGitHubId(n)).toBe(false);
    const d = parseEvent("issue_comment", comment(4242424242), APP);
    expect(d).toMatchObject({ accept: true, trigger: { issueNumber: 4242424242, installationId: 7 } });
    const noInstallation = comment(9);
    delete noInstallation.installation;
    expect(parseEvent("issue_comment", noInstallation, ACTION)).toMatchObject({
      accept: true,
      trigger: { issueNumber: 9, installationId: null },
    });
    expect(parseEvent("check_run", run("31"), APP)).toMatchObject({
      accept: true,
      trigger: { checkRunId: 31 },
    });
  });
});
