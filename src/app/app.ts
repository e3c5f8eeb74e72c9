/**
 * The Probot application function: every webhook goes to the job service's synchronous `receive`, which
 * de-duplicates, decides and persists; the work itself runs from the queue, so the 200 goes out at once.
 */
import type { ApplicationFunction } from "probot";
import type { JobService } from "./job-service.ts";

export function retraceApp(service: JobService): ApplicationFunction {
  return (app) => {
    app.onAny(async (context) => {
      const outcome = service.receive(context.id, context.name, context.payload);
      if (outcome.status === "queued") app.log.info(`${context.name} ${context.id}: queued ${outcome.jobId}`);
      else if (outcome.status === "duplicate")
        app.log.info(`${context.name} ${context.id}: duplicate delivery, ignored`);
      else app.log.debug(`${context.name} ${context.id}: ${outcome.reason}`);
    });
  };
}
