/**
 * `npm start`: the App server with the production runner and the policy gate. Logic lives in server.ts.
 */
import { describeError } from "../core/errors.ts";
import { Redactor } from "../core/redact.ts";
import { createDefaultRunner } from "../jobs/default-runner.ts";
import { evaluatePatch } from "../policy/index.ts";
import { startAppServer } from "./server.ts";

try {
  const secrets = [process.env.WEBHOOK_SECRET, process.env.PRIVATE_KEY].filter((s): s is string =>
    Boolean(s),
  );
  const app = await startAppServer({
    env: process.env,
    runner: createDefaultRunner({ env: process.env, secrets }),
    gate: evaluatePatch,
  });
  process.stdout.write(
    `retrace app listening on ${app.url} (webhooks at /api/github/webhooks, health at /healthz)\n`,
  );
  const shutdown = () => {
    void app.close().then(() => process.exit(0));
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
} catch (error) {
  const redactor = new Redactor([process.env.WEBHOOK_SECRET, process.env.PRIVATE_KEY]);
  process.stderr.write(redactor.redact(`retrace app: ${describeError(error)}\n`));
  process.exit(
    typeof (error as { exitCode?: unknown }).exitCode === "number"
      ? (error as { exitCode: number }).exitCode
      : 1,
  );
}
