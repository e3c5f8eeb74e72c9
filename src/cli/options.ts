/**
 * Parsing numeric option values, with usage errors that name the option, the accepted range and an example.
 * Strict: "", " 3", "0x10", "1e3" and "3.0" are refused for integers (Number() would take them silently).
 */
import { ConfigError, UsageError } from "../core/errors.ts";

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

/**
 * A wall-clock limit in whole seconds (every `--timeout` of the CLI), returned in milliseconds. A value that
 * only makes sense as milliseconds (the unit `repro` and `sandbox run` used before) gets a hint with the
 * seconds it meant, rather than a silent limit a thousand times longer.
 */
export function secondsOption(name: string, raw: string, min: number, max: number, example: number): number {
  const n = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= min && n <= max) return n * 1000;
  const asMs = n / 1000;
  throw new UsageError(
    `${name} is in seconds and must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`,
    Number.isInteger(asMs) && asMs >= min && asMs <= max
      ? `${raw} looks like milliseconds (the unit of repro and sandbox run before): pass ${name} ${asMs}`
      : `e.g. ${name} ${example}`,
  );
}

/**
 * A model flag (`--model`, `--strong-model`) given without the key that would let Retrace call it: an error
 * (exit 2), never a run that silently goes on without the model the user asked for.
 * @param offline what to do instead when the command can run without a model (e.g. "pass --offline")
 */
export function assertModelKey(
  flags: ReadonlyArray<readonly [string, string | undefined]>,
  offline: string,
  env: Record<string, string | undefined> = process.env,
): void {
  const given = flags.find(([, value]) => value !== undefined);
  if (given === undefined || env.ANTHROPIC_API_KEY?.trim()) return;
  throw new ConfigError(
    `${given[0]} ${given[1]} needs ANTHROPIC_API_KEY, which is not set`,
    `export ANTHROPIC_API_KEY=<your key> (and ANTHROPIC_BASE_URL=<url> for another Messages API endpoint), or ${offline}`,
  );
}
