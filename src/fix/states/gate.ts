/** `gate`: the deterministic policy gate on the patch; a refusal is feedback for the next attempt. */
import type { StateSpec } from "../../core/loop.ts";
import { policyFeedback } from "../feedback.ts";
import { type FixCtx, type FixEnv, type FixStateName, reject } from "./fix-state.ts";

export function gateState({ ports, log }: FixEnv): StateSpec<FixCtx, FixStateName> {
  return {
    on: ["verify", "root_cause"],
    run: (ctx, io) => {
      const patch = ctx.patch as string;
      const verdict = ports.gate(patch);
      if (!verdict.allowed) {
        log(
          `attempt ${ctx.current?.n}: blocked by the policy gate (${verdict.violations.map((v) => v.rule).join(", ")})`,
        );
        return reject(
          { ...ctx, gate: verdict },
          io,
          policyFeedback(verdict.violations, patch),
          "policy",
          verdict.violations.map(
            (v) => `[${v.rule}] ${v.file ?? ""}${v.line ? `:${v.line}` : ""} ${v.message}`,
          ),
        );
      }
      return {
        next: "verify",
        ctx: { ...ctx, gate: verdict },
        summary: `policy: ${verdict.rules.length} rule(s) passed`,
      };
    },
  };
}
