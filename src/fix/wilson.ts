/**
 * Wilson score interval for a binomial proportion: a confidence interval for the failure rate that stays
 * inside [0, 1] and is sensible for the tiny samples flaky triage takes (3 to 10 reruns), unlike the
 * normal approximation, which collapses to [0, 0] or [1, 1] at the extremes.
 */

export interface ProportionInterval {
  /** Observed proportion (successes / trials). */
  estimate: number;
  low: number;
  high: number;
  /** Confidence level, e.g. 0.95. */
  confidence: number;
}

/** Two-sided z quantiles for the confidence levels Retrace reports. */
const Z: Record<string, number> = {
  "0.8": 1.2815515655446004,
  "0.9": 1.6448536269514722,
  "0.95": 1.959963984540054,
  "0.99": 2.5758293035489004,
};

export function wilsonInterval(successes: number, trials: number, confidence = 0.95): ProportionInterval {
  if (!Number.isInteger(trials) || trials <= 0)
    throw new RangeError(`trials must be a positive integer, got ${trials}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > trials) {
    throw new RangeError(`successes must be an integer in [0, ${trials}], got ${successes}`);
  }
  const z = Z[String(confidence)];
  if (z === undefined)
    throw new RangeError(`confidence must be one of ${Object.keys(Z).join(", ")}, got ${confidence}`);
  const p = successes / trials;
  const z2 = z * z;
  const denom = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denom;
  return { estimate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half), confidence };
}
