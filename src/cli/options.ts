/**
 * Parsing numeric option values, with usage errors that name the option, the accepted range and an example.
 * Strict: "", " 3", "0x10", "1e3" and "3.0" are refused for integers (Number() would take them silently).
 */
import { UsageError } from "../core/errors.ts";

/** A whole number from `min` to `max` written in plain decimal digits; `example` is shown in the hint. */
export function intOption(
  name: string,
  raw: string,
  min: number,
  max: number,
  example = Math.min(Math.max(min, 3), max),
): number {
  const n = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(
      `${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`,
      `e.g. ${name} ${example}`,
    );
  return n;
}

/** A non-negative decimal number (dollars), at most `max`. */
export function nonNegativeNumberOption(name: string, raw: string, max: number): number {
  const n = /^\d{1,12}(\.\d{1,12})?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(n) || n > max)
    throw new UsageError(
      `${name} must be a number from 0 to ${max}, got ${JSON.stringify(raw)}`,
      `e.g. ${name} 0.5`,
    );
  return n;
}
