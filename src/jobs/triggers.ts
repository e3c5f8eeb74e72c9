/**
 * Event → trigger, as one pure function both surfaces call: the App on a webhook (before acknowledging it),
 * the Action on its event file. Nothing here needs the API or the repository's config: candidates are generous
 * (any label, any slash word) and `intake` (./intake.ts) confirms them against the config and the API.
 *
 * Which events a surface listens to differs where the surfaces differ, and only there (docs/jobs.md):
 * - `workflow_run`: for the App, the completion of a run it dispatched (`collect` its artifact); for the Action,
 *   a failed run of the repository's CI (a fix; the App sees the same failure as `check_run` events).
 * - `workflow_dispatch`: the Action only — the App's dispatched job spec (`dispatch`).
 * Everything else (labels, slash commands, failed check runs, who never triggers) is one rule for both.
 */
import { JobSpec } from "../core/job.ts";
import { forkRule, headRepoOfRun, isBot, isRetraceBranch } from "./intake-rules.ts";

export interface ReproTrigger {
  type: "repro";
  repo: string;
  /** The App's installation (null on the Action, which runs with the workflow's token). */
  installationId: number | null;
  /** The repository's default branch, from the payload. */
  defaultBranch: string | null;
  issueNumber: number;
  via: "label" | "command";
  /** Label name or slash command that triggered it. */
  word: string;
  actor: string;
  /** Labels and slash commands both need `commands.minPermission` (write/maintain/admin), through the API. */
  checkPermission: boolean;
  /** `/autofix` on an issue: reproduce, then say what a fix needs. */
  thenFix: boolean;
  /**
   * The issue's text as the event carried it. Set on the Action, which runs on the event at once; the App queues
   * the job and reads the issue through the API when its intake runs (the issue may have been edited since).
   */
  issue?: { title: string; body: string };
}

export interface FixTrigger {
  type: "fix";
  repo: string;
  installationId: number | null;
  defaultBranch: string | null;
  /** A failed check run, a failed workflow run (Action), or a slash command on a pull request. */
  via: "check_run" | "workflow_run" | "command";
  word: string;
  actor: string;
  checkPermission: boolean;
  /** The commit that failed; unknown for a comment on a PR until the PR is read. */
  headSha: string | null;
  headBranch: string | null;
  /** The PR the tracking comment goes on, when there is one. */
  prNumber: number | null;
  checkRunId: number | null;
  /** The failed check's name (check_run), or the failed workflow's name (workflow_run): `fix.checks` matches it. */
  checkName: string | null;
  /** Actions job id of the failed check, when GitHub Actions produced it (its log is downloadable). */
  actionsJobId: number | null;
  /** The failed workflow run (workflow_run): its failed jobs' logs are downloaded by run. */
  runId?: number;
  /** The failed branch is one of Retrace's own: the lineage cap applies. */
  onRetraceBranch: boolean;
}

/** App: a run it dispatched finished; its artifact holds the job's result. */
export interface CollectTrigger {
  type: "collect";
  repo: string;
  installationId: number;
  /** The finished workflow run whose artifact holds a dispatched job's result. */
  runId: number;
  /**
   * The run's workflow file (`.github/workflows/<file>`) and branch, as the event names them: only a run of the
   * workflow the App dispatched, on the branch it dispatched it on, may complete a job (any other run of the
   * repository can upload an artifact of the same name).
   */
  workflowPath: string | null;
  headBranch: string | null;
}

/** Action: the App dispatched a job; its intake already ran, the spec is the job. */
export interface DispatchTrigger {
  type: "dispatch";
  repo: string;
  spec: JobSpec;
}

export type Trigger = ReproTrigger | FixTrigger | CollectTrigger | DispatchTrigger;
/** The triggers that become a job through the intake. */
export type JobTrigger = ReproTrigger | FixTrigger;

export type Decision = { accept: true; trigger: Trigger } | { accept: false; reason: string };

