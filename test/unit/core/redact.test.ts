import { describe, expect, it } from "vitest";
import { MIN_SECRET_LENGTH, Redactor } from "../../../src/core/redact.ts";

const r = new Redactor();

describe("Redactor", () => {
  it.each([
    ["ghp", "ghp_abcdefghijklmnopqrstuvwxyzABCDEF0123"],
    ["gho", "gho_abcdefghijklmnopqrstuvwxyzABCDEF0123"],
    ["ghu", "ghu_abcdefghijklmnopqrstuvwxyzABCDEF0123"],
    ["ghs", "ghs_abcdefghijklmnopqrstuvwxyzABCDEF0123"],
    ["ghr", "ghr_abcdefghijklmnopqrstuvwxyzABCDEF0123"],
    [
      "github_pat",
      "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012345",
    ],
  ])("redacts GitHub tokens (%s)", (_name, token) => {
    expect(r.redact(`token=${token} rest`)).toBe("token=[REDACTED:github-token] rest");
  });

  it("redacts Anthropic keys", () => {
    expect(r.redact("ANTHROPIC_API_KEY=sk-ant-api03-AbCdEf_GhIjKlMnOpQrStUvWx-yz0123456789")).toBe(
      "ANTHROPIC_API_KEY=[REDACTED:anthropic-key]",
    );
  });

  it("redacts AWS access key ids (AKIA and ASIA)", () => {
    expect(r.redact("AKIAIOSFODNN7EXAMPLE and ASIAY34FZKBOKMUTVV7A")).toBe(
      "[REDACTED:aws-access-key] and [REDACTED:aws-access-key]",
    );
    expect(r.redact("AKIAshort")).toBe("AKIAshort");
  });

  it("redacts private key blocks, also a truncated one", () => {
    const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----";
    expect(r.redact(`key:\n${pem}\ndone`)).toBe("key:\n[REDACTED:private-key]\ndone");
    expect(r.redact("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n(log truncated)")).toBe(
      "[REDACTED:private-key]",
    );
    expect(r.redact("-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----")).toContain("MIIB");
  });

  it("redacts JWTs, including unsigned ones", () => {
    const jwt =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
    expect(r.redact(`Authorization: Bearer ${jwt}`)).toBe("Authorization: Bearer [REDACTED:jwt]");
    expect(r.redact("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.")).toBe("[REDACTED:jwt]");
  });

  it("redacts values registered at run time, with their JSON- and URL-escaped forms", () => {
    const red = new Redactor();
    expect(red.registerSecret('p@ss"word/123')).toBe(true);
    expect(red.redact('pw p@ss"word/123 json "p@ss\\"word/123" url p%40ss%22word%2F123')).toBe(
      'pw [REDACTED:secret] json "[REDACTED:secret]" url [REDACTED:secret]',
    );
    expect(red.registerSecret("abc")).toBe(false);
    expect(MIN_SECRET_LENGTH).toBe(6);
    expect(red.redact("abc")).toBe("abc");
  });

  it("redacts the longer registered value whole when one contains another", () => {
    const red = new Redactor(["secret-one", "secret-one-and-more"]);
    expect(red.redact("x secret-one-and-more y secret-one")).toBe("x [REDACTED:secret] y [REDACTED:secret]");
  });

  it("deep-redacts objects: values, keys, arrays, errors, cycles", () => {
    const red = new Redactor(["hunter2hunter2"]);
    const obj: Record<string, unknown> = {
      a: "hunter2hunter2",
      nested: [{ t: "ghp_abcdefghijklmnopqrstuvwxyzABCDEF0123" }, 42, null, true],
      hunter2hunter2: "as key",
      err: new Error("failed with hunter2hunter2"),
    };
    obj.self = obj;
    const out = red.redactDeep(obj) as Record<string, unknown>;
    expect(out).toEqual({
      a: "[REDACTED:secret]",
      nested: [{ t: "[REDACTED:github-token]" }, 42, null, true],
      "[REDACTED:secret]": "as key",
      err: { name: "Error", message: "failed with [REDACTED:secret]" },
      self: "[Circular]",
    });
    expect(obj.a).toBe("hunter2hunter2");
  });

  it("leaves ordinary text alone", () => {
    const text = "ghp_ is a prefix; sk-ant is a word; eyJ alone; AKIA; -----BEGIN CERTIFICATE-----";
    expect(r.redact(text)).toBe(text);
  });
});
