/**
 * A Messages API answer as the fake model servers of the attack waves send it (waves 16 and 17): a plain
 * `end_turn` text message, with any field replaced by `over` (a hostile usage count, a content of the wrong shape).
 */
export const modelMessage = (over: Record<string, unknown> = {}) => ({
  id: "msg_wave",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5",
  content: [{ type: "text", text: "done" }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 10 },
  ...over,
});
