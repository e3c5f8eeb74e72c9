/**
 * End to end on the real Docker sandbox with the scripted model (and once through the real Anthropic SDK
 * against the local Messages API server): the fix loop on Python and JS fixture repositories.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { Redactor } from "../../../src/core/redact.ts";
import { createFixPorts } from "../../../src/fix/build-ports.ts";
import { runFix } from "../../../src/fix/pipeline.ts";
import { fixReportMarkdown } from "../../../src/jobs/fix-result.ts";
import { FixResult } from "../../../src/fix/result.ts";
import { createBranchWithCommit, createFsWorkspace } from "../../../src/git/index.ts";
import { createAnthropicModel } from "../../../src/llm/anthropic.ts";
import { type ScriptEntry, ScriptedModel } from "../../../src/llm/scripted.ts";
import type { Model } from "../../../src/core/ports/model.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import type { Sandbox, SandboxRunRequest } from "../../../src/core/ports/sandbox.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";
import { message, startFakeAnthropic } from "../../support/fake-anthropic.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/fix-repos");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();
}

/** A git repository holding a copy of a fixture, with one commit on `main`. */
function repoFrom(fixture: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `retrace-fix-${fixture}-`));
  dirs.push(dir);
  cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "base");
  return dir;
}

/** Records every sandbox request so tests can say what ran. */
function recording(inner: Sandbox): Sandbox & { requests: SandboxRunRequest[] } {
  const requests: SandboxRunRequest[] = [];
  return {
    requests,
    run: (r) => {
      requests.push(r);
      return inner.run(r);
    },
  };
}

async function fix(
  fixture: string,
  model: Model | null,
  opts: { log?: string; triageRuns?: number; maxAttempts?: number; maxTokens?: number } = {},
) {
  const dir = repoFrom(fixture);
  const sandbox = recording(createDockerSandbox({ image: sandboxImage }));
  const ports = await createFixPorts({
    workspace: await createFsWorkspace(dir),
    sandbox,
    jobId: `it-fix-${fixture}`,
    model,
    models: { fast: "claude-haiku-4-5", strong: "claude-sonnet-4-5", escalateAfter: 1 },
    limits: { timeoutMs: 60_000 },
    publish: async ({ branch, patch, message: msg }) => {
      const r = await createBranchWithCommit(dir, {
        branch,
        patch,
        message: msg,
        author: { name: "Retrace", email: "r@example.com" },
      });
      return { branch: r.branch, commit: r.commit };
    },
  });
  const run = await runFix(ports, {
    id: `it${fixture.replace(/\W/g, "")}`,
    ...(opts.log ? { log: opts.log } : {}),
    triageRuns: opts.triageRuns ?? 1,
    budget: { maxAttempts: opts.maxAttempts ?? 3, ...(opts.maxTokens ? { maxTokens: opts.maxTokens } : {}) },
  });
  expect(FixResult.parse(run.result)).toEqual(run.result);
  return { dir, run, sandbox };
}

const cause = (hypothesis: string, files: string[]): ScriptEntry => ({
  toolCalls: [{ name: "report_root_cause", input: { hypothesis, evidence: "the failing assertion", files } }],
  usage: { inputTokens: 2_000, outputTokens: 60 },
});
const edit = (p: string, oldS: string, newS: string, summary = "fix"): ScriptEntry => ({
  toolCalls: [
    { name: "propose_edits", input: { summary, edits: [{ path: p, old_string: oldS, new_string: newS }] } },
  ],
  usage: { inputTokens: 2_400, outputTokens: 90 },
});

