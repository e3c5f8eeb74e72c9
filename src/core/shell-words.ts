/**
 * The one shell-word scanner: a command line split into words as a POSIX shell reads them (single quotes
 * literal, double quotes with backslash escapes, backslashes outside quotes), each with where it stands in the
 * line, stopping at an operator that ends a simple command. Nothing is expanded or re-serialised.
 */

export interface Token {
  text: string;
  start: number;
  end: number;
}

/** Shell operators that end a simple command. */
export const OPERATOR = /^(?:&&|\|\||;|\||&|\(|\))/;

/** Splits `command[from, to)` into words (quotes and backslashes respected), stopping at an operator. */
export function scanWords(command: string, from = 0): { words: Token[]; end: number } {
  const words: Token[] = [];
  let i = from;
  while (i < command.length) {
    while (i < command.length && /\s/.test(command[i]!)) i++;
    if (i >= command.length || OPERATOR.test(command.slice(i))) break;
    const start = i;
    let text = "";
    while (i < command.length && !/\s/.test(command[i]!) && !OPERATOR.test(command.slice(i))) {
      const c = command[i]!;
      if (c === "'") {
        const close = command.indexOf("'", i + 1);
        const stop = close < 0 ? command.length : close;
        text += command.slice(i + 1, stop);
        i = stop + 1;
      } else if (c === '"') {
        let j = i + 1;
        while (j < command.length && command[j] !== '"') {
          if (command[j] === "\\" && j + 1 < command.length) j++;
          text += command[j];
          j++;
        }
        i = j + 1;
      } else if (c === "\\" && i + 1 < command.length) {
        text += command[i + 1];
        i += 2;
      } else {
        text += c;
        i++;
      }
    }
    words.push({ text, start, end: Math.min(i, command.length) });
  }
  return { words, end: i };
}

/** The words of an argument string, unquoted (`-x="a b"` is one word, `-x=a b`); nothing after an operator. */
export function shellWords(text: string): string[] {
  return scanWords(text).words.map((w) => w.text);
}

/**
 * `line` up to the first of `operators` (characters), trailing whitespace dropped: a search and a trim, linear
 * in the line. The pattern it replaces, `/\s*(?:[|>;&].*)?$/`, restarted its whitespace run at every position of
 * it: a report's `$ node index.js x` followed by 60,000 spaces and `y` cost seconds of host CPU after the bounded
 * parse (eighth red team).
 */
export function beforeOperator(line: string, operators: string): string {
  let cut = line.length;
  for (let i = 0; i < line.length; i++) {
    if (operators.includes(line[i]!)) {
      cut = i;
      break;
    }
  }
  return line.slice(0, cut).trimEnd();
}
