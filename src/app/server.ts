/**
 * The App server: Probot's standard environment (APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET,
 * PORT, HOST, GHE_HOST, GHE_PROTOCOL, LOG_LEVEL), webhooks at Probot's default path, a health endpoint at
 * `/healthz`, and the durable job store. Retrace's own settings: RETRACE_DB_PATH, RETRACE_EXECUTOR
 * (local|actions), RETRACE_WORKFLOW, RETRACE_CONCURRENCY, RETRACE_APP_SLUG.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeMiddleware, createProbot, ProbotOctokit } from "probot";
import { ConfigError } from "../core/errors.ts";
import { hostLimits } from "../core/host-limits.ts";
import { jsonDepth, MAX_PAYLOAD_DEPTH } from "../core/json-depth.ts";
import { createGitHubPort, type OctokitLike } from "../github/octokit-port.ts";
import type { JobRunner } from "../jobs/result.ts";
import { retraceApp } from "./app.ts";
import type { PolicyGate } from "../jobs/publish.ts";
import { JobService } from "./job-service.ts";
import { type JobStore, openSqliteJobStore } from "./job-store.ts";

export interface AppServerOptions {
  env: NodeJS.ProcessEnv;
  runner: JobRunner;
  gate: PolicyGate;
  /**
   * Octokit's secondary-rate-limit throttling (at most one write per second per installation) and retries.
   * On by default, as GitHub asks; a test against a local fake turns them off to run at full speed.
   */
  octokit?: { throttle?: boolean; retry?: boolean };
}

export interface AppServer {
  server: Server;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3000. */
  url: string;
  service: JobService;
  store: JobStore;
  /** Stop taking work, close the server and the store (running jobs are resumed by the next start). */
  close(): Promise<void>;
}

/** Settings read from the environment, validated with messages that say what to set. */
export function readAppEnv(env: NodeJS.ProcessEnv) {
  const missing: string[] = [];
  if (!env.APP_ID || !/^\d+$/.test(env.APP_ID)) missing.push("APP_ID (the numeric App id)");
  if (!env.PRIVATE_KEY && !env.PRIVATE_KEY_PATH) missing.push("PRIVATE_KEY or PRIVATE_KEY_PATH");
  if (!env.WEBHOOK_SECRET) missing.push("WEBHOOK_SECRET");
  if (missing.length > 0) {
    throw new ConfigError(
      `the App server needs ${missing.join(", ")}`,
      "create the App from app.yml (docs/app.md), then put its settings in the environment or a .env file",
    );
  }
  const executor = env.RETRACE_EXECUTOR ?? "local";
  if (executor !== "local" && executor !== "actions") {
    throw new ConfigError(`RETRACE_EXECUTOR must be "local" or "actions", not ${JSON.stringify(executor)}`);
  }
  const concurrency = Number(env.RETRACE_CONCURRENCY ?? "2");
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new ConfigError(
      `RETRACE_CONCURRENCY must be an integer from 1 to 64, not ${env.RETRACE_CONCURRENCY}`,
    );
  }
  const port = Number(env.PORT ?? "3000");
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ConfigError(`PORT is not a port: ${env.PORT}`);
  return {
    appId: Number(env.APP_ID),
    appSlug: env.RETRACE_APP_SLUG ?? "retrace",
    executor: executor as "local" | "actions",
    workflow: env.RETRACE_WORKFLOW ?? "retrace.yml",
    concurrency,
    dbPath: env.RETRACE_DB_PATH ?? ".retrace/app.sqlite",
    port,
    host: env.HOST ?? "0.0.0.0",
  };
}

/** GitHub caps a webhook delivery at 25 MB: a longer body is not GitHub's. */
export const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;

/**
 * Bytes of unverified bodies held at once, over every connection (wave 19): a signature is checked only once a body
 * is whole, so 24 unsigned deliveries of 20 MB each, held open, made the App hold 484 MiB (300 of 2 MB: 668 MiB).
 * Past this budget a delivery is answered 503 (GitHub redelivers on request); two whole 25 MB deliveries fit.
 */
export const MAX_PENDING_WEBHOOK_BYTES = 64 * 1024 * 1024;
let pendingBytes = 0;

/**
 * How long a delivery may take (wave 19): Node's defaults (60 s for the head, 300 s for the whole request, checked
 * every 30 s) let a delivery trickling one byte at a time hold its connection and buffer for minutes. GitHub gives
 * up on a delivery after 10 s, so no delivery of GitHub's takes longer than these.
 */
export const WEBHOOK_HEADERS_TIMEOUT_MS = 10_000;
export const WEBHOOK_REQUEST_TIMEOUT_MS = 15_000;

/** How long a refused upload is still read (and dropped) so that its sender gets the answer, not a reset. */
export const REFUSED_LINGER_MS = 5_000;

/**
 * Whether an `x-github-event` header names an event the way GitHub does (`issue_comment`, `workflow_run`): lower-case
 * letters and underscores, and no member of Object.prototype (red team 30: a signed `__proto__`, `hasOwnProperty`
 * or `valueOf` made the router answer 500 with its TypeError).
 */
export function isWebhookEventName(name: string | string[]): boolean {
  return typeof name === "string" && /^[a-z][a-z_]{0,63}$/.test(name) && !(name in Object.prototype);
}

