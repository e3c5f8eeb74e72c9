/**
 * Red team 30: signed deliveries whose `x-github-event` is an Object.prototype member (`__proto__`,
 * `hasOwnProperty`, `valueOf`) made the router answer 500 with its TypeError. The App now refuses, with 400 before
 * reading the body, any event name not spelled as GitHub's are; every event GitHub sends passes.
 */
import { describe, expect, it } from "vitest";
import { isWebhookEventName } from "../../../src/app/server.ts";

describe("webhook event names (red team 30)", () => {
  it.each([
    "__proto__",
    "constructor",
    "hasOwnProperty",
    "toString",
    "valueOf",
    "isPrototypeOf",
    "Issue_Comment",
    "issue-comment",
    "",
    "a".repeat(65),
  ])("refuses %j", (name) => {
    expect(isWebhookEventName(name)).toBe(false);
  });

  it("refuses a repeated header", () => {
    expect(isWebhookEventName(["issue_comment", "issues"])).toBe(false);
  });

  it.each([
    "issue_comment",
    "issues",
    "check_run",
    "check_suite",
    "workflow_run",
    "pull_request",
    "pull_request_review_comment",
    "installation_repositories",
    "ping",
  ])("passes GitHub's %s", (name) => {
    expect(isWebhookEventName(name)).toBe(true);
  });
});
