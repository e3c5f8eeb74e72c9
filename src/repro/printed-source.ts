/**
 * Where the value a print shows comes from (issue 12, rv23 / fx4): `print(token)` commented `# empty` claims the
 * reported package printed nothing only when the value comes from a call into code (the package's, the runtime's
 * library), never when it is read from the environment (`os.environ.get('API_TOKEN', '')`, `process.env.X ?? ''`),
 * a file, the network, the command line or standard input — the sandbox has none of the reporter's, so an empty
 * value there says nothing about the package. The printed expression's names are followed to their assignments
 * (three steps at most) and the text so gathered is read. Pure: the program's text and the print in, the source out.
 */

/** Reads of what the sandbox does not share with the reporter: environment, files, network, arguments, stdin. */
const ENVIRONMENT_READ: { pattern: RegExp; what: string }[] = [
  {
    pattern: /\bos\.(?:environ|getenv)\b|(?<![\w.])(?:getenv|environ)\s*[.[(]/,
    what: "an environment variable",
  },
  { pattern: /\bprocess\.env\b|\bimport\.meta\.env\b|\bDeno\.env\b/, what: "an environment variable" },
  {
    pattern:
      /(?<![\w.])open\s*\(|\.read_(?:text|bytes)\s*\(|\bfs(?:\/promises)?\.\w+|\breadFile(?:Sync)?\s*\(|\bFileReader\b/,
    what: "a file",
  },
  {
    pattern:
      /(?<![\w.])(?:fetch|urlopen)\s*\(|\b(?:requests|httpx|aiohttp|urllib\.request|http\.client|socket|axios|superagent|XMLHttpRequest)\b|\bhttps?\.(?:get|request)\s*\(/,
    what: "the network",
  },
  {
    pattern: /\bsys\.(?:argv|stdin)\b|\bprocess\.(?:argv|stdin)\b|(?<![\w.])input\s*\(|(?<![\w.])prompt\s*\(/,
    what: "the command line or standard input",
  },
];

export interface PrintedSource {
  /** What the value is read from, when it is the environment, a file, the network or the input; else null. */
  environment: string | null;
  /** Whether the value comes from a call (or a `new`) at all: a literal printed empty is no code's behaviour. */
  called: boolean;
}

/** The argument of `print(…)` / `console.log(…)` in `code`, or null. */
function printArgument(code: string): string | null {
  const m = /(?:^|[^\w$.])(?:print|console\.(?:log|info))\s*\(([\s\S]*)\)\s*;?\s*$/.exec(code);
  return m ? m[1]!.trim() : null;
}

export function printedSource(program: string, printCode: string): PrintedSource {
  const arg = printArgument(printCode) ?? printCode;
  const seen = new Set<string>();
  let text = arg;
  let frontier = [arg];
  for (let step = 0; step < 3 && frontier.length > 0; step++) {
    const next: string[] = [];
    for (const expr of frontier)
      for (const [name] of expr.matchAll(/(?<![\w$.'"])[A-Za-z_$][\w$]*/g)) {
        if (seen.has(name)) continue;
        seen.add(name);
        const escaped = name.replace(/\$/g, "\\$");
        const assign = new RegExp(
          `^[ \\t]*(?:(?:const|let|var)[ \\t]+)?${escaped}[ \\t]*(?::[^=\\n]*)?=(?!=)[ \\t]*(.+)$`,
          "gm",
        );
        // `with open(p) as f:`, `for line in sys.stdin:`: the name bound to what the statement reads.
        const bound = new RegExp(
          `^[ \\t]*(?:async[ \\t]+)?(?:with[ \\t]+(.+?)[ \\t]+as[ \\t]+${escaped}\\b|for[ \\t]+${escaped}[ \\t]+in[ \\t]+(.+))`,
          "gm",
        );
        for (const b of program.matchAll(bound)) {
          text += `\n${b[1] ?? b[2]!}`;
          next.push(b[1] ?? b[2]!);
        }
        for (const a of program.matchAll(assign)) {
          text += `\n${a[1]!}`;
          next.push(a[1]!);
        }
      }
    frontier = next;
  }
  const env = ENVIRONMENT_READ.find((e) => e.pattern.test(text));
  return {
    environment: env ? env.what : null,
    called: /[\w$\])]\s*\(|\bnew\s+[A-Za-z_$]/.test(text),
  };
}
