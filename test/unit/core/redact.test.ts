import { describe, expect, it } from "vitest";
import { MIN_SECRET_LENGTH, Redactor } from "../../../src/core/redact.ts";
import { cpuMs } from "../../support/cpu-time.ts";

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

  const ant = `sk-ant-api03-${"A".repeat(93)}AA`;
  const ghp = `ghp_${"a1B2".repeat(9)}`;
  const ghs = `ghs_${"Z9y8".repeat(9)}`;
  const pat = `github_pat_11ABCDEFG0${"x".repeat(12)}_${"Y".repeat(59)}`;

  it.each([
    [
      "JSON-escaped newline before an Anthropic key",
      JSON.stringify(`line1\n${ant}`),
      '"line1\\n[REDACTED:anthropic-key]"',
    ],
    [
      "JSON-escaped newline before a ghp token",
      JSON.stringify(`token:\n${ghp}`),
      '"token:\\n[REDACTED:github-token]"',
    ],
    ["JSON-escaped tab before a ghs token", JSON.stringify(`a\t${ghs}`), '"a\\t[REDACTED:github-token]"'],
    ["JSON \\u escape before a key", `"\\u000a${ant}"`, '"\\u000a[REDACTED:anthropic-key]"'],
    ["URL-encoded newline", encodeURIComponent(`x\n${ghs}`), "x%0A[REDACTED:github-token]"],
    ["lowercase URL escape", `x%0a${ant}`, "x%0a[REDACTED:anthropic-key]"],
    ["ANSI colour code", `\x1b[32m${ant}\x1b[0m`, "\x1b[32m[REDACTED:anthropic-key]\x1b[0m"],
    ["name glued with an underscore", `KEY_${ant}`, "KEY_[REDACTED:anthropic-key]"],
    ["name glued without a separator", `TOKEN${pat}`, "TOKEN[REDACTED:github-token]"],
    ["underscore after a ghp token", `${ghp}_suffix`, "[REDACTED:github-token]_suffix"],
    ["JSON \\u005f in a ghp token", JSON.stringify(ghp).replace("_", "\\u005f"), '"[REDACTED:github-token]"'],
    [
      "AWS key after an escaped newline",
      JSON.stringify("id:\nAKIAIOSFODNN7EXAMPLE"),
      '"id:\\n[REDACTED:aws-access-key]"',
    ],
    [
      "JWT after an escaped newline",
      JSON.stringify("t\neyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."),
      '"t\\n[REDACTED:jwt]"',
    ],
  ])("redacts a token glued to the text before it: %s", (_name, input, expected) => {
    expect(r.redact(input)).toBe(expected);
  });

  it("redacts GitHub App installation tokens (v1.<40 hex>) and x-access-token credentials", () => {
    const v1 = "v1.0123456789abcdef0123456789abcdef01234567";
    expect(r.redact(`https://x-access-token:${v1}@github.com/o/r`)).toBe(
      "https://x-access-token:[REDACTED:github-token]@github.com/o/r",
    );
    expect(r.redact(`token ${v1}.`)).toBe("token [REDACTED:github-token].");
    expect(r.redact("remote: x-access-token:s3cr3t-w1th-n0-shape@github.com")).toBe(
      "remote: x-access-token:[REDACTED:github-token]@github.com",
    );
    expect(r.redact(`https://x-access-token:${ghs}@github.com/o/r.git`)).toBe(
      "https://x-access-token:[REDACTED:github-token]@github.com/o/r.git",
    );
  });

  it("redacts the password of any scheme://user:password@host URL, keeping scheme, user and host", () => {
    expect(r.redact("git clone https://deploy:hunter2hunter2@gitlab.example.com/r.git")).toBe(
      "git clone https://deploy:[REDACTED:url-credential]@gitlab.example.com/r.git",
    );
    expect(r.redact('{"url":"postgres://app:p%40ss!w0rd@db:5432/x"}')).toBe(
      '{"url":"postgres://app:[REDACTED:url-credential]@db:5432/x"}',
    );
    // No password, or a colon in the path: nothing to redact.
    const plain = "https://user@example.com/a and https://example.com/p:q@r and mailto:a@b.c";
    expect(r.redact(plain)).toBe(plain);
  });

  it("redacts Authorization header values: basic, bearer and token, in any case and quoting", () => {
    const basic = Buffer.from(`x-access-token:${ghs}`).toString("base64");
    expect(r.redact(`http.extraheader AUTHORIZATION: basic ${basic}`)).toBe(
      "http.extraheader AUTHORIZATION: basic [REDACTED:github-token]",
    );
    expect(r.redact("Authorization: Basic dXNlcjpwYXNzd29yZA==")).toBe(
      "Authorization: Basic [REDACTED:authorization]",
    );
    expect(r.redact('curl -H "authorization: bearer opaque.Token-123" x')).toBe(
      'curl -H "authorization: bearer [REDACTED:authorization]" x',
    );
    expect(r.redact("Authorization: token 0123456789abcdef0123456789abcdef01234567")).toBe(
      "Authorization: token [REDACTED:authorization]",
    );
    expect(r.redact(JSON.stringify({ headers: { Authorization: "Bearer abc.def-ghi" } }))).toBe(
      '{"headers":{"Authorization":"Bearer [REDACTED:authorization]"}}',
    );
  });

  it("redacts base64 of x-access-token: wherever it appears (actions/checkout's extraheader)", () => {
    const b64 = Buffer.from("x-access-token:any-token-value").toString("base64");
    expect(b64.startsWith("eC1hY2Nlc3MtdG9rZW46")).toBe(true);
    expect(r.redact(`header=${b64};`)).toBe("header=[REDACTED:github-token];");
  });

  it("redacts PGP private key blocks and npm tokens", () => {
    const pgp =
      "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF...\n=abcd\n-----END PGP PRIVATE KEY BLOCK-----";
    expect(r.redact(`key:\n${pgp}\nafter`)).toBe("key:\n[REDACTED:private-key]\nafter");
    expect(r.redact("-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF (truncated")).toBe(
      "[REDACTED:private-key]",
    );
    expect(
      r.redact("-----BEGIN PGP PUBLIC KEY BLOCK-----\nmQINB\n-----END PGP PUBLIC KEY BLOCK-----"),
    ).toContain("mQINB");
    const npm = `npm_${"a".repeat(36)}`;
    expect(r.redact(`//registry.npmjs.org/:_authToken=${npm}`)).toBe(
      "//registry.npmjs.org/:_authToken=[REDACTED:npm-token]",
    );
  });

  it("redacts registered values in base64, alone and inside a longer base64 text at every alignment", () => {
    const secret = "Sup3r-Secret-Value!";
    const red = new Redactor([secret]);
    const alone = Buffer.from(secret).toString("base64");
    expect(red.redact(`v=${alone}`)).toBe("v=[REDACTED:secret]");
    for (const prefix of ["user:", "user1:", "user12:"]) {
      const b64 = Buffer.from(`${prefix}${secret}`).toString("base64");
      const out = red.redact(b64);
      expect(out).toContain("[REDACTED:secret]");
      // What is left cannot be decoded back to more than two bytes of the secret.
      const left = out.split("[REDACTED:secret]").join("");
      expect(left.length).toBeLessThanOrEqual(Buffer.from(prefix).toString("base64").length + 4);
    }
    const url = Buffer.from(`\u00ff\u00fe${secret}?>`, "latin1").toString("base64url");
    expect(red.redact(url)).toContain("[REDACTED:secret]");
  });

  it("redacts the same secrets in an object (redactDeep) and in its JSON text", () => {
    const red = new Redactor(["runtime-secret-42"]);
    const obj = {
      log: `step 1\n${ghp}\tdone`,
      env: { ANTHROPIC_API_KEY: ant, URL: "https://ci:runtime-secret-42@git.example.com/x" },
      lines: [`KEY_${ant}`, `TOKEN${pat}`],
    };
    const deep = red.redactDeep(obj);
    expect(deep).toEqual({
      log: "step 1\n[REDACTED:github-token]\tdone",
      env: {
        ANTHROPIC_API_KEY: "[REDACTED:anthropic-key]",
        URL: "https://ci:[REDACTED:secret]@git.example.com/x",
      },
      lines: ["KEY_[REDACTED:anthropic-key]", "TOKEN[REDACTED:github-token]"],
    });
    const text = red.redact(JSON.stringify(obj));
    expect(JSON.parse(text)).toEqual(deep);
  });

  it("leaves ordinary text alone", () => {
    const text = "ghp_ is a prefix; sk-ant is a word; eyJ alone; AKIA; -----BEGIN CERTIFICATE-----";
    expect(r.redact(text)).toBe(text);
    const words =
      "risk-ant-colony-optimization; multitask-ant-simulation-runner; laughs_ok; npm_install_script; " +
      "v1.2.3 and av1.0123456789abcdef0123456789abcdef01234567; AKIAIOSFODNN7EXAMPLEX; the Authorization header";
    expect(r.redact(words)).toBe(words);
  });
});

