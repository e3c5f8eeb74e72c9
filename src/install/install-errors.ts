/**
 * The errors of an install in the install container (npm, pnpm, pip alike): kept apart from the installers so
 * that the container itself can report a step its limit stopped.
 */
import { InfrastructureError } from "../core/errors.ts";
import { INSTALL_TIMED_OUT } from "../repro/ports.ts";

/** Install failed inside the container (npm's reason, a timeout, a refused host). */
export class InstallFailedError extends InfrastructureError {
  constructor(
    readonly reason: string,
    /** The install step that failed (`npm ci`, `pip download …`), as the message names it. */
    readonly command: string,
    hint = /--package-lock-only/.test(command)
      ? "check that every dependency package.json names (and theirs) is on the configured registry and reachable from this host; or commit a package-lock.json whose entries are"
      : "check that the lockfile is in sync with package.json (`npm install --package-lock-only`) and that the configured registry is reachable from this host",
  ) {
    super(`${command} failed in the install container: ${reason}`, hint);
    this.name = "InstallFailedError";
  }
}

/** The install reached its wall-clock limit: the error names the limit and the setting that raises it. */
export function installTimedOut(
  command: string,
  limits: { timeoutMs: number; timeoutSetting?: string | undefined },
): InstallFailedError {
  const s = limits.timeoutMs / 1000;
  return new InstallFailedError(
    `${INSTALL_TIMED_OUT} ${s >= 10 ? Math.round(s) : s} s, the limit of one install${limits.timeoutSetting ? ` (${limits.timeoutSetting})` : ""}`,
    command,
    `raise ${limits.timeoutSetting ?? "the install's time limit"} (a first install of a large dependency tree on a loaded machine can take several minutes), or run when the machine is less loaded`,
  );
}
