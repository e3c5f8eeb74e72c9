/**
 * The Action's event → what to do, as a pure function over the event name, the payload and the mode.
 * Every understood event becomes one `ActionTrigger`; anything else is `ignore` with a reason for the log.
 */
import { JobSpec } from "../core/job.ts";
import { isBot, slashWord } from "../app/triggers.ts";

export type Mode = "auto" | "repro" | "fix";

export type ActionTrigger =
  | {
      type: "repro";
      issueNumber: number;
      title: string;
      body: string;
      actor: string;
      checkPermission: boolean;
    }
  | { type: "fix-pr"; prNumber: number; actor: string; checkPermission: boolean }
  | { type: "fix-run"; runId: number; headSha: string; headBranch: string; prNumber: number | null }
  | {
      type: "fix-check";
      headSha: string;
      headBranch: string;
      actionsJobId: number | null;
      prNumber: number | null;
    }
  | { type: "dispatch"; spec: JobSpec }
  | { type: "ignore"; reason: string };

export interface EventSettings {
  mode: Mode;
  label: string;
  reproCommand: string;
  autofixCommand: string;
}

// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are read defensively, field by field.
type Payload = any;

export function parseActionEvent(name: string, payload: Payload, s: EventSettings): ActionTrigger {
  const wantRepro = s.mode !== "fix";
  const wantFix = s.mode !== "repro";
  const ignore = (reason: string): ActionTrigger => ({ type: "ignore", reason });

  switch (name) {
    case "issues": {
      if (payload?.action !== "labeled")
        return ignore(`issues.${payload?.action} is not handled (only labeled)`);
      if (payload?.label?.name !== s.label) return ignore(`label ${payload?.label?.name} is not ${s.label}`);
      if (isBot(payload?.sender)) return ignore("labels set by bots never trigger Retrace");
      if (!wantRepro) return ignore("mode is fix: reproductions are off");
      return {
        type: "repro",
        issueNumber: payload.issue.number,
        title: String(payload.issue.title ?? ""),
        body: String(payload.issue.body ?? ""),
        actor: String(payload.sender?.login ?? ""),
        checkPermission: false,
      };
    }
    case "issue_comment": {
      if (payload?.action !== "created") return ignore(`issue_comment.${payload?.action} is not handled`);
      const comment = payload.comment;
      if (isBot(comment?.user) || isBot(payload?.sender))
        return ignore("comments by bots never trigger Retrace");
      if (typeof comment?.body === "string" && comment.body.includes("<!-- retrace:job:")) {
        return ignore("Retrace's own comments never trigger it");
      }
      const word = slashWord(comment?.body);
      const actor = String(comment?.user?.login ?? "");
      if (word === s.autofixCommand && payload.issue?.pull_request) {
        return wantFix
          ? { type: "fix-pr", prNumber: payload.issue.number, actor, checkPermission: true }
          : ignore("mode is repro");
      }
      if (word === s.reproCommand || word === s.autofixCommand) {
        if (!wantRepro) return ignore("mode is fix: reproductions are off");
        return {
          type: "repro",
          issueNumber: payload.issue.number,
          title: String(payload.issue.title ?? ""),
          body: String(payload.issue.body ?? ""),
          actor,
          checkPermission: true,
        };
      }
      return ignore("the comment holds no Retrace command");
    }
    case "workflow_run": {
      const run = payload?.workflow_run;
      if (payload?.action !== "completed" || run?.conclusion !== "failure") {
        return ignore(`workflow_run ${payload?.action}/${run?.conclusion} is not a failure`);
      }
      if (!wantFix) return ignore("mode is repro: fixes are off");
      return {
        type: "fix-run",
        runId: run.id,
        headSha: String(run.head_sha),
        headBranch: String(run.head_branch),
        prNumber: run.pull_requests?.[0]?.number ?? null,
      };
    }
    case "check_run": {
      const run = payload?.check_run;
      if (payload?.action !== "completed" || run?.conclusion !== "failure") {
        return ignore(`check_run ${payload?.action}/${run?.conclusion} is not a failure`);
      }
      if (run?.name === "Retrace") return ignore("Retrace's own check runs never trigger it");
      if (!wantFix) return ignore("mode is repro: fixes are off");
      const headBranch = run?.check_suite?.head_branch;
      if (typeof headBranch !== "string") return ignore("the failed check run is not on a branch");
      return {
        type: "fix-check",
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
