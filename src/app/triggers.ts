/**
 * Webhook → trigger, as a pure function. The handler calls it synchronously before acknowledging the
 * webhook; everything that needs the API (permission, newer commit, config, budgets) happens afterwards in
 * the job's intake. Candidates are generous here (any label, any slash word) because the repository's
 * configuration, which names the label and the commands, is only read in the intake.
 */
import { BRANCH_PREFIX } from "../github/draft-pr.ts";
import { forkRule, headRepoOfRun, isBot } from "./intake-rules.ts";

export interface ReproTrigger {
  type: "repro";
  repo: string;
  installationId: number;
  /** The repository's default branch, from the payload. */
  defaultBranch: string | null;
  issueNumber: number;
  via: "label" | "command";
  /** Label name or slash command that triggered it. */
  word: string;
  actor: string;
  /** Labels and slash commands both need `commands.minPermission` (write/maintain/admin), through the API. */
  checkPermission: boolean;
  /** `/autofix` on an issue: reproduce first, then fix against the reproduction. */
  thenFix: boolean;
}

export interface FixTrigger {
  type: "fix";
  repo: string;
  installationId: number;
  defaultBranch: string | null;
  via: "check_run" | "command";
  word: string;
  actor: string;
  checkPermission: boolean;
  /** The commit that failed; unknown for a comment on a PR until the PR is read. */
  headSha: string | null;
  headBranch: string | null;
  /** The PR the tracking comment goes on, when there is one. */
  prNumber: number | null;
  checkRunId: number | null;
  checkName: string | null;
  /** Actions job id of the failed check, when GitHub Actions produced it (its log is downloadable). */
  actionsJobId: number | null;
  /** The failed branch is one of Retrace's own: the lineage cap applies. */
  onRetraceBranch: boolean;
}

export interface CollectTrigger {
  type: "collect";
  repo: string;
  installationId: number;
  /** The finished workflow run whose artifact holds a dispatched job's result. */
  runId: number;
}

export type Trigger = ReproTrigger | FixTrigger | CollectTrigger;

export type Decision = { accept: true; trigger: Trigger } | { accept: false; reason: string };

export interface Identity {
  /** The App's id: its own comments and check runs never trigger it. */
  appId: number;
  /** The App's slug (`<slug>[bot]` is its login). */
  appSlug: string;
}

// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are read defensively, field by field.
type Payload = any;

function skip(reason: string): Decision {
  return { accept: false, reason };
}

export { isBot };

/** The first word of a comment, when it is a slash command (`/autofix please` → `/autofix`). */
export function slashWord(body: unknown): string | null {
  if (typeof body !== "string") return null;
  const m = /^\s*(\/[\w-]+)(?=\s|$)/.exec(body);
  return m ? m[1]! : null;
}

export const TRACKING_MARKER_PREFIX = "<!-- retrace:job:";

