/**
 * A script that prints the package's call and a built-in reference call on the same arguments, one after the other
 * (`console.log(stringify(o, null, 2))` then `console.log(JSON.stringify(o, null, 2))`, `print(dumps(d))` then
 * `print(json.dumps(d))`), with prose saying the package's output is not what was expected ("deeper indentation than
 * I expected", "differs from"): the reference is the expected output, and the claim is that the two differ. A
 * completed run whose two prints are the same shows no difference: the report's behaviour is absent (fixed here, or
 * never on this input). Two different prints are not read as the claim: they may differ by design (sorted keys), so
 * that side stays undecided.
 */
import type { ReportedBehaviour } from "./result.ts";

/** Built-in calls a reporter prints beside the package's as the yardstick. */
const REFERENCE =
  /^(?:JSON\.stringify|JSON\.parse|String|Number|parseInt|parseFloat|encodeURIComponent|decodeURIComponent|structuredClone|util\.inspect|util\.format|json\.dumps|json\.loads|str|repr|int|float|sorted)$/;

/** One print statement of one call: `console.log(f(args))`, `print(f(args))`, with its callee and argument text. */
const PRINT_CALL =
  /^[ \t]*(?:console\.log|print)\([ \t]*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(([^\n]*)\)[ \t]*\)[ \t]*;?[ \t]*(?:(?:\/\/|#)[^\n]*)?$/;

/** Words saying the output is other than expected, or other than something. */
const NOT_AS_EXPECTED =
  /\b(?:than\s+(?:I\s+|we\s+)?expected|than\s+expected|not\s+(?:what\s+I\s+)?expected|unexpected(?:ly)?|differs?\s+from|different\s+(?:from|than)|unlike|not\s+the\s+same\s+as|does\s*n[o']t\s+match)\b/i;

export interface ReferencePrint {
  subject: string;
  reference: string;
}

/** The pair, when the code's only two prints are the package's call and a reference call on the same arguments. */
export function referencePrint(code: string, prose: string): ReferencePrint | null {
  if (!NOT_AS_EXPECTED.test(prose)) return null;
  const lines = code.split("\n");
  const prints = lines.filter((l) => /^[ \t]*(?:console\.\w+|print)\(/.test(l));
  if (prints.length !== 2) return null;
  const [a, b] = prints.map((l) => PRINT_CALL.exec(l));
  if (!a || !b || a[2]!.trim() !== b[2]!.trim() || a[2]!.trim() === "") return null;
  const refA = REFERENCE.test(a[1]!);
  const refB = REFERENCE.test(b[1]!);
  if (refA === refB) return null;
  const [subject, reference] = refA ? [b, a] : [a, b];
  return {
    subject: `${subject[1]}(${subject[2]!.trim()})`,
    reference: `${reference[1]}(${reference[2]!.trim()})`,
  };
}

/** The run's output is two equal halves: both prints wrote the same lines. */
export function printedTwice(stdout: string): boolean {
  const lines = stdout.replace(/\n+$/, "").split("\n");
  if (lines.length < 2 || lines.length % 2 !== 0) return false;
  const half = lines.length / 2;
  return lines.slice(0, half).join("\n") === lines.slice(half).join("\n");
}

/** The verdict for such a claim on a completed run, or null when the run does not settle it. */
export function referencePrintMatch(
  reported: ReportedBehaviour,
  stdout: string,
): { kind: "clean"; detail: string } | null {
  const pair = reported.kind === "unknown" ? reported.referencePrint : undefined;
  if (!pair || !printedTwice(stdout)) return null;
  return {
    kind: "clean",
    detail: `\`${pair.subject}\` printed the same as the reference \`${pair.reference}\` the report prints beside it: the difference it describes does not show (fixed here, or never on this input)`,
  };
}