export interface Identity {
  /** The App's id: its own comments and check runs never trigger it. */
  appId: number;
  /** The App's slug (`<slug>[bot]` is its login). */
  appSlug: string;
}

/** Which surface reads the event: the App (with its identity) or the Action. */
export type Surface = { kind: "app"; identity: Identity } | { kind: "action" };

// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are read defensively, field by field.
type Payload = any;

function skip(reason: string): Decision {
  return { accept: false, reason };
}

export { isBot };

/** The first word of a comment, when it is a slash command (`/autofix please` → `/autofix`). */
export function slashWord(body: unknown): string | null {
  if (typeof body !== "string") return null;
  // Blank lines, then the command's line indented less than four columns: a line indented four or more (a tab
  // counts as four) is an indented code block on GitHub, which a maintainer reads as code quoted from docs, not
  // as a command (wave 18).
  const m = /^(?:[ \t]*\r?\n)*( {0,3})(\/[\w-]+)(?=\s|$)/.exec(body.replace(/^\s+$/, ""));
  return m ? m[2]! : null;
}

export const TRACKING_MARKER_PREFIX = "<!-- retrace:job:";

/** The default command words; the intake re-reads a command against the configured ones. */
export const DEFAULT_COMMANDS = { repro: "/repro", autofix: "/autofix" } as const;

/** The events each surface listens to (docs/jobs.md). */
export const EVENTS: Record<Surface["kind"], readonly string[]> = {
  app: ["issues", "issue_comment", "check_run", "workflow_run"],
  action: ["issues", "issue_comment", "workflow_run", "check_run", "workflow_dispatch"],
};

/**
 * Whether a payload number is an id GitHub could have given: a positive integer JSON.parse reads exactly. A
 * fraction, zero, a negative or a number past 2^53 (read as a neighbour: 9007199254740993 → …992) would name
 * another object, or none, in every API path built from it.
 */
export function isGitHubId(n: unknown): n is number {
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0;
}

export function parseEvent(name: string, payload: Payload, surface: Surface): Decision {
  const repo = payload?.repository?.full_name;
  if (typeof repo !== "string") {
    // The Action reads GITHUB_REPOSITORY as well; an event without a repository is only fatal for the App.
    if (surface.kind === "app") return skip("the payload names no repository");
  }
  const rawInstallation = payload?.installation?.id;
  if (rawInstallation !== undefined && rawInstallation !== null && !isGitHubId(rawInstallation))
    return skip(
      `the payload's installation.id ${JSON.stringify(rawInstallation)?.slice(0, 40)} is not an id`,
    );
  const installationId = isGitHubId(rawInstallation) ? rawInstallation : null;
  if (surface.kind === "app" && installationId === null) return skip("the payload names no installation");
  const repoName = typeof repo === "string" ? repo : "";
  const action = payload?.action;
  const defaultBranch: string | null = payload?.repository?.default_branch ?? null;
  const common = { repo: repoName, installationId, defaultBranch };

  switch (name) {
    case "issues":
      return labeled(payload, action, surface, common);
    case "issue_comment":
      return command(payload, action, surface, common);
    case "check_run":
      return failedCheckRun(payload, action, surface, common);
    case "workflow_run":
      if (surface.kind === "app") {
        if (action !== "completed") return skip(`workflow_run.${action} is not handled`);
        const run = payload.workflow_run;
        // Only runs the App dispatched carry a result; the App matches the artifact to a dispatched job.
        if (run?.event !== "workflow_dispatch")
          return skip("only dispatched Retrace workflow runs are collected");
        if (!isGitHubId(run?.id)) return skip("the workflow run has no id");
        return {
          accept: true,
          trigger: {
            type: "collect",
            repo: repoName,
            installationId: installationId!,
            runId: run.id,
            workflowPath: typeof run.path === "string" ? run.path : null,
            headBranch: typeof run.head_branch === "string" ? run.head_branch : null,
          },
        };
      }
      return failedWorkflowRun(payload, action, common);
    case "workflow_dispatch":
      if (surface.kind === "action") return dispatched(payload, repoName);
      break;
  }
  return surface.kind === "app"
    ? skip(`${name} events are not handled`)
    : skip(`the ${name} event is not one Retrace handles (${EVENTS.action.join(", ")})`);
}

