/**
 * The fetch the Anthropic adapter gives its SDK client: an answer's body is bounded in bytes and in time. The SDK
 * reads a whole body into memory (a 300 MiB answer took the host to 1.6 GiB, 300 MiB of whitespace after a valid
 * message to 3.9 GiB), and its timeout ends at the response headers (a body that never ends waited forever). Past
 * either bound the body errors with one of the errors below, which the adapter names.
 */

/** The answer's body passed the byte cap. */
export class AnswerTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer passed ${Math.round(maxBytes / 2 ** 20)} MiB`);
  }
}

/** The answer's body did not end within the request's time. */
export class AnswerTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the answer's body did not end within ${timeoutMs} ms`);
  }
}

/** Finds one of the errors above in `e` or its causes (the SDK and fetch wrap what a body's stream errors with). */
export function boundedFetchError(e: unknown): AnswerTooLargeError | AnswerTimeoutError | null {
  for (let x: unknown = e, i = 0; x !== null && typeof x === "object" && i < 8; i++) {
    if (x instanceof AnswerTooLargeError || x instanceof AnswerTimeoutError) return x;
    x = (x as { cause?: unknown }).cause;
  }
  return null;
}

export function boundedFetch(
  maxBytes: number,
  timeoutMs: number,
  base: typeof fetch = globalThis.fetch,
): typeof fetch {
  return async (input, init) => {
    const started = Date.now();
    const res = await base(input, init);
    const declared = Number(res.headers.get("content-length") ?? Number.NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body?.cancel().catch(() => {});
      throw new AnswerTooLargeError(maxBytes);
    }
    if (!res.body) return res;
    const reader = res.body.getReader();
    let seen = 0;
    let ended = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const end = (controller: ReadableStreamDefaultController<Uint8Array>, error?: Error) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      if (error) {
        controller.error(error);
        reader.cancel(error).catch(() => {});
      } else controller.close();
    };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        timer = setTimeout(
          () => end(controller, new AnswerTimeoutError(timeoutMs)),
          Math.max(0, timeoutMs - (Date.now() - started)),
        );
        timer.unref?.();
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (ended) return;
          if (done) return end(controller);
          seen += value.byteLength;
          if (seen > maxBytes) return end(controller, new AnswerTooLargeError(maxBytes));
          controller.enqueue(value);
        } catch (e) {
          end(controller, e as Error);
        }
      },
      cancel(reason) {
        ended = true;
        clearTimeout(timer);
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
