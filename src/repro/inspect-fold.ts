/**
 * Node's inspect breaks a long string inside a printed value into pieces joined by `+` (`'@@ -7,13 @@\n' +` then
 * `    ' r%22\n' +` on the next line), at a width and on boundaries that vary between Node releases (and a reporter's
 * console may print the same string whole). Folding each such chain into the one string literal it denotes lets a
 * reported value and a printed one be compared by value, not by layout. Only chains of single-quoted pieces as the
 * printer writes them are folded (a piece ends in `' +` at the end of its line and the next line opens with `'`);
 * anything else is left as it is.
 */
const CHAIN_LINK = /'[ \t]*\+[ \t]*\n[ \t]*'/g;

/** The text with every inspect string chain joined into one literal. */
export function foldInspectStrings(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(CHAIN_LINK, "");
}

/** Whether the text holds such a chain. */
export function hasInspectChain(text: string): boolean {
  return /'[ \t]*\+[ \t]*\n[ \t]*'/.test(text.replace(/\r\n?/g, "\n"));
}
