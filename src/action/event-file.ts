/**
 * The Action's event file (GITHUB_EVENT_PATH), read as untrusted input: a regular file only (a FIFO or a
 * device is refused before it is opened: opening or reading one could block or never end), at most
 * `MAX_EVENT_BYTES`, and nested no deeper than `MAX_PAYLOAD_DEPTH` before it is parsed. A missing file is an
 * empty event, as before.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import { ConfigError } from "../core/errors.ts";
import { jsonDepth, MAX_PAYLOAD_DEPTH } from "../core/json-depth.ts";

/** GitHub caps a webhook payload at 25 MB; the event file is that payload. */
export const MAX_EVENT_BYTES = 25 * 1024 * 1024;

export function readEventFile(file: string | undefined): unknown {
  if (!file) return {};
  const refuse = (why: string) =>
    new ConfigError(
      `the event file GITHUB_EVENT_PATH=${file} ${why}`,
      "run Retrace as a step of a GitHub Actions workflow, which writes the event file",
    );
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(file);
  } catch {
    return {};
  }
  if (!st.isFile()) throw refuse("is not a regular file");
  if (st.size > MAX_EVENT_BYTES)
    throw refuse(`is ${st.size} bytes, more than a GitHub event holds (${MAX_EVENT_BYTES})`);
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  let text: string;
  try {
    // Checked again on what was opened: the name may have been swapped for a FIFO or a device since.
    const opened = fstatSync(fd);
    if (!opened.isFile()) throw refuse("is not a regular file");
    const buf = Buffer.alloc(Math.min(opened.size, MAX_EVENT_BYTES) + 1);
    let n = 0;
    for (let got = 1; got > 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, n);
    if (n > MAX_EVENT_BYTES) throw refuse(`holds more than ${MAX_EVENT_BYTES} bytes`);
    text = buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
  if (jsonDepth(text, MAX_PAYLOAD_DEPTH) > MAX_PAYLOAD_DEPTH)
    throw refuse(`nests deeper than ${MAX_PAYLOAD_DEPTH} levels, deeper than any GitHub event`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw refuse("is not JSON");
  }
}
