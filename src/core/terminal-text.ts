/**
 * Text a terminal is shown, made inert: what Retrace prints comes in part from hostile input (a run's output, a
 * test name from a CI log, a patch's paths, a config key, an `.nvmrc` line), and a terminal acts on some
 * characters instead of showing them — ESC starts sequences that set the clipboard (OSC 52), the window title,
 * clear the screen and draw a forged verdict over the real one; 8-bit C1 controls do the same on terminals that
 * take them; backspace and carriage return overwrite what was printed; bidi controls show a line in another order
 * than it is written. Every such character is written as a visible `\u{…}` escape (the notation the PR body's
 * code spans use); tab and newline stay, and a CRLF line end becomes a newline. Linear, one pass. Pure.
 */

import { BIDI, CONTROLS, CONTROLS_JSON_KEEPS, SEPARATORS } from "./hidden-characters.ts";

/** C0 controls but tab and newline, DEL, C1 controls, and the bidi and line-separator characters. */
const ACTIVE = new RegExp(`\\r\\n|[${CONTROLS}${BIDI}${SEPARATORS}]`, "g");

/** `text` with every character a terminal acts on written as `\u{…}` (a CRLF line end as a newline). */
export function terminalText(text: string): string {
  return text.replace(ACTIVE, (c) => (c === "\r\n" ? "\n" : `\\u{${c.charCodeAt(0).toString(16)}}`));
}

/** Characters JSON.stringify leaves raw that a terminal acts on (it escapes C0 itself). */
const ACTIVE_IN_JSON = new RegExp(`[${CONTROLS_JSON_KEEPS}${BIDI}${SEPARATORS}]`, "g");

/**
 * Serialized JSON with the same characters written as `\uXXXX` escapes: the same document for a parser, inert
 * on a terminal (they can only occur inside its strings).
 */
export function terminalJson(json: string): string {
  return json.replace(ACTIVE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
