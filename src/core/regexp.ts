/** Regular-expression helpers shared by every layer. Pure. */

/** `s` with every character a regular expression reads as syntax escaped, so it matches itself literally. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
