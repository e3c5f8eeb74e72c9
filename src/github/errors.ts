/** Errors of the GitHub adapter: an API call failed or answered something Retrace cannot use. */
import { RetraceError } from "../core/errors.ts";

export class GitHubApiError extends RetraceError {
  /** HTTP status of the failed call, when there was a response. */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; hint?: string; cause?: unknown } = {}) {
    super("github", message, {
      hint: options.hint ?? "check the App's permissions on the repository and GitHub's status page",
      cause: options.cause,
    });
    this.status = options.status;
  }
}

/** Status of an Octokit RequestError (or anything carrying a numeric `status`). */
export function statusOf(error: unknown): number | undefined {
  if (typeof error === "object" && error !== null && "status" in error) {
    const s = (error as { status: unknown }).status;
    return typeof s === "number" ? s : undefined;
  }
  return undefined;
}