type Common = { repo: string; installationId: number | null; defaultBranch: string | null };

function labeled(payload: Payload, action: unknown, surface: Surface, common: Common): Decision {
  if (action !== "labeled") return skip(`issues.${action} is not handled (only labeled)`);
  if (isBot(payload.sender))
    return skip(`labels set by bots (${payload.sender?.login}) never trigger Retrace`);
  const label = payload.label?.name;
  if (typeof label !== "string") return skip("the labeled event names no label");
  if (payload.issue?.pull_request) return skip("labels on pull requests do not start reproductions");
  if (!isGitHubId(payload.issue?.number)) return skip("the labeled event names no issue");
  return {
    accept: true,
    trigger: {
      type: "repro",
      ...common,
      issueNumber: payload.issue.number,
      via: "label",
      word: label,
      actor: String(payload.sender?.login ?? ""),
      // Anyone with triage rights can label: the labeller needs the same permission as a command.
      checkPermission: true,
      thenFix: false,
      ...issueText(payload, surface),
    },
  };
}

function issueText(payload: Payload, surface: Surface): { issue?: { title: string; body: string } } {
  if (surface.kind !== "action") return {};
  return { issue: { title: String(payload.issue?.title ?? ""), body: String(payload.issue?.body ?? "") } };
}

function command(payload: Payload, action: unknown, surface: Surface, common: Common): Decision {
  if (action !== "created") return skip(`issue_comment.${action} is not handled`);
  const comment = payload.comment;
  if (
    surface.kind === "app" &&
    (comment?.performed_via_github_app?.id === surface.identity.appId ||
      comment?.user?.login === `${surface.identity.appSlug}[bot]`)
  ) {
    return skip("Retrace's own comments never trigger it");
  }
  if (typeof comment?.body === "string" && comment.body.includes(TRACKING_MARKER_PREFIX)) {
    return skip("comments carrying a Retrace marker never trigger it");
  }
  if (isBot(comment?.user) || isBot(payload.sender)) return skip("comments by bots never trigger Retrace");
  const word = slashWord(comment?.body);
  if (!word) return skip("the comment holds no slash command");
  const isPull = Boolean(payload.issue?.pull_request);
  const actor = String(comment?.user?.login ?? payload.sender?.login ?? "");
  const issueNumber = payload.issue?.number;
  if (!isGitHubId(issueNumber)) return skip("the comment names no issue");
  // Read with the default words here; the intake reads the word again against the configured commands.
  if (isPull && word !== DEFAULT_COMMANDS.repro) {
    return {
      accept: true,
      trigger: {
        type: "fix",
        ...common,
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
      ...common,
      issueNumber,
      via: "command",
      word,
      actor,
      checkPermission: true,
      thenFix: word === DEFAULT_COMMANDS.autofix,
      ...issueText(payload, surface),
    },
  };
}

function failedCheckRun(payload: Payload, action: unknown, surface: Surface, common: Common): Decision {
  if (action !== "completed") return skip(`check_run.${action} is not handled`);
  const run = payload.check_run;
  if (run?.conclusion !== "failure") return skip(`check run concluded ${run?.conclusion}, not failure`);
  if ((surface.kind === "app" && run?.app?.id === surface.identity.appId) || run?.name === "Retrace")
    return skip("Retrace's own check runs never trigger it");
  if (isBot(payload.sender))
    return skip(`check runs of commits by bots (${payload.sender?.login}) never trigger Retrace`);
  const fork = forkRule(common.repo, headRepoOfRun("check_run", payload));
  if (fork) return skip(fork);
  const headBranch: string | null =
    run?.check_suite?.head_branch ?? run?.pull_requests?.[0]?.head?.ref ?? null;
  if (!headBranch) return skip("the failed check run is not on a branch (a tag or a fork without a branch)");
  const prNumber = run?.pull_requests?.[0]?.number ?? null;
  if (!isGitHubId(run?.id)) return skip("the check run has no id");
  return {
    accept: true,
    trigger: {
      type: "fix",
      ...common,
      via: "check_run",
      word: String(run.name),
      actor: String(payload.sender?.login ?? ""),
      checkPermission: false,
      headSha: String(run.head_sha),
      headBranch,
      prNumber: isGitHubId(prNumber) ? prNumber : null,
      checkRunId: run.id,
      checkName: String(run.name),
      actionsJobId: run.app?.slug === "github-actions" ? run.id : null,
      onRetraceBranch: isRetraceBranch(headBranch),
    },
  };
}

function failedWorkflowRun(payload: Payload, action: unknown, common: Common): Decision {
  const run = payload?.workflow_run;
  if (action !== "completed" || run?.conclusion !== "failure") {
    return skip(`workflow_run ${action}/${run?.conclusion} is not a failure`);
  }
  if (isBot(payload?.sender)) {
    return skip(`workflow runs started by bots (${payload.sender?.login}) never trigger Retrace`);
  }
  const fork = forkRule(common.repo, headRepoOfRun("workflow_run", payload));
  if (fork) return skip(fork);
  if (typeof run.head_branch !== "string" || run.head_branch === "")
    return skip("the failed workflow run is not on a branch");
  if (!isGitHubId(run.id)) return skip("the workflow run has no id");
  const name = String(run.name ?? "");
  const prNumber = run.pull_requests?.[0]?.number;
  return {
    accept: true,
    trigger: {
      type: "fix",
      ...common,
      via: "workflow_run",
      word: name,
      actor: String(payload.sender?.login ?? ""),
      checkPermission: false,
      headSha: String(run.head_sha),
      headBranch: run.head_branch,
      prNumber: isGitHubId(prNumber) ? prNumber : null,
      checkRunId: null,
      checkName: name,
      actionsJobId: null,
      runId: run.id,
      onRetraceBranch: isRetraceBranch(run.head_branch),
    },
  };
}

/** GitHub's limit for the inputs of a `workflow_dispatch`. */
export const MAX_DISPATCH_INPUT = 65_535;

/** The App's dispatched job spec, validated: a bad one is an error (the workflow was not dispatched by the App). */
function dispatched(payload: Payload, repo: string): Decision {
  const raw = payload?.inputs?.["job-spec"];
  if (typeof raw !== "string" || raw.trim() === "") {
    return skip(
      "workflow_dispatch without a job-spec input: nothing to do (the Retrace App dispatches with one)",
    );
  }
  // GitHub caps a dispatch's inputs at 65,535 characters: a longer spec was not dispatched by the App.
  if (raw.length > MAX_DISPATCH_INPUT) {
    throw new Error(
      `the job-spec input is ${raw.length} characters long, more than a workflow dispatch carries (${MAX_DISPATCH_INPUT}): the workflow must be dispatched by the Retrace App`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error("the job-spec input is not JSON: the workflow must be dispatched by the Retrace App");
  }
  const parsed = JobSpec.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(
      `the job-spec input is not a job spec: ${first?.path.join(".") || "(root)"}: ${first?.message}`,
    );
  }
  // The spec runs with this workflow's token on this repository: one naming another repository was not dispatched
  // here by the App (which always names the repository it dispatches to).
  const named = parsed.data.repo?.fullName;
  if (named !== undefined && typeof repo === "string" && named.toLowerCase() !== repo.toLowerCase())
    throw new Error(
      `the job spec names the repository ${JSON.stringify(named)}, not this one (${repo}): the workflow must be dispatched by the Retrace App for this repository`,
    );
  return { accept: true, trigger: { type: "dispatch", repo, spec: parsed.data } };
}
