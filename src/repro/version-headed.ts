/**
 * One statement written once per version, each copy under a comment naming the version and annotated with what it
 * gave there (issue 12, hold22 enum-100458):
 *
 *     # Python 3.10
 *     f"{Foo.BAR}"  # > bar
 *
 *     # Python 3.11
 *     f"{Foo.BAR}"  # > Foo.BAR
 *
 * is the statement run once, with one value per version: rewritten as `f"{Foo.BAR}"  # Python 3.10: bar  Python
 * 3.11: Foo.BAR`, the per-version comment `annotations.ts` reads as sides, so the report's words (its title naming
 * 3.11, "regression", "no longer") decide which side is the claim, and nothing decides when they do not. Only when
 * every copy is the same statement, every label names a version, and the values differ.
 */
const LABEL = String.raw`(?:python|cpython|py|node(?:\.js|js)?|v)?[ \t]?\d+\.\d+(?:\.\d+)?`;

function marker(flavour: "python" | "js"): string {
  return flavour === "python" ? "#" : "//";
}

export function mergeVersionHeaded(text: string, flavour: "python" | "js"): string | null {
  const c = marker(flavour) === "#" ? "#" : "\\/\\/";
  const labelLine = new RegExp(String.raw`^[ \t]*${c}[ \t]*(${LABEL})[ \t]*:?[ \t]*$`, "i");
  // The copy: code, then its comment holding a value (after an optional `>` / `=>` / `->` output mark).
  const copyLine = new RegExp(String.raw`^(\S.*?)[ \t]+${c}[ \t]*(?:=*>|-+>|→)?[ \t]*(\S.*?)[ \t]*$`);
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const groups: { label: string; code: string; value: string; at: number }[] = [];
  for (let i = 0; i < lines.length - 1; i++) {
    const l = labelLine.exec(lines[i]!);
    const copy = l ? copyLine.exec(lines[i + 1]!) : null;
    if (!l?.[1] || !copy?.[1] || !copy[2]) continue;
    // The code must not itself hold the comment marker inside a string (`print("# x")  # y`): kept simple.
    if (copy[1].includes(marker(flavour))) continue;
    groups.push({ label: l[1].trim(), code: copy[1].trim(), value: copy[2], at: i });
  }
  if (groups.length < 2) return null;
  if (new Set(groups.map((g) => g.code)).size !== 1) return null;
  if (new Set(groups.map((g) => g.label.toLowerCase())).size !== groups.length) return null;
  if (new Set(groups.map((g) => g.value)).size < 2) return null;
  const sides = groups.map((g) => `${g.label}: ${g.value}`).join("  ");
  const drop = new Set(groups.flatMap((g) => [g.at, g.at + 1]));
  const first = groups[0]!.at;
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (i === first) out.push(`${groups[0]!.code}  ${marker(flavour)} ${sides}`);
    else if (!drop.has(i)) out.push(line);
  });
  return out.join("\n");
}
