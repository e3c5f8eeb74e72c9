/** `verify`: the patch in fresh sandboxes against the base; a pass accepts the attempt (FIXED). */
import type { StateSpec } from "../../core/loop.ts";
import { verifyFeedback } from "../feedback.ts";
import { clip, closeAttempt, type FixCtx, type FixEnv, type FixStateName, reject } from "./fix-state.ts";

export function verifyState({ ports, log }: FixEnv): StateSpec<FixCtx, FixStateName> {
  return {
    on: ["fixed", "root_cause"],
    run: async (ctx, io) => {
      log(`attempt ${ctx.current?.n}: verifying in fresh sandboxes`);
      const v = await ports.verify({
        patch: ctx.patch as string,
        changes: ctx.changes,
        failing: ctx.failingIds,
        signal: io.signal,
      });
      if (!v.ok) {
        return reject(
          { ...ctx, verification: v },
          io,
          verifyFeedback({ ...v, excerpt: clip(io.redactor.redact(v.excerpt)) }),
          "verify",
        );
      }
      const attemptLog = closeAttempt(ctx, io, "accepted", "");
      const accepted = {
        ...(ctx.current?.rootCause ? { rootCause: ctx.current.rootCause } : {}),
        ...(ctx.current?.summary ? { summary: ctx.current.summary } : {}),
      };
      return {
        next: "fixed",
        ctx: { ...ctx, verification: v, attemptLog, accepted, current: null },
        summary: `verified over ${v.runs} run(s)`,
      };
    },
  };
}
