/** `apply`: the proposed edits applied to the repository's files, as file changes and their patch. */
import type { StateSpec } from "../../core/loop.ts";
import { applyEdits } from "../apply-edits.ts";
import { applyFeedback, modelFeedback } from "../feedback.ts";
import { renderPatch } from "../render-diff.ts";
import type { ProposeEditsInput } from "../tools.ts";
import { type CurrentAttempt, type FixCtx, type FixEnv, type FixStateName, reject } from "./fix-state.ts";

export function applyState({ repo }: FixEnv): StateSpec<FixCtx, FixStateName> {
  return {
    on: ["gate", "root_cause"],
    run: async (ctx, io) => {
      const proposal = ctx.proposal as ProposeEditsInput;
      const { changes, errors } = await applyEdits(proposal.edits, (p) => repo.readFile(p));
      if (errors.length > 0) return reject(ctx, io, applyFeedback(errors), "apply");
      if (changes.length === 0)
        return reject(ctx, io, modelFeedback("apply", "the edits change nothing"), "apply");
      const patch = renderPatch(changes);
      return {
        next: "gate",
        ctx: { ...ctx, changes, patch, current: { ...(ctx.current as CurrentAttempt), patch } },
        summary: `patch: ${changes.length} file(s)`,
      };
    },
  };
}
