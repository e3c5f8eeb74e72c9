/**
 * The vitest neutral run's scrub (f13l): the code under test sees a `process` without an IPC channel, while the
 * runner's own `send`, bound before the scrub ran, still reaches the parent (deleting the members hung the worker).
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { IPC_HIDE } from "../../../src/fix/tripwire.ts";

describe("IPC_HIDE", () => {
  it("hides send/channel/connected from later code; a send bound before still talks to the parent", async () => {
    const code = `const send = process.send.bind(process);\n${IPC_HIDE}\nsend({ send: typeof process.send, inProcess: "send" in process, connected: process.connected, channel: process.channel, cwd: process.cwd() === require("node:process").cwd() }, () => process.exit(0));`;
    const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    const message = await new Promise((resolve, reject) => {
      child.on("message", resolve);
      child.on("exit", (c) => reject(new Error(`exited ${c} without a message`)));
    });
    expect(message).toEqual({ send: "undefined", inProcess: false, connected: undefined, cwd: true });
  });
});