describeDocker("retrace fix loop (real sandbox)", () => {
  it("Python: fixes a logic bug, verifies it, and commits it to a new branch without touching the checkout", {
    timeout: 240_000,
  }, async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [{ name: "grep", input: { pattern: "def apply_discount" } }],
        usage: { inputTokens: 1_500, outputTokens: 30 },
      },
      cause("apply_discount treats the percentage as a fraction", ["pricing/cart.py"]),
      edit(
        "pricing/cart.py",
        "    return amount * (1 - percent)",
        "    return amount * (1 - percent / 100)",
        "divide the percentage by 100",
      ),
    ]);
    const { dir, run } = await fix("py-pricing", model);
    expect(run.result.outcome).toBe("FIXED");
    expect(run.result.failingTests).toEqual(["tests/test_cart.py::test_discount_is_a_percentage"]);
    expect(run.result.verification?.tests).toContainEqual({
      id: "tests/test_cart.py::test_discount_is_a_percentage",
      before: "failed",
      after: "passed",
    });
    expect(
      run.result.verification?.tests.filter((t) => t.before === "passed").every((t) => t.after === "passed"),
    ).toBe(true);
    // The grep tool answered from the real checkout.
    expect(JSON.stringify(model.requests[1]?.messages)).toContain(
      "pricing/cart.py:11: def apply_discount(amount, percent):",
    );
    // Branch with exactly one commit on top of main; main and the working tree untouched.
    expect(run.result.branch).toBe("retrace/fix-itpypric");
    expect(git(dir, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    expect(git(dir, "status", "--porcelain")).toBe("");
    expect(git(dir, "rev-list", "--count", "main..retrace/fix-itpypric")).toBe("1");
    expect(git(dir, "show", "retrace/fix-itpypric:pricing/cart.py")).toContain("percent / 100");
    expect(readFileSync(path.join(dir, "pricing/cart.py"), "utf8")).toContain("(1 - percent)\n");
    const md = fixReportMarkdown(run, new Redactor());
    expect(md).toContain("apply_discount treats the percentage as a fraction");
    expect(md).toContain("| `tests/test_cart.py::test_discount_is_a_percentage` | failed | passed |");
    expect(md).toContain("A human must review");
  });

  it("JS: a wrong first patch is rejected by verification, and attempt 2 fixes it using the feedback", {
    timeout: 300_000,
  }, async () => {
    const model = new ScriptedModel([
      cause("slugify replaces each whitespace character separately", ["src/slug.js"]),
      edit("src/slug.js", '    .replace(/\\s/g, "-");', '    .replace(/ /g, "-");'),
      cause("runs of whitespace must collapse into one dash", ["src/slug.js"]),
      edit(
        "src/slug.js",
        '    .replace(/\\s/g, "-");',
        '    .replace(/\\s+/g, "-");',
        "collapse whitespace runs",
      ),
    ]);
    const { dir, run } = await fix("js-slug", model);
    expect(run.result.outcome).toBe("FIXED");
    expect(run.result.attemptLog.map((a) => a.verdict)).toEqual(["verify", "accepted"]);
    expect(run.result.attemptLog.map((a) => a.model)).toEqual(["claude-haiku-4-5", "claude-sonnet-4-5"]);
    const second = model.requests[2]!;
    expect(second.model).toBe("claude-sonnet-4-5");
    const prompt = second.messages[0]!.content as string;
    expect(prompt).toContain('Attempt 1 was rejected at step "verify" (tests_still_failing)');
    expect(prompt).toContain("slugify collapses runs of spaces");
    expect(git(dir, "show", `${run.result.branch}:src/slug.js`)).toContain("/\\s+/g");
  });

  it("a patch that edits the test is blocked by the gate and never applied", {
    timeout: 240_000,
  }, async () => {
    const model = new ScriptedModel([
      cause("the test expects the wrong value", ["tests/test_cart.py"]),
      edit(
        "tests/test_cart.py",
        "    assert apply_discount(200.0, 10) == 180.0",
        "    assert apply_discount(200.0, 10) == -1800.0",
      ),
    ]);
    const { dir, run, sandbox } = await fix("py-pricing", model, { maxAttempts: 1 });
    expect(run.result.outcome).toBe("BLOCKED");
    expect(run.result.attemptLog[0]?.verdict).toBe("policy");
    expect(run.result.attemptLog[0]?.violations.join("\n")).toContain("tests/test_cart.py");
    // Never applied: no sandbox run received an overlay of the test file, and no branch exists.
    expect(sandbox.requests.some((r) => r.input?.files && "tests/test_cart.py" in r.input.files)).toBe(false);
    expect(git(dir, "branch", "--list", "retrace/*")).toBe("");
    expect(fixReportMarkdown(run, new Redactor())).toContain("Why it was rejected");
  });

  it("a flaky failure stops before any model call", { timeout: 180_000 }, async () => {
    const model = new ScriptedModel([]);
    const log = readFileSync(path.join(FIXTURES, "py-flaky/ci.log"), "utf8");
    const { run } = await fix("py-flaky", model, { log, triageRuns: 3 });
    expect(run.result.outcome).toBe("FLAKY");
    expect(model.requests).toHaveLength(0);
    expect(run.result.failingTests).toEqual(["tests/test_service.py::test_fetch_within_deadline"]);
    expect(run.result.flaky).toMatchObject({ runs: 3, passes: 3, failures: 0, fullSuite: false });
    expect(run.result.flaky?.command).toBe(
      "python3 -m pytest tests/test_service.py::test_fetch_within_deadline",
    );
    expect(run.result.flaky?.interval.high).toBeCloseTo(0.5615, 3);
  });

  it("running out of token budget ends cleanly with BUDGET_EXHAUSTED", { timeout: 180_000 }, async () => {
    const big = { inputTokens: 6_000, outputTokens: 100 };
    const model = new ScriptedModel([
      { ...(cause("percent is a fraction", ["pricing/cart.py"]) as object), usage: big },
      { ...(edit("pricing/cart.py", "no such line", "x") as object), usage: big },
      { ...(cause("percent is a fraction", ["pricing/cart.py"]) as object), usage: big },
    ]);
    const { run } = await fix("py-pricing", model, { maxTokens: 15_000 });
    expect(run.result.outcome).toBe("BUDGET_EXHAUSTED");
    expect(run.result.tokens).toBe(18_300);
    expect(run.result.attemptLog.map((a) => a.verdict)).toEqual(["apply", "budget"]);
    expect(run.result.branch).toBeNull();
  });

  it("runs through the real Anthropic SDK against the local Messages API server", {
    timeout: 240_000,
  }, async () => {
    const fake = await startFakeAnthropic();
    try {
      fake.reply(
        message({
          toolUses: [
            {
              name: "report_root_cause",
              input: {
                hypothesis: "percent used as a fraction",
                evidence: "200*(1-10)",
                files: ["pricing/cart.py"],
              },
            },
          ],
          usage: { input_tokens: 3_000, output_tokens: 50 },
        }),
        message({
          toolUses: [
            {
              name: "propose_edits",
              input: {
                summary: "divide by 100",
                edits: [
                  {
                    path: "pricing/cart.py",
                    old_string: "    return amount * (1 - percent)",
                    new_string: "    return amount * (1 - percent / 100)",
                  },
                ],
              },
            },
          ],
          usage: { input_tokens: 3_200, output_tokens: 80 },
        }),
      );
      const model = createAnthropicModel({ apiKey: "sk-ant-test-0000000000000000", baseURL: fake.url });
      const { run } = await fix("py-pricing", model);
      expect(run.result.outcome).toBe("FIXED");
      expect(run.result.tokens).toBe(3_000 + 50 + 3_200 + 80);
      expect(fake.requests).toHaveLength(2);
      const [first, second] = fake.requests;
      expect(first!.body.tools.map((t: { name: string }) => t.name)).toEqual([
        "read_file",
        "grep",
        "list_dir",
        "report_root_cause",
        "propose_edits",
      ]);
      expect(first!.body.tool_choice).toEqual({ type: "any" });
      expect(second!.body.tool_choice).toEqual({ type: "tool", name: "propose_edits" });
      expect(JSON.stringify(second!.body.messages)).toContain("percent used as a fraction");
    } finally {
      await fake.close();
    }
  });
});
