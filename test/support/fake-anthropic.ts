/**
 * A local HTTP server that speaks the Anthropic Messages API (POST /v1/messages), for tests that drive the
 * real `@anthropic-ai/sdk` over real HTTP. Listens on 127.0.0.1, port 0. Replies are scripted per request,
 * in order; every request (headers, parsed body, arrival time) is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** Parsed JSON body (null when it did not parse); untyped so tests can assert deep into it. */
  // biome-ignore lint/suspicious/noExplicitAny: raw JSON of the wire format, asserted field by field in tests
  body: any;
  /** `Date.now()` when the request arrived. */
  at: number;
}

export type FakeReply =
  /** A JSON answer. */
  | { status?: number; headers?: Record<string, string>; json: unknown }
  /** Raw bytes as the body (e.g. malformed JSON). */
  | { status?: number; headers?: Record<string, string>; raw: string }
  /** Accept the request and never answer (a hung connection). */
  | { hang: true }
  | ((request: RecordedRequest) => FakeReply);

export interface FakeMessageOptions {
  text?: string;
  toolUses?: { name: string; input: unknown; id?: string }[];
  model?: string;
  stopReason?: string;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    cache_creation_input_tokens?: number | null;
    cache_read_input_tokens?: number | null;
  };
}

let idCounter = 0;

/** A Messages API `message` body. */
export function message(o: FakeMessageOptions = {}): FakeReply {
  const content: unknown[] = [];
  if (o.text !== undefined) content.push({ type: "text", text: o.text });
  for (const t of o.toolUses ?? [])
    content.push({ type: "tool_use", id: t.id ?? `toolu_fake_${++idCounter}`, name: t.name, input: t.input });
  return {
    json: {
      id: `msg_fake_${++idCounter}`,
      type: "message",
      role: "assistant",
      model: o.model ?? "claude-haiku-4-5-20251001",
      content,
      stop_reason: o.stopReason ?? ((o.toolUses?.length ?? 0) > 0 ? "tool_use" : "end_turn"),
      stop_sequence: null,
      usage: {
        input_tokens: o.usage?.input_tokens ?? 10,
        output_tokens: o.usage?.output_tokens ?? 5,
        cache_creation_input_tokens: o.usage?.cache_creation_input_tokens ?? 0,
        cache_read_input_tokens: o.usage?.cache_read_input_tokens ?? 0,
      },
    },
  };
}

/** An API error body with the given status (429 rate_limit_error, 529 overloaded_error, 500 api_error...). */
export function apiError(status: number, headers: Record<string, string> = {}): FakeReply {
  const type =
    status === 429
      ? "rate_limit_error"
      : status === 529
        ? "overloaded_error"
        : status === 401
          ? "authentication_error"
          : status === 400
            ? "invalid_request_error"
            : "api_error";
  return { status, headers, json: { type: "error", error: { type, message: `fake ${type}` } } };
}

export interface FakeAnthropic {
  /** Base URL to give the SDK (ANTHROPIC_BASE_URL). */
  url: string;
  requests: RecordedRequest[];
  /** Adds replies for the next requests, in order. */
  reply(...replies: FakeReply[]): void;
  /** Replies not used yet. */
  pending(): number;
  close(): Promise<void>;
}

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const send = (res: ServerResponse, reply: FakeReply, rec: RecordedRequest): void => {
    if (typeof reply === "function") {
      send(res, reply(rec), rec);
      return;
    }
    if ("hang" in reply) return;
    const headers = {
      "content-type": "application/json",
      "request-id": `req_fake_${requests.length}`,
      ...reply.headers,
    };
    res.writeHead(reply.status ?? 200, headers);
    res.end("json" in reply ? JSON.stringify(reply.json) : reply.raw);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      const rec: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body,
        at: Date.now(),
      };
      requests.push(rec);
      if (req.method !== "POST" || !(req.url ?? "").startsWith("/v1/messages")) {
        return send(
          res,
          {
            status: 404,
            json: { type: "error", error: { type: "not_found_error", message: `no route ${req.url}` } },
          },
          rec,
        );
      }
      const next = queue.shift();
      if (!next) {
        return send(
          res,
          {
            status: 400,
            headers: { "x-should-retry": "false" },
            json: {
              type: "error",
              error: { type: "invalid_request_error", message: "fake server: no scripted reply left" },
            },
          },
          rec,
        );
      }
      send(res, next, rec);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (...r) => {
      queue.push(...r);
    },
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