/**
 * A request's body as text, or null when it was refused (answered here): more than MAX_WEBHOOK_BYTES (the
 * `content-length` or the bytes received; past the cap nothing more is kept), or JSON nested deeper than any
 * webhook payload (checked in one pass before anything parses it).
 *
 * A refusal sent while the sender is still uploading is followed by a lingering close, as nginx does: what still
 * arrives is read and dropped for at most `lingerMs`, then the socket goes. Destroying it at once makes
 * the kernel answer the unread bytes with a reset, and a client that is still writing then loses the 413 it was
 * sent (seen under load: ECONNRESET or EPIPE instead of the status).
 */
export function readWebhookBody(
  req: IncomingMessage,
  res: ServerResponse,
  lingerMs = REFUSED_LINGER_MS,
): Promise<string | null> {
  const refuse = (status: number, error: string) => {
    if (res.headersSent) {
      req.socket.destroy();
      return null;
    }
    if (req.complete) {
      res.writeHead(status, { "content-type": "application/json", connection: "close" });
      res.end(JSON.stringify({ error }));
      return null;
    }
    // No `connection: close` here: Node would destroy the socket as soon as the answer is written.
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error }));
    const linger = setTimeout(() => req.socket.destroy(), lingerMs);
    linger.unref();
    req.once("end", () => {
      clearTimeout(linger);
      req.socket.end();
    });
    req.socket.once("close", () => clearTimeout(linger));
    req.resume();
    return null;
  };
  const event = req.headers["x-github-event"];
  if (event !== undefined && !isWebhookEventName(event))
    return Promise.resolve(refuse(400, "x-github-event is not a webhook event name"));
  const tooLarge = `a webhook delivery is at most ${MAX_WEBHOOK_BYTES} bytes`;
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > MAX_WEBHOOK_BYTES) return Promise.resolve(refuse(413, tooLarge));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: string | null) => {
      if (done) return;
      done = true;
      pendingBytes -= size;
      size = 0;
      req.off("data", onData);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      pendingBytes += chunk.length;
      if (size > MAX_WEBHOOK_BYTES) {
        chunks.length = 0;
        finish(refuse(413, tooLarge));
        return;
      }
      if (pendingBytes > MAX_PENDING_WEBHOOK_BYTES) {
        chunks.length = 0;
        finish(
          refuse(
            503,
            `the App is holding ${MAX_PENDING_WEBHOOK_BYTES} bytes of deliveries not yet verified; redeliver this one later`,
          ),
        );
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.on("error", () => finish(null));
    // A connection that goes away (a request timeout, a reset) mid-body: its bytes are no longer held.
    req.on("close", () => finish(null));
    req.on("end", () => {
      if (done) return;
      const text = Buffer.concat(chunks).toString("utf8");
      if (jsonDepth(text, MAX_PAYLOAD_DEPTH) > MAX_PAYLOAD_DEPTH)
        return finish(refuse(400, `a webhook delivery nests at most ${MAX_PAYLOAD_DEPTH} levels`));
      finish(text);
    });
  });
}

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const settings = readAppEnv(options.env);
  const throttle = options.octokit?.throttle ?? true;
  const retry = options.octokit?.retry ?? true;
  const probot = createProbot({
    env: options.env,
    overrides:
      throttle && retry
        ? {}
        : {
            // A function, not an object: Probot replaces a `throttle` object wholesale when it adds its handlers.
            Octokit: ProbotOctokit.defaults((instance: Record<string, unknown>) => ({
              ...instance,
              throttle: { ...(instance.throttle as object), enabled: throttle },
              retry: { ...(instance.retry as object), enabled: retry },
            })),
          },
  });
  const store = await openSqliteJobStore(settings.dbPath);
  const secrets = [options.env.WEBHOOK_SECRET, options.env.PRIVATE_KEY].filter((s): s is string =>
    Boolean(s),
  );
  const service = new JobService({
    store,
    runner: options.runner,
    gate: options.gate,
    githubFor: async (installationId) =>
      createGitHubPort((await probot.auth(installationId)) as unknown as OctokitLike),
    identity: { appId: settings.appId, appSlug: settings.appSlug },
    executor: settings.executor,
    workflow: settings.workflow,
    concurrency: settings.concurrency,
    log: {
      info: (m) => probot.log.info(m),
      warn: (m) => probot.log.warn(m),
      error: (m) => probot.log.error(m),
    },
    secrets,
    maxima: hostLimits(options.env),
  });
  const middleware = await createNodeMiddleware(retraceApp(service), { probot });
  const server = createServer(
    {
      headersTimeout: WEBHOOK_HEADERS_TIMEOUT_MS,
      requestTimeout: WEBHOOK_REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: 1_000,
    },
    (req: IncomingMessage, res: ServerResponse) => {
      if (req.method === "GET" && (req.url === "/healthz" || req.url === "/health")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            status: "ok",
            executor: settings.executor,
            unfinishedJobs: store.listUnfinished().length,
          }),
        );
        return;
      }
      if (req.method === "POST") {
        // The body is read here, bounded, before Probot's middleware (which would buffer any size, unsigned too,
        // before checking the signature) and handed to it as a string.
        void readWebhookBody(req, res).then((body) => {
          if (body === null) return;
          (req as IncomingMessage & { body?: string }).body = body;
          void middleware(req, res, () => notFound(req, res));
        });
        return;
      }
      void middleware(req, res, () => notFound(req, res));
    },
  );
  const notFound = (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: `no route ${req.method} ${req.url}` }));
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, settings.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const resumed = await service.resume();
  if (resumed.resumed.length + resumed.failed.length > 0) {
    probot.log.info(`resumed ${resumed.resumed.length} job(s), reported ${resumed.failed.length} as failed`);
  }
  return {
    server,
    url: `http://${host}:${address.port}`,
    service,
    store,
    async close() {
      service.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      store.close();
    },
  };
}
