/**
 * Gate for tests that need the real Docker engine. In CI a missing engine is a failure, never a silent skip.
 */
import { describe } from "vitest";

export const dockerAvailable = process.env.RETRACE_TEST_DOCKER === "1";
export const sandboxImage = process.env.RETRACE_SANDBOX_IMAGE ?? "retrace-sandbox:1";

/** `describe` for Docker-backed suites: runs when an engine answers; fails under CI when it does not. */
export function describeDocker(name: string, fn: () => void): void {
  if (dockerAvailable) {
    describe(name, fn);
  } else if (process.env.CI === "true") {
    describe(name, () => {
      throw new Error(
        "CI=true but no Docker engine answers: .ci/run must install and start one before the tests.",
      );
    });
  } else {
    console.warn(
      `[retrace] skipping "${name}": no Docker engine answers (run \`npm run setup\` as root to start one)`,
    );
    describe.skip(name, fn);
  }
}
