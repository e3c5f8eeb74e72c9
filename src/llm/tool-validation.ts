/**
 * Tool-call validation shared by every Model adapter: each tool call is checked against its zod schema;
 * invalid input gets ONE repair turn carrying the validation error; a second failure is a ToolInputError.
 * Usage and cost of the repair turn are added to the answer, so budgets see them.
 */
import { z } from "zod";
import { addUsd } from "../core/budget.ts";
import { ToolInputError } from "./errors.ts";
import type { ContentBlock, ModelRequest, ModelResponse, ToolCall } from "../core/ports/model.ts";

interface Invalid {
  call: ToolCall;
  problem: string;
}

/** Validates the calls of `response` against `request.tools`; valid calls get their parsed (defaulted) input. */
export function checkToolCalls(
  request: ModelRequest,
  response: ModelResponse,
): { calls: ToolCall[]; invalid: Invalid[] } {
  const tools = new Map((request.tools ?? []).map((t) => [t.name, t]));
  const calls: ToolCall[] = [];
  const invalid: Invalid[] = [];
  for (const call of response.toolCalls) {
    const tool = tools.get(call.name);
    if (!tool) {
      invalid.push({
        call,
        problem: `there is no tool named "${call.name}"; the tools are: ${[...tools.keys()].join(", ") || "(none)"}`,
      });
      continue;
    }
    const parsed = tool.input.safeParse(call.input);
    if (parsed.success) calls.push({ ...call, input: parsed.data });
    else invalid.push({ call, problem: z.prettifyError(parsed.error) });
  }
  return { calls, invalid };
}

/** The conversation that asks the model to resend its tool calls, each invalid one with its validation error. */
export function repairRequest(
  request: ModelRequest,
  response: ModelResponse,
  invalid: Invalid[],
): ModelRequest {
  const bad = new Map(invalid.map((i) => [i.call.id, i.problem]));
  const assistant: ContentBlock[] = [
    ...(response.text ? [{ type: "text" as const, text: response.text }] : []),
    ...response.toolCalls.map((c) => ({ type: "tool_use" as const, id: c.id, name: c.name, input: c.input })),
  ];
  const results: ContentBlock[] = response.toolCalls.map((c) => {
    const problem = bad.get(c.id);
    return problem === undefined
      ? {
          type: "tool_result" as const,
          toolUseId: c.id,
          content: "Not run: another call in this turn was invalid. Send it again.",
        }
      : {
          type: "tool_result" as const,
          toolUseId: c.id,
          isError: true,
          content: `Invalid input for tool "${c.name}":\n${problem}\nSend the call again with input that matches the schema.`,
        };
  });
  return {
    ...request,
    messages: [
      ...request.messages,
      { role: "assistant", content: assistant },
      { role: "user", content: results },
    ],
  };
}

/**
 * Calls `call(request)`, validates the tool calls, and on invalid input calls once more with a repair turn.
 * The returned response has validated tool calls and the summed usage and cost of both calls.
 */
export async function completeWithToolRepair(
  request: ModelRequest,
  call: (request: ModelRequest) => Promise<ModelResponse>,
): Promise<ModelResponse> {
  const first = await call(request);
  const checked = checkToolCalls(request, first);
  if (checked.invalid.length === 0) return { ...first, toolCalls: checked.calls };
  const second = await call(repairRequest(request, first, checked.invalid));
  const again = checkToolCalls(request, second);
  const usage = {
    inputTokens: first.usage.inputTokens + second.usage.inputTokens,
    outputTokens: first.usage.outputTokens + second.usage.outputTokens,
    cacheReadTokens: first.usage.cacheReadTokens + second.usage.cacheReadTokens,
    cacheWriteTokens: first.usage.cacheWriteTokens + second.usage.cacheWriteTokens,
  };
  if (again.invalid.length > 0) {
    const inv = again.invalid[0] as Invalid;
    // The tokens were spent even though the answer is unusable: the error carries them to the budget.
    throw new ToolInputError(inv.call.name, inv.problem, {
      usage,
      costUsd: addUsd(first.costUsd, second.costUsd),
    });
  }
  return { ...second, toolCalls: again.calls, usage, costUsd: addUsd(first.costUsd, second.costUsd) };
}
