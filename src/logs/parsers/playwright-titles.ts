/**
 * Playwright joins titles with ` › `, so a describe or test title that itself holds ` › ` reads as two levels. A
 * code frame that shows the title's own string literal (`15 | test.describe("units › conversions", () => {`) tells
 * them apart: those literals, gathered over the log's failure blocks.
 */
const FRAME_LITERAL =
  /^\s*>?\s*\d+ \|.*?\b(?:describe|test|it)(?:\.\w+)*\(\s*(["'`])((?:(?!\1).)* › (?:(?!\1).)*)\1/;

export function titlesInFrames(lines: Iterable<string>, into: Set<string>): void {
  for (const l of lines) {
    if (into.size >= 1_000 || !l.includes(" › ")) continue;
    const m = FRAME_LITERAL.exec(l);
    if (m) into.add(m[2]!);
  }
}

/** `units > conversions > cup` with the literal `units › conversions` seen: `units › conversions > cup`. */
export function rejoinTitles(name: string, literals: ReadonlySet<string>): string {
  if (literals.size === 0 || !name.includes(" > ")) return name;
  let out = ` > ${name} > `;
  for (const lit of literals) {
    const split = ` > ${lit.split(" › ").join(" > ")} > `;
    if (out.includes(split)) out = out.split(split).join(` > ${lit} > `);
  }
  return out.slice(3, -3);
}
