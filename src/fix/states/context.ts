/** `context`: the code around the failure, gathered and packed into the model's token allowance. */
import type { StateSpec } from "../../core/loop.ts";
import { gatherContext } from "../context-gather.ts";
import { packContext, renderPackedContext } from "../context-pack.ts";
import type { FixCtx, FixEnv, FixStateName } from "./fix-state.ts";

export function contextState({ ports, options, repo }: FixEnv): StateSpec<FixCtx, FixStateName> {
  return {
    on: ["root_cause"],
    run: async (ctx) => {
      const commitDiff = ports.commitDiff ? await ports.commitDiff() : null;
      const candidates = await gatherContext({
        failures: ctx.failures,
        repo,
        ...(commitDiff ? { commitDiff } : {}),
      });
      const packed = packContext(candidates, options.contextTokens ?? 12_000);
      const summary = {
        included: packed.items.map(
          (i) => `${i.path}${i.whole ? "" : `:${i.startLine}-${i.endLine}`} [${i.kind}]`,
        ),
        omitted: packed.omitted.map((o) => `${o.path} [${o.kind}]: ${o.why}`),
        tokens: packed.tokens,
      };
      return {
        next: "root_cause",
        ctx: { ...ctx, context: renderPackedContext(packed), contextSummary: summary },
        summary: `packed ${packed.items.length} item(s), ~${packed.tokens} tokens (chars/4 estimate); left out ${packed.omitted.length}`,
      };
    },
  };
}
