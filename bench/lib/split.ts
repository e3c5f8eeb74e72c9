// The one seeded split every real-world corpus uses (reports, logs, gaming patches, repositories).
// A case's half is a pure function of a fixed seed and its id: a seeded shuffle that needs no list of all
// cases, so a case added later lands in its half without moving any other. Work on "dev"; score "test" only
// at the end, and report both.
import { createHash } from "node:crypto";

export const SPLIT_SEED = "retrace-real-world-2026-11";

export type Split = "dev" | "test";

export function splitOf(caseId: string): Split {
  const digest = createHash("sha256").update(`${SPLIT_SEED}:${caseId}`).digest();
  return (digest[0] ?? 0) % 2 === 0 ? "dev" : "test";
}
