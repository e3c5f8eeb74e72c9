/**
 * The Action's event → what to do, as pure functions. `parseActionEvent` reads the event name and payload only
 * (no config, no API): every understood event becomes one candidate `ActionTrigger`, anything else is `ignore`
 * with a reason for the log. `resolveActionTrigger` then applies the repository's config (the label, the
 * command words, repro/fix switches, fix.checks) and the mode, through the rules the App's intake uses too.
 */
import type { RetraceConfig } from "../config/schema.ts";
import { JobSpec } from "../core/job.ts";
import { fixRule, forkRule, headRepoOfRun, isBot, reproRule } from "../app/intake-rules.ts";
import { slashWord, TRACKING_MARKER_PREFIX } from "../app/triggers.ts";

export type Mode = "auto" | "repro" | "fix";

export type ActionTrigger =
  | {
      type: "repro";
      issueNumber: number;
      title: string;
      body: string;
      actor: string;
      /** A label or a slash command: both need the actor's permission, read through the API. */
      via: "label" | "command";
      word: string;
    }
  /** A slash command, before the config says which one it is. */
  | {
      type: "command";
      issueNumber: number;
      isPull: boolean;
      title: string;
      body: string;
      actor: string;
      word: string;
    }
  | { type: "fix-pr"; prNumber: number; actor: string; word: string }
  | {
      type: "fix-run";
      runId: number;
      workflowName: string;
      headSha: string;
      headBranch: string;
      prNumber: number | null;
    }
  | {
      type: "fix-check";
      checkName: string;
      headSha: string;
      headBranch: string;
      actionsJobId: number | null;
      prNumber: number | null;
    }
  | { type: "dispatch"; spec: JobSpec }
  | { type: "ignore"; reason: string };

// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are read defensively, field by field.
type Payload = any;

const ignore = (reason: string): ActionTrigger => ({ type: "ignore", reason });

export function parseActionEvent(name: string, payload: Payload): ActionTrigger {
  const repo = String(payload?.repository?.full_name ?? "");
  switch (name) {
    case "issues": {
      if (payload?.action !== "labeled")
        return ignore(`issues.${payload?.action} is not handled (only labeled)`);
      if (isBot(payload?.sender)) return ignore("labels set by bots never trigger Retrace");
      const label = payload?.label?.name;
      if (typeof label !== "string") return ignore("the labeled event names no label");
      if (payload?.issue?.pull_request) return ignore("labels on pull requests do not start reproductions");
      return {
        type: "repro",
        issueNumber: payload.issue.number,
        title: String(payload.issue.title ?? ""),
        body: String(payload.issue.body ?? ""),
        actor: String(payload.sender?.login ?? ""),
        via: "label",
        word: label,
      };
    }
    case "issue_comment": {
      if (payload?.action !== "created") return ignore(`issue_comment.${payload?.action} is not handled`);
      const comment = payload.comment;
      if (isBot(comment?.user) || isBot(payload?.sender))
        return ignore("comments by bots never trigger Retrace");
      if (typeof comment?.body === "string" && comment.body.includes(TRACKING_MARKER_PREFIX)) {
        return ignore("Retrace's own comments never trigger it");
      }
      const word = slashWord(comment?.body);
      if (!word) return ignore("the comment holds no Retrace command");
      return {
        type: "command",
        issueNumber: payload.issue.number,
        isPull: Boolean(payload.issue?.pull_request),
        title: String(payload.issue.title ?? ""),
        body: String(payload.issue.body ?? ""),
        actor: String(comment?.user?.login ?? ""),
        word,
      };
    }
    case "workflow_run": {
      const run = payload?.workflow_run;
      if (payload?.action !== "completed" || run?.conclusion !== "failure") {
        return ignore(`workflow_run ${payload?.action}/${run?.conclusion} is not a failure`);
      }
      if (isBot(payload?.sender)) {
        return ignore(`workflow runs started by bots (${payload.sender?.login}) never trigger Retrace`);
      }
      const fork = forkRule(repo, headRepoOfRun("workflow_run", payload));
      if (fork) return ignore(fork);
      if (typeof run.head_branch !== "string" || run.head_branch === "")
        return ignore("the failed workflow run is not on a branch");
      return {
        type: "fix-run",
        runId: run.id,
        workflowName: String(run.name ?? ""),
        headSha: String(run.head_sha),
        headBranch: run.head_branch,
        prNumber: run.pull_requests?.[0]?.number ?? null,
      };
    }
    case "check_run": {
      const run = payload?.check_run;
      if (payload?.action !== "completed" || run?.conclusion !== "failure") {
        return ignore(`check_run ${payload?.action}/${run?.conclusion} is not a failure`);
      }
      if (run?.name === "Retrace") return ignore("Retrace's own check runs never trigger it");
      if (isBot(payload?.sender)) {
        return ignore(`check runs of commits by bots (${payload.sender?.login}) never trigger Retrace`);
      }
      const fork = forkRule(repo, headRepoOfRun("check_run", payload));
      if (fork) return ignore(fork);
      const headBranch = run?.check_suite?.head_branch;
      if (typeof headBranch !== "string") return ignore("the failed check run is not on a branch");
      return {
        type: "fix-check",
        checkName: String(run.name ?? ""),
        headSha: String(run.head_sha),
        headBranch,
        actionsJobId: run.app?.slug === "github-actions" ? run.id : null,
        prNumber: run.pull_requests?.[0]?.number ?? null,
      };
    }
    case "workflow_dispatch": {
      const raw = payload?.inputs?.["job-spec"];
      if (typeof raw !== "string" || raw.trim() === "") {
        return ignore(
          "workflow_dispatch without a job-spec input: nothing to do (the Retrace App dispatches with one)",
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
      return { type: "dispatch", spec: parsed.data };
    }
    default:
      return ignore(
        `the ${name} event is not one Retrace handles (issues, issue_comment, workflow_run, check_run, workflow_dispatch)`,
      );
  }
}

/** The candidate against the repository's config and the Action's mode: the job to run, or why not. */
export function resolveActionTrigger(t: ActionTrigger, config: RetraceConfig, mode: Mode): ActionTrigger {
  const wantRepro = mode !== "fix";
  const wantFix = mode !== "repro";
  switch (t.type) {
    case "command": {
      if (t.isPull && t.word === config.commands.autofix) {
        return resolveActionTrigger(
          { type: "fix-pr", prNumber: t.issueNumber, actor: t.actor, word: t.word },
          config,
          mode,
        );
      }
      if (t.word !== config.commands.repro && t.word !== config.commands.autofix) {
        return ignore(`${t.word} is not a configured command`);
      }
      const { isPull: _isPull, ...rest } = t;
      return resolveActionTrigger({ ...rest, type: "repro", via: "command" }, config, mode);
    }
    case "repro": {
      const rule = reproRule(config, t);
      if (rule) return ignore(rule);
      return wantRepro ? t : ignore("mode is fix: reproductions are off");
    }
    case "fix-pr":
    case "fix-run":
    case "fix-check": {
      const rule = fixRule(
        config,
        t.type === "fix-pr"
          ? { via: "command", word: t.word, checkName: null }
          : t.type === "fix-run"
            ? { via: "workflow_run", word: t.workflowName, checkName: t.workflowName }
            : { via: "check_run", word: t.checkName, checkName: t.checkName },
      );
      if (rule) return ignore(rule);
      return wantFix ? t : ignore("mode is repro: fixes are off");
    }
    default:
      return t;
  }
}
