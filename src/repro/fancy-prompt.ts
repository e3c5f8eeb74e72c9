/**
 * A shell prompt drawn by a theme (zsh's agnoster or powerlevel, oh-my-posh) pasted into a report:
 * ` user@host  ~/projects  python3.11 crash.py`, perhaps with the theme's status mark in front (`✘` after a failed
 * command, `⚡`, `⚙`), the theme's separator glyphs lost in the paste so that only runs of spaces part the user, the
 * directory and the command, and no `$`. Such a line is a command typed at a prompt, never code; read as the
 * `$ python3.11 crash.py` it stands for, the block is the shell session it is (issue 12, hold22 ordereddict-119004).
 *
 * Only lines whose command runs an interpreter (`python3.11 …`, `node …`, `pypy3 …`) are rewritten, and only when
 * the block has no `$`/`%` prompt of its own: any other line, printed text included, is kept as it is.
 */
const MARK = String.raw`(?:[✘✔✗✓⚡⚙↵]\uFE0F?[ \t]+)*`;
const GAP = String.raw`[ \t\uE0A0-\uE0D4]*[ \t][ \t\uE0A0-\uE0D4]*[ \t]`;
const FANCY = new RegExp(
  String.raw`^[ \t]*${MARK}[\w.-]+@[\w.-]+${GAP}[~/][^\s]*${GAP}((?:[\w.~-]*\/)*(?:python|pypy)[\d.]*(?:\s.*)?|(?:[\w.~-]*\/)*node(?:js)?(?:\s.*)?)$`,
  "u",
);

export function fancyPromptAsDollar(text: string): string | null {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines.some((l) => /^[ \t]*[$%][ \t]/.test(l))) return null;
  let changed = false;
  const out = lines.map((l) => {
    const m = FANCY.exec(l);
    if (!m?.[1]) return l;
    changed = true;
    return `$ ${m[1].trim()}`;
  });
  return changed ? out.join("\n") : null;
}

/**
 * A shell prompt that is one glyph (`λ cat test.py`, `❯ node app.js`, `➜  app git:(main) ✗ python3 x.py`, as fish,
 * starship, oh-my-zsh and other themes draw it), perhaps with the directory and a git status after the glyph: the
 * command typed at a `$` prompt (issue 12, hold24 contextlib-92118).
 *
 * A glyph line is read as a prompt only when its command is a shell command a report types (an interpreter on a
 * script, a flag or nothing; `cat`, an install, `cd`, `ls`, `echo`), at least one such line runs an interpreter, and the
 * block has no `$`/`%` prompt of its own. A glyph that starts code (`λ = 0.5`, `» 2`) or prose (`» node is fast`)
 * is left as it is.
 */
const GLYPH = String.raw`[λ❯➜›»▶⟩∴→]`;
const AFTER_GLYPH = String.raw`(?:[ \t]+[~\w./-]+)?(?:[ \t]+git:\([^)\s]*\))?(?:[ \t]+[✗✘✔])?`;
const INTERPRETER = String.raw`(?:[\w.~-]*\/)*(?:(?:python|pypy)[\d.]*|node(?:js)?|deno|bun)(?:[ \t]*$|[ \t]+(?:-\S*|(?:[\w.~-]+\/)*[\w.-]+\.(?:py|[cm]?[jt]s))(?:[ \t].*)?$)`;
const OTHER_COMMAND = String.raw`(?:cat|type|cd|ls|echo|(?:npm|yarn|pnpm|pip[\d.]*)[ \t]+(?:i|install|add)\b).*$`;
const GLYPH_LINE = new RegExp(
  String.raw`^[ \t]*${GLYPH}${AFTER_GLYPH}[ \t]+(${INTERPRETER}|${OTHER_COMMAND})`,
  "u",
);
const GLYPH_INTERPRETER = new RegExp(String.raw`^${INTERPRETER}`, "u");

export function glyphPromptAsDollar(text: string): string | null {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines.some((l) => /^[ \t]*[$%][ \t]/.test(l))) return null;
  const commands = lines.map((l) => GLYPH_LINE.exec(l)?.[1]?.trim() ?? null);
  if (!commands.some((c) => c !== null && GLYPH_INTERPRETER.test(c))) return null;
  return lines.map((l, i) => (commands[i] !== null ? `$ ${commands[i]}` : l)).join("\n");
}
