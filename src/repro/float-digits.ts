/**
 * A float the report quotes at full precision whose run printed the same value up to its last digit
 * (python/cpython#97600: `5.237229365663817` reported, `5.237229365663818` printed): another implementation of
 * the same formula rounds the last bit otherwise, and the report's dispute is elsewhere — its expected value is
 * far from both. Only then: with no expected value, or one near the reported, the last digits may be the claim
 * itself (`0.30000000000000004` instead of `0.3`), and a digit off is not the reported output. Pure.
 */

/** A decimal float's digits and where its point sits, or null: `-5.237` → { sign: "-", digits: "5237", point: 1 }. */
function decimalDigits(text: string): { sign: string; digits: string; point: number } | null {
  const m = /^(-?)(\d+)\.(\d+)$/.exec(text.trim());
  if (!m) return null;
  const whole = `${m[2]}${m[3]}`;
  const lead = whole.length - whole.replace(/^0+/, "").length;
  return { sign: m[1]!, digits: whole.slice(lead), point: m[2]!.length - lead };
}

/** Same sign, point and count of significant digits (15 at least), the digit strings one apart. */
export function lastDigitApart(reported: string, printed: string): boolean {
  const a = decimalDigits(reported);
  const b = decimalDigits(printed);
  if (!a || !b || a.sign !== b.sign || a.point !== b.point) return false;
  if (a.digits.length !== b.digits.length || a.digits.length < 15) return false;
  const gap = BigInt(a.digits) - BigInt(b.digits);
  return gap === 1n || gap === -1n;
}

/**
 * The printed lines are the reported floats, each at most one in its last digit, and every expected value is a
 * number far (a millionth, relatively) from the reported ones: the run printed the reported output.
 */
export function floatsAgreeButLastDigit(reported: string[], stdout: string, expected: string[]): boolean {
  const want = reported.map((l) => l.trim()).filter((l) => l !== "");
  const have = stdout
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (want.length === 0 || want.length !== have.length) return false;
  if (!want.every((w, i) => w === have[i] || lastDigitApart(w, have[i]!))) return false;
  if (want.every((w, i) => w === have[i])) return false;
  const wanted = expected.map((e) => e.trim()).filter((e) => e !== "");
  if (wanted.length === 0) return false;
  return wanted.every((e) => {
    if (!/^-?\d+(?:\.\d+)?(?:e[-+]?\d+)?$/i.test(e)) return false;
    const x = Number(e);
    return want.every((w) => {
      const y = Number(w);
      return Math.abs(x - y) > 1e-6 * Math.max(Math.abs(x), Math.abs(y));
    });
  });
}
