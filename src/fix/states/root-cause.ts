/**
 * `root_cause` (starts each attempt): the model explores the repository with the read-only tools, then
 * reports a root cause through `report_root_cause`. No code yet. The attempt opens here, in `ctx.current`.
 */
import type { StateSpec } from "../../core/loop.ts";
import type { ContentBlock, Model, ModelMessage } from "../../core/ports/model.ts";
import { isExplorationCall } from "../explore.ts";
import { modelFeedback, renderFeedback } from "../feedback.ts";
import { ROOT_CAUSE_SYSTEM } from "../prompts.ts";
import { ROOT_CAUSE_TOOL, RootCauseInput } from "../tools.ts";
import {
  assistantBlocks,
  type CurrentAttempt,
  type FixCtx,
  type FixEnv,
  type FixStateName,
  failureText,
  reject,
  skipped,
  TOOLS,
} from "./fix-state.ts";

export function rootCauseState({ explorer, maxRounds, log }: FixEnv): StateSpec<FixCtx, FixStateName> {
  return {
    startsAttempt: true,
    on: ["propose", "root_cause"],
    run: async (ctx, io) => {
      const model = io.model as Model;
      const current: CurrentAttempt = {
        n: io.attempt,
        model: io.modelName ?? "(default)",
        tokensAtStart: io.budget.tokens,
        costAtStart: io.budget.costUsd,
        files: [],
      };
      const c: FixCtx = { ...ctx, current };
      const feedback = renderFeedback(io.history);
      const messages: ModelMessage[] = [
        {
          role: "user",
          content: `${failureText(ctx)}\n\n${feedback ? `${feedback}\n\n` : ""}Explore if you need to, then call ${ROOT_CAUSE_TOOL}.`,
        },
      ];
      log(`attempt ${io.attempt} (${current.model}): root cause`);
      for (let round = 0; round < maxRounds; round += 1) {
        const res = await model.complete({
          system: ROOT_CAUSE_SYSTEM,
          context: c.context,
          messages,
          tools: TOOLS,
          toolChoice: explorer.remaining > 0 ? { type: "any" } : { type: "tool", name: ROOT_CAUSE_TOOL },
        });
        messages.push({ role: "assistant", content: assistantBlocks(res) });
        const rc = res.toolCalls.find((t) => t.name === ROOT_CAUSE_TOOL);
        const parsed = rc ? RootCauseInput.safeParse(rc.input) : null;
        if (rc && parsed?.success) {
          const others = res.toolCalls
            .filter((t) => t !== rc)
            .map((t) => skipped(t, "ignored: the root cause was reported"));
          messages.push({
            role: "user",
            content: [...others, { type: "tool_result", toolUseId: rc.id, content: "recorded" }],
          });
          return {
            next: "propose",
            ctx: { ...c, messages, current: { ...current, rootCause: parsed.data } },
            summary: `root cause: ${parsed.data.hypothesis.slice(0, 200)}`,
          };
        }
        if (res.toolCalls.length === 0) {
          messages.push({ role: "user", content: `Call ${ROOT_CAUSE_TOOL} now (no code).` });
          continue;
        }
        const results: ContentBlock[] = [];
        for (const call of res.toolCalls) {
          if (isExplorationCall(call.name)) {
            const r = await explorer.run(call);
            results.push({
              type: "tool_result",
              toolUseId: call.id,
              content: r.content,
              ...(r.isError ? { isError: true } : {}),
            });
          } else if (call.name === ROOT_CAUSE_TOOL) {
            results.push({
              type: "tool_result",
              toolUseId: call.id,
              content: `invalid input: ${parsed?.error?.message ?? ""}`,
              isError: true,
            });
          } else results.push(skipped(call, `call ${ROOT_CAUSE_TOOL} first; ${call.name} comes after`));
        }
        messages.push({ role: "user", content: results });
      }
      return reject(
        c,
        io,
        modelFeedback("root_cause", `no ${ROOT_CAUSE_TOOL} call within ${maxRounds} model rounds`),
        "root_cause",
      );
    },
  };
}
