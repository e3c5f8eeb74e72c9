/**
 * A Python session pasted with `> ` for its prompt (a shell's or Node's prompt from habit, or a quote marker):
 * in a `python` fence, `> print(reader)` and then `['email3', 'name3', 'country, 3']` is a statement typed and
 * what it printed, never a program (`>` opens no Python statement). Read as the `>>>` transcript it stands for
 * (issue 12, hold7).
 *
 * Only when the first non-blank line is such a prompt, every prompted line holds a Python statement start (no
 * `>>`, no blank prompt), there are no `>>>` prompts already, and at least one line is unprompted output: a block
 * whose every line starts with `> ` is a quotation, not a session.
 */
const PROMPT = /^> (\S.*)$/;

export function angleAsPycon(text: string): string | null {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const filled = lines.filter((l) => l.trim() !== "");
  if (filled.length < 2 || /^>>>/m.test(text) || !PROMPT.test(filled[0]!)) return null;
  const prompted = filled.filter((l) => l.startsWith(">"));
  if (prompted.length === filled.length) return null;
  if (!prompted.every((l) => PROMPT.test(l) && !/^> [>|]/.test(l) && /^> [\w([{'"]/.test(l))) return null;
  return lines.map((l) => (PROMPT.test(l) ? `>>> ${l.slice(2)}` : l)).join("\n");
}
