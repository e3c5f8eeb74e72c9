/**
 * A run stopping on an import Retrace added is our completion's failure, never the report's behaviour (issue 12,
 * hold17). Errors and reports written for these tests, with must-not-fire cases.
 */
import os from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { describe, expect, it } from "vitest";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { ManualClock } from "../../../src/core/loop-clock.ts";
import { ContainerDependencyInstaller } from "../../../src/install/installer.ts";
import { completionImportFailure } from "../../../src/repro/completion-failure.ts";
import type { ReproPorts } from "../../../src/repro/ports.ts";
import { runRepro } from "../../../src/repro/run-repro.ts";
import { fakeSandbox } from "../../support/fake-sandbox.ts";

const stop = (message: string, type = "AttributeError") => ({ exception: { type, message } });
const ours = 'import datetime\ndatetime.fromisoformat("2024-01-17")\n';
const report = 'The call `datetime.fromisoformat("2024-01-17")` accepts it.';

describe("completionImportFailure", () => {
  it("names the failure when every run stops on a module Retrace imported", () => {
    expect(
      completionImportFailure([stop("module 'datetime' has no attribute 'fromisoformat'")], ours, report),
    ).toBe("AttributeError: module 'datetime' has no attribute 'fromisoformat'");
  });

  it("must not fire: the report's own import, another error, an object's attribute, one run that passed", () => {
    const miss = stop("module 'datetime' has no attribute 'fromisoformat'");
    expect(
      completionImportFailure([miss], ours, `${report}\n\`\`\`python\nimport datetime\n\`\`\``),
    ).toBeNull();
    expect(completionImportFailure([stop("bad value", "ValueError")], ours, report)).toBeNull();
    expect(completionImportFailure([stop("'str' object has no attribute 'iter'")], ours, report)).toBeNull();
    expect(completionImportFailure([miss, { exception: null }], ours, report)).toBeNull();
    expect(completionImportFailure([miss], "from datetime import datetime\n", report)).toBeNull();
    expect(completionImportFailure([], ours, report)).toBeNull();
  });
});

describe("pipeline: a run stopping on our import is not PARTIAL", () => {
  const f = "```";
  const stderr =
    "@@retrace-runtime 3.11.2\nTraceback (most recent call last):\n  File \"/workspace/reproduction.py\", line 2, in <module>\nAttributeError: module 'os' has no attribute 'walkk'\n";
  const ports = (): ReproPorts => ({
    sandbox: fakeSandbox(() => ({ exitCode: 1, stderr })),
    installer: new ContainerDependencyInstaller({
      docker: new Docker({ socketPath: "/nonexistent/retrace-test-docker.sock" }),
      cacheDir: path.join(os.tmpdir(), "retrace-f12t-cache"),
    }),
    model: null,
    clock: new ManualClock(),
    registry: { latestVersion: async () => null },
    transpile: async (code) => code,
    compareLatest: false,
  });
  const spec = (markdown: string) => ReproJobSpec.parse({ kind: "repro", id: "t", markdown, runs: 2 });
  const body = `${f}python\nprint(list(os.walkk(".")))\n${f}\n\nThis prints:\n\n${f}\n[]\n${f}\n\nbut the folder has files.\n`;

  it("the completion's `import os` failing: NEEDS_INFO naming our import", async () => {
    const { result } = await runRepro(spec(`# walk\n\n${body}`), ports());
    expect(result.verdict).toBe("NEEDS_INFO");
    expect(result.summary).toMatch(/at an import Retrace added to complete the code/);
  });

  it("must not fire: the report imports the module itself", async () => {
    const own = body.replace("print(list(", "import os\nprint(list(");
    const { result } = await runRepro(spec(`# walk\n\n${own}`), ports());
    expect(result.verdict).toBe("PARTIAL");
    expect(result.summary).not.toMatch(/Retrace added to complete the code/);
  });
});
