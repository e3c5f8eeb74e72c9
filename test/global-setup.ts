/**
 * Runs once before the suite: tells Docker-backed tests whether an engine answers.
 * Under CI=true a missing engine fails those tests; locally they are skipped with a visible reason.
 */
import { execFileSync } from "node:child_process";

export default function setup(): void {
  let ok = false;
  try {
    execFileSync("docker", ["info", "--format", "{{.ServerVersion}}"], { stdio: "pipe", timeout: 10_000 });
    ok = true;
  } catch {
    ok = false;
  }
  process.env.RETRACE_TEST_DOCKER = ok ? "1" : "0";
}