export function decide(
  name: string,
  payload: Payload,
  me: Identity,
  repro = "/repro",
  autofix = "/autofix",
): Decision {
  const repo = payload?.repository?.full_name;
  const installationId = payload?.installation?.id;
  if (typeof repo !== "string") return skip("the payload names no repository");
  if (typeof installationId !== "number") return skip("the payload names no installation");
  const action = payload?.action;
  const defaultBranch: string | null = payload?.repository?.default_branch ?? null;

  if (name === "issues") {
    if (action !== "labeled") return skip(`issues.${action} is not handled`);
    if (isBot(payload.sender))
      return skip(`labels set by bots (${payload.sender?.login}) never trigger Retrace`);
    const label = payload.label?.name;
    if (typeof label !== "string") return skip("the labeled event names no label");
    if (payload.issue?.pull_request) return skip("labels on pull requests do not start reproductions");
    return {
      accept: true,
      trigger: {
        type: "repro",
        repo,
        installationId,
        defaultBranch,
        issueNumber: payload.issue.number,
        via: "label",
        word: label,
        actor: String(payload.sender?.login ?? ""),
        // Anyone with triage rights can label: the labeller needs the same permission as a command.
        checkPermission: true,
        thenFix: false,
      },
    };
  }

  if (name === "issue_comment") {
    if (action !== "created") return skip(`issue_comment.${action} is not handled`);
    const comment = payload.comment;
    if (comment?.performed_via_github_app?.id === me.appId || comment?.user?.login === `${me.appSlug}[bot]`) {
      return skip("Retrace's own comments never trigger it");
    }
    if (typeof comment?.body === "string" && comment.body.includes(TRACKING_MARKER_PREFIX)) {
      return skip("comments carrying a Retrace marker never trigger it");
    }
    if (isBot(comment?.user) || isBot(payload.sender)) return skip("comments by bots never trigger Retrace");
    const word = slashWord(comment?.body);
    if (!word) return skip("the comment holds no slash command");
    // Both the defaults and any configured words are candidates; the intake confirms against the config.
    const isPull = Boolean(payload.issue?.pull_request);
    const actor = String(comment?.user?.login ?? payload.sender?.login ?? "");
    const issueNumber = payload.issue?.number;
    if (typeof issueNumber !== "number") return skip("the comment names no issue");
    if (isPull && word !== repro) {
      return {
        accept: true,
        trigger: {
          type: "fix",
          repo,
          installationId,
          defaultBranch,
          via: "command",
          word,
          actor,
          checkPermission: true,
          headSha: null,
          headBranch: null,
          prNumber: issueNumber,
          checkRunId: null,
          checkName: null,
          actionsJobId: null,
          onRetraceBranch: false,
        },
      };
    }
    return {
      accept: true,
      trigger: {
        type: "repro",
        repo,
        installationId,
        defaultBranch,
        issueNumber,
        via: "command",
        word,
        actor,
        checkPermission: true,
        thenFix: word === autofix,
      },
    };
  }

  if (name === "check_run") {
    if (action !== "completed") return skip(`check_run.${action} is not handled`);
    const run = payload.check_run;
    if (run?.conclusion !== "failure") return skip(`check run concluded ${run?.conclusion}, not failure`);
    if (run?.app?.id === me.appId || run?.name === "Retrace")
      return skip("Retrace's own check runs never trigger it");
    if (isBot(payload.sender))
      return skip(`check runs of commits by bots (${payload.sender?.login}) never trigger Retrace`);
    const fork = forkRule(repo, headRepoOfRun("check_run", payload));
    if (fork) return skip(fork);
    const headBranch: string | null =
      run?.check_suite?.head_branch ?? run?.pull_requests?.[0]?.head?.ref ?? null;
    if (!headBranch)
      return skip("the failed check run is not on a branch (a tag or a fork without a branch)");
    const prNumber = run?.pull_requests?.[0]?.number ?? null;
    return {
      accept: true,
      trigger: {
        type: "fix",
        repo,
        installationId,
        defaultBranch,
        via: "check_run",
        word: String(run.name),
        actor: String(payload.sender?.login ?? ""),
        checkPermission: false,
        headSha: String(run.head_sha),
        headBranch,
        prNumber: typeof prNumber === "number" ? prNumber : null,
        checkRunId: run.id,
        checkName: String(run.name),
        actionsJobId: run.app?.slug === "github-actions" ? run.id : null,
        onRetraceBranch: headBranch.startsWith(BRANCH_PREFIX),
      },
    };
  }

  if (name === "workflow_run") {
    if (action !== "completed") return skip(`workflow_run.${action} is not handled`);
    const run = payload.workflow_run;
    // Only runs the App dispatched carry a result; the intake matches the artifact to a dispatched job.
    if (run?.event !== "workflow_dispatch")
      return skip("only dispatched Retrace workflow runs are collected");
    if (typeof run?.id !== "number") return skip("the workflow run has no id");
    return { accept: true, trigger: { type: "collect", repo, installationId, runId: run.id } };
  }

  return skip(`${name} events are not handled`);
}
