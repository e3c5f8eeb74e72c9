/**
 * A src-layout Python repository whose CI runs `PYTHONPATH=src python3 -m pytest tests`: the fix loop's
 * reruns of the failing test must run that command (narrowed), not a bare `python3 -m pytest <id>` that
 * cannot import the package and would record "failed" from an ImportError.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { defaultConfig } from "../../../src/config/schema.ts";
import { Redactor } from "../../../src/core/redact.ts";
import { fixSettings } from "../../../src/jobs/settings.ts";
import { createLocalFixPorts } from "../../../src/jobs/local-fix.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

function srcLayoutRepo(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "retrace-srclayout-"));
  mkdirSync(path.join(dir, "src", "shop"), { recursive: true });
  mkdirSync(path.join(dir, "tests"));
  writeFileSync(
    path.join(dir, "src", "shop", "__init__.py"),
    "def total(prices):\n    return sum(prices) + 1\n",
  );
  writeFileSync(
    path.join(dir, "tests", "test_total.py"),
    "from shop import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n\n\ndef test_empty():\n    assert total([]) == 1\n",
  );
  return dir;
}

describeDocker("reruns use the repository's own test command", () => {
  it("keeps PYTHONPATH=src when rerunning one failing test", async () => {
    const repoDir = srcLayoutRepo();
    const ports = await createLocalFixPorts({
      repoDir,
      jobId: "test-rerun-command",
      settings: fixSettings(defaultConfig(), { testCommand: "PYTHONPATH=src python3 -m pytest tests" }),
      model: null,
      redactor: new Redactor(),
      sandbox: createDockerSandbox({ image: sandboxImage }),
      publishLocalBranch: false,
    });
    const id = "tests/test_total.py::test_total";
    expect(ports.tests.filterCommand([id])).toBe(
      "PYTHONPATH=src python3 -m pytest tests/test_total.py::test_total",
    );
    const r = await ports.tests.runOnly([id], new AbortController().signal);
    expect(Object.fromEntries(r.outcomes)).toEqual({ [id]: "failed" });
    expect(r.failures[0]?.message).toMatch(/assert 4 == 3/);
  }, 120_000);
});