// Found by the second red team (test/integration/attacks/redteam2-cases.json): a 65,536-character report of
// `www.a.` took 49 s on the host, a 200 KB CI log of `w.a.` 125 s, all of it in three of these expressions
// (each failed start rescanned the rest of one long run). Every shape below took 25–95 s at 256 KiB before.
describe("Redactor: time linear in the text", () => {
  const size = 256 * 1024;
  const shapes: Array<[string, string]> = [
    ["scheme characters (url-credential)", "w.a."],
    ["scheme characters with dashes", "-AKIAAAAAAAAAAAAAAAAAAAAAAA"],
    ["x-access-token: repeated", "x-access-token:"],
    ["eyJ repeated in one base64url run (jwt)", "-eyJaaaaa"],
    ["eyJ after capitals", "AeyJaaaaa"],
    ["url heads", "a://b:"],
  ];
  it.each(shapes)("%s, 256 KiB, in well under 2 s", (_name, unit) => {
    const text = unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
    const { value: out, ms } = cpuMs(() => new Redactor(["a-registered-secret-value"]).redact(text));
    expect(ms).toBeLessThan(2_000);
    expect(out.length).toBeGreaterThan(0);
  });

  it("still redacts a JWT where the old expression did: alone, glued to a name, after an escape, as the payload", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl";
    expect(r.redact(`token=${jwt} rest`)).toBe("token=[REDACTED:jwt] rest");
    expect(r.redact(`TOKEN_${jwt}`)).toBe("TOKEN_[REDACTED:jwt]");
    expect(r.redact(`"line\\n${jwt}"`)).toBe(`"line\\n[REDACTED:jwt]"`);
    expect(r.redact(`%0A${jwt}`)).toBe("%0A[REDACTED:jwt]");
    // The first run has no eyJ that may start a secret: the token that starts at the payload is still found.
    expect(r.redact("abc.eyJAAAAAA.eyJBBBBBB.CCC")).toBe("abc.[REDACTED:jwt]");
    // The tail of an ordinary word is not a secret's start.
    expect(r.redact("xeyJAAAAAA.eyJBBBBBB.c")).toBe("xeyJAAAAAA.eyJBBBBBB.c");
    // Too short after eyJ.
    expect(r.redact("eyJab.eyJBBBBBB.c")).toBe("eyJab.eyJBBBBBB.c");
  });

  it("still redacts URL credentials after a long run of scheme characters, and keeps the scheme", () => {
    const prefix = "w.a.".repeat(40);
    expect(r.redact(`${prefix}https://user:hunter2secret@example.com/x`)).toBe(
      `${prefix}https://user:[REDACTED:url-credential]@example.com/x`,
    );
    expect(r.redact("git clone https://x-access-token:ghs_short@github.com/o/r")).toBe(
      "git clone https://x-access-token:[REDACTED:github-token]@github.com/o/r",
    );
  });
});
