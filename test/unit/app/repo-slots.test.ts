/** Per-repository concurrency (src/app/repo-slots.ts). */
import { describe, expect, it } from "vitest";
import { RepoSlots } from "../../../src/app/repo-slots.ts";

describe("RepoSlots", () => {
  it("admits up to the limit per repository, independently of other repositories", () => {
    const s = new RepoSlots();
    expect(s.tryAcquire("a/x", "j1", 2)).toBe(true);
    expect(s.tryAcquire("a/x", "j2", 2)).toBe(true);
    expect(s.tryAcquire("a/x", "j3", 2)).toBe(false);
    expect(s.tryAcquire("b/y", "k1", 1)).toBe(true);
    expect(s.runningIn("a/x")).toBe(2);
    expect(s.runningIn("b/y")).toBe(1);
  });

  it("hands a freed slot to the oldest waiting job, which a newcomer cannot overtake", () => {
    const s = new RepoSlots();
    expect(s.tryAcquire("a/x", "j1", 1)).toBe(true);
    expect(s.tryAcquire("a/x", "j2", 1)).toBe(false);
    s.defer("a/x", "j2");
    expect(s.tryAcquire("a/x", "j3", 1)).toBe(false);
    s.defer("a/x", "j3");
    expect(s.waitingIn("a/x")).toBe(2);
    expect(s.release("a/x")).toBe("j2");
    // A new job arriving now must wait: j2 holds the handed-over slot.
    expect(s.tryAcquire("a/x", "j4", 1)).toBe(false);
    expect(s.tryAcquire("a/x", "j2", 1)).toBe(true);
    expect(s.release("a/x")).toBe("j3");
    expect(s.tryAcquire("a/x", "j3", 1)).toBe(true);
    expect(s.release("a/x")).toBeNull();
    expect(s.runningIn("a/x")).toBe(0);
    expect(s.tryAcquire("a/x", "j4", 1)).toBe(true);
  });

  it("a job that gives up its handed-over slot passes it on", () => {
    const s = new RepoSlots();
    s.tryAcquire("a/x", "j1", 1);
    s.defer("a/x", "j2");
    s.defer("a/x", "j3");
    expect(s.release("a/x")).toBe("j2");
    expect(s.forfeit("a/x", "j2")).toBe("j3");
    expect(s.forfeit("a/x", "j1")).toBeNull(); // j1 held no handed-over slot
    expect(s.tryAcquire("a/x", "j3", 1)).toBe(true);
    expect(s.release("a/x")).toBeNull();
    expect(s.runningIn("a/x")).toBe(0);
  });

  it("deferring the same job twice queues it once", () => {
    const s = new RepoSlots();
    s.tryAcquire("a/x", "j1", 1);
    s.defer("a/x", "j2");
    s.defer("a/x", "j2");
    expect(s.waitingIn("a/x")).toBe(1);
  });
});
