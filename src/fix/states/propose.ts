/** `propose`: the model turns its root cause into edits through `propose_edits` (validated by the schema). */
import type { StateSpec } from "../../core/loop.ts";
import type { Model, ModelMessage } from "../../core/ports/model.ts";
import { modelFeedback } from "../feedback.ts";
import { PROPOSE_SYSTEM } from "../prompts.ts";
import { PROPOSE_EDITS_TOOL, ProposeEditsInput } from "../tools.ts";
import {
  type CurrentAttempt,
  type FixCtx,
  type FixEnv,
  type FixStateName,
  reject,
  TOOLS,
} from "./fix-state.ts";

export function proposeState({ log }: FixEnv): StateSpec<FixCtx, FixStateName> {
  return {
    on: ["apply", "root_cause"],
    run: async (ctx, io) => {
      const model = io.model as Model;
      const instruction = `Now call ${PROPOSE_EDITS_TOOL} with the smallest fix for that root cause.`;
      const messages: ModelMessage[] = [...ctx.messages, { role: "user", content: instruction }];
      // The history's last message is the tool_result for report_root_cause; merge the instruction into it.
      const last = ctx.messages.at(-1);
      if (last && Array.isArray(last.content)) {
        messages.splice(-2, 2, {
          role: "user",
          content: [...last.content, { type: "text", text: instruction }],
        });
      }
      const res = await model.complete({
        system: PROPOSE_SYSTEM,
        context: ctx.context,
        messages,
        tools: TOOLS,
        toolChoice: { type: "tool", name: PROPOSE_EDITS_TOOL },
      });
      const call = res.toolCalls.find((t) => t.name === PROPOSE_EDITS_TOOL);
      const parsed = call ? ProposeEditsInput.safeParse(call.input) : null;
      if (!call || !parsed?.success) {
        return reject(
          ctx,
          io,
          modelFeedback(
            "propose",
            call
              ? `invalid ${PROPOSE_EDITS_TOOL} input: ${parsed?.error?.message}`
              : `no ${PROPOSE_EDITS_TOOL} call`,
          ),
          "propose",
        );
      }
      const current: CurrentAttempt = {
        ...(ctx.current as CurrentAttempt),
        summary: parsed.data.summary,
        files: [...new Set(parsed.data.edits.map((e) => e.path))],
      };
      log(`attempt ${current.n}: ${parsed.data.edits.length} edit(s) to ${current.files.join(", ")}`);
      return {
        next: "apply",
        ctx: { ...ctx, current, proposal: parsed.data },
        summary: parsed.data.summary.slice(0, 200),
      };
    },
  };
}
