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
