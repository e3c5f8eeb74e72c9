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
  // Review rv18: the members were still the process's own keys and descriptors, so `Object.keys(process)` or
  // `process.hasOwnProperty("send")` told a fix it ran under the runner, and the neutral run could not catch it.
  it("hides them from own-key and descriptor reads as well", async () => {
    const code = `const send = process.send.bind(process);\n${IPC_HIDE}\nsend({ keys: Object.keys(process).filter((k) => ["send", "channel", "_channel", "connected", "disconnect"].includes(k)), names: Object.getOwnPropertyNames(process).filter((k) => ["send", "channel", "_channel", "connected", "disconnect"].includes(k)), own: process.hasOwnProperty("send") || Object.prototype.hasOwnProperty.call(process, "channel"), descriptor: Object.getOwnPropertyDescriptor(process, "connected") === undefined, pid: Object.keys(process).includes("pid") }, () => process.exit(0));`;
    const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    const message = await new Promise((resolve, reject) => {
      child.on("message", resolve);
      child.on("exit", (c) => reject(new Error(`exited ${c} without a message`)));
    });
    expect(message).toEqual({ keys: [], names: [], own: false, descriptor: true, pid: true });
  });
});
