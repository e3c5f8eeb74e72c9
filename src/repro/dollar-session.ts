/**
 * A Node REPL session pasted with a shell's `$ ` prompt on its JavaScript lines (`$ var x = require('inflection')`,
 * `$ x.pluralize('education')`, then the echoed `'education'`): the same session with Node's `> ` prompt. Only
 * when every prompted line is JavaScript — a declaration, or a call or subscript of a name (`x.f(…)`) — and never a shell
 * command (`$ node -e …`, `$ npm i x`: a word then a space; `$ python3.9 -c …`: no call). Pure.
 */

const JS_COMMAND =
  /^(?:(?:var|let|const)[ \t]+[\w${}, \t]+=[^=]|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*[ \t]*[([])/;

/** The session with `> ` prompts, or null when it is not one. */
export function dollarAsNode(value: string): string | null {
  const lines = value
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((l) => l.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const first = lines.findIndex((l) => l.trim() !== "");
  if (first < 0 || !/^\$ /.test(lines[first]!)) return null;
  const prompted = lines.filter((l) => /^\$ /.test(l));
  if (!prompted.every((l) => JS_COMMAND.test(l.slice(2).trim()))) return null;
  // A session shows at least one answer: a line under a prompt that is not one.
  if (!lines.some((l, i) => i > first && l.trim() !== "" && !/^\$ /.test(l))) return null;
  return lines.map((l) => (/^\$ /.test(l) ? `> ${l.slice(2)}` : l)).join("\n");
}
