/**
 * A sentence that sets what happened before against what happens now: "Before it was "TypeError", now it is
 * "AttributeError"", "Previously `1`; now `2`", "It used to return `1`, now it returns `2`", "Before the upgrade it
 * printed `a`. Now it prints `b`." The now side is the reported behaviour; the before side is the good one, never
 * the claim. Spans are offsets into the text given, each a clause: the former one from its marker's clause start to
 * the break before "now", the now one from "now" to the end of its sentence.
 */
export interface FormerNow {
  former: [number, number];
  now: [number, number];
}

/** Words that put a clause in the past, as the reporter's good side. */
const FORMER = /\b(?:before|previously|formerly|earlier|originally|in\s+the\s+past|used\s+to)\b/gi;
/**
 * The break and "now" that open the other side, within the same sentence (`,` `;` `:` a dash, "but", "and",
 * "whereas") or as the next sentence's first word ("… `a`. Now it prints `b`.").
 */
const NOW_AFTER =
  /[^\n.!?]{0,200}?(?:[,;:]|\s[-–—]|\.)[ \t]*(?:(?:but|and|whereas|while)[ \t]+)?(?:(?:it|this|that|the\s+\w+)[ \t]+)?\b(?:now|nowadays|these[ \t]+days|currently)\b|[^\n.!?]{0,200}?[ \t](?:but|whereas|while)[ \t]+(?:(?:it|this|that)[ \t]+)?(?:now|nowadays|currently)\b/iy;

export function formerNowSides(text: string): FormerNow[] {
  const out: FormerNow[] = [];
  for (const m of text.matchAll(FORMER)) {
    const at = m.index ?? 0;
    if (out.some((s) => at < s.now[1])) continue;
    NOW_AFTER.lastIndex = at;
    const now = NOW_AFTER.exec(text);
    if (!now) continue;
    const nowWord =
      /\b(?:now|nowadays|these[ \t]+days|currently)\b(?![\s\S]*\b(?:now|nowadays|these[ \t]+days|currently)\b)/i.exec(
        now[0],
      );
    const nowAt = at + (nowWord?.index ?? now[0].length);
    // The former clause opens at the last break of a sentence or clause (`.`, `;`, a line) before its marker.
    let start = at;
    while (start > 0 && start > at - 200 && !/[.;!?\n]/.test(text.charAt(start - 1))) start--;
    let end = nowAt;
    while (
      end < text.length &&
      end < nowAt + 300 &&
      !/[!?\n]/.test(text.charAt(end)) &&
      !/^\.(?:\s|$)/.test(text.slice(end, end + 2))
    )
      end++;
    out.push({ former: [start, nowAt], now: [nowAt, end] });
  }
  return out;
}
