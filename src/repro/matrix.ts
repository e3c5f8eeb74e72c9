/**
 * The version matrix: when the report pins an older release, the latest one is looked up, installed and run
 * too, and the two verdicts are put side by side ("reproduces on semver@5.0.0; does not on semver@7.8.6
 * (latest) — fixed upstream").
 */
import type { Program } from "./complete.ts";
import type { ReproContext } from "./context.ts";
import {
  describeVersions,
  installedVersions,
  installPackages,
  type Pin,
  sandboxRuntime,
} from "./dependencies.ts";
import { executeRuns, timeoutRetryFor } from "./execute.ts";
import { foldRuns, matchRunWithinBudget, repeatsUntilFailure } from "./match.ts";
import type { MatrixEntry, PackageVersion, Verdict } from "./result.ts";

export interface LatestOutcome {
  entry: MatrixEntry;
  /** "semver@7.8.6 (latest)". */
  latestText: string;
  /** A fixed line when the latest could not be run ("latest unknown"); null to compose from the verdicts. */
  summary: string | null;
}

/**
 * Looks up, installs and runs the latest release of the reported dependencies. The entry is null when the
 * reported versions are the latest; `lines` say what was done, for the trace.
 */
export async function latestEntry(
  ctx: ReproContext,
  program: Program,
  pins: Pin[],
  reportedVersions: PackageVersion[],
  files: Record<string, string>,
  entry: string,
): Promise<{ latest: LatestOutcome | null; lines: string[] }> {
  const { ports } = ctx;
  const runtime = (await sandboxRuntime(ports)) ?? undefined;
  const latest = await Promise.all(
    pins.map(async (p) => ({
      ...p,
      latest: await ports.registry.latestVersion(program.ecosystem, p.name, runtime),
    })),
  );
  const reported = describeVersions(reportedVersions, program.ecosystem);
  const unknown = latest.filter((p) => p.source === "reported" && !p.latest);
  if (unknown.length > 0) {
    return {
      latest: {
        entry: {
          label: "latest",
          packages: [],
          reproduced: null,
          runs: 0,
          reproducedRuns: 0,
          note: `latest unknown (${unknown.map((u) => u.name).join(", ")}: registry unreachable)`,
        },
        latestText: "latest unknown",
        summary: `tested on ${reported}; latest unknown (the registry could not be reached)`,
      },
      lines: [`matrix: latest unknown for ${unknown.map((u) => u.name).join(", ")}`],
    };
  }
  const differs = latest.some(
    (p) =>
      p.source === "reported" &&
      p.latest &&
      p.latest !== reportedVersions.find((r) => r.name === p.name)?.version,
  );
  if (!differs) return { latest: null, lines: ["matrix: the reported versions are the latest"] };
  const install = await installPackages(
    ctx,
    program,
    latest.map((p) => ({ name: p.name, version: p.latest ?? p.version })),
    "latest versions",
  );
  const installed = install?.result ?? null;
  const lines = install ? [`install ${install.line}`] : [];
  const packages = installedVersions(
    program,
    latest.map((p) => ({ name: p.name, version: p.latest, source: "latest" as const })),
    installed,
  );
  const latestText = `${describeVersions(packages, program.ecosystem)} (latest)`;
  if (!installed || installed.failures.length > 0) {
    return {
      latest: {
        entry: {
          label: "latest",
          packages,
          reproduced: null,
          runs: 0,
          reproducedRuns: 0,
          note: `could not install ${latestText}`,
        },
        latestText,
        summary: `tested on ${reported}; could not install ${latestText}`,
      },
      lines,
    };
  }
  const runs = await executeRuns({
    ports,
    jobId: ctx.spec.id,
    program,
    files,
    runnableEntry: entry,
    install: installed,
    runs: ctx.spec.runs,
    label: "latest versions",
    retryTimeouts: timeoutRetryFor(ctx.expectations.actual.kind),
  });
  const fold = foldRuns(
    runs.map((r) =>
      matchRunWithinBudget(
        ctx.expectations.actual,
        r,
        ctx.expectations.expectedOutput,
        ctx.expectations.expectedException,
        {
          untilFailure: repeatsUntilFailure(files[entry] ?? ""),
          ...(ctx.expectations.expectedFrom ? { expectedFrom: ctx.expectations.expectedFrom } : {}),
          reportText: `${ctx.report.title}\n${Object.values(ctx.report.prose).join("\n")}`,
        },
      ),
    ),
  );
  const reproduced =
    fold.verdict === "REPRODUCED"
      ? "yes"
      : fold.verdict === "PARTIAL"
        ? "partial"
        : fold.verdict === "NOT_REPRODUCED"
          ? "no"
          : null;
  return {
    latest: {
      entry: {
        label: "latest",
        packages,
        reproduced,
        runs: runs.length,
        reproducedRuns: fold.reproducedRuns,
        note: fold.detail,
      },
      latestText,
      summary: null,
    },
    lines: [
      ...lines,
      `matrix: latest ${latestText}: ${fold.verdict} (${fold.reproducedRuns}/${runs.length})`,
    ],
  };
}

/** "reproduces on semver@5.0.0; does not on semver@7.8.6 (latest) — fixed upstream". */
export function matrixLine(reportedVerdict: Verdict, reportedText: string, latest: LatestOutcome): string {
  if (latest.summary) return latest.summary;
  const onReported =
    reportedVerdict === "REPRODUCED"
      ? "reproduces"
      : reportedVerdict === "PARTIAL"
        ? "partly reproduces"
        : "does not reproduce";
  const r = latest.entry.reproduced;
  const onLatest =
    r === "yes"
      ? "reproduces"
      : r === "partial"
        ? "partly reproduces"
        : onReported === "does not reproduce"
          ? "does not either"
          : "does not";
  const word =
    reportedVerdict === "REPRODUCED" && r === "no"
      ? " — fixed upstream"
      : reportedVerdict === "REPRODUCED" && r === "yes"
        ? " — live bug"
        : reportedVerdict === "NOT_REPRODUCED" && r === "yes"
          ? " — regression in the latest release"
          : "";
  return `${onReported} on ${reportedText}; ${onLatest} on ${latest.latestText}${word}`;
}
