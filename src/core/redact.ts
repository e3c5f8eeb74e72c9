/**
 * The redactor every output goes through (trace, comments, PR bodies, logs, artifacts).
 * Known secret shapes are always removed; values Retrace was given at run time (its own tokens and keys)
 * are registered on the instance and removed wherever they appear, also in their JSON-, URL- and
 * base64-encoded forms.
 */

/** A secret shape: a name (shown in the placeholder), a global regular expression and what replaces a match. */
interface SecretPattern {
  name: string;
  pattern: RegExp;
  /** Replacement (may use `$<group>`); default: the whole match becomes `[REDACTED:<name>]`. */
  replace?: string;
}

/**
 * Where a secret may start. `\b` is not enough: a token glued to a word character is missed in JSON-escaped
 * text (`"line1\nghp_…"`: the `n` of `\n`), URL-encoded text (`%0Aghs_…`), ANSI-coloured logs (`\x1b[32mghp_…`)
 * and names (`KEY_sk-ant-…`, `TOKENgithub_pat_…`). So a secret may follow anything but a lowercase letter or
 * a digit (which would make it the tail of an ordinary word, like "risk-ant-…"), or follow one of those escapes.
 */
const START = String.raw`(?<=^|[^a-z0-9]|\\[nrtbfv0]|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}|%[0-9A-Fa-f]{2}|\[[0-9;]*m)`;
/** A secret ends where its alphabet ends. */
const END = "(?![A-Za-z0-9])";
/** Nothing already redacted is redacted twice (the header and URL patterns would otherwise eat a placeholder). */
const NOT_REDACTED = String.raw`(?!\[REDACTED:)`;

const re = (source: string, flags = "g") => new RegExp(source, flags);

const PATTERNS: readonly SecretPattern[] = [
  // PEM and PGP private keys; an unterminated block (a truncated log) is redacted to the end of the text.
  {
    name: "private-key",
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*$)/g,
  },
  // GitHub's prefixes are distinctive enough to need no start boundary at all.
  { name: "github-token", pattern: /github_pat_[A-Za-z0-9_]{22,255}/g },
  // The underscore may also be JSON's `\u005f`.
  { name: "github-token", pattern: re(String.raw`gh[pousr](?:_|\\u005[fF])[A-Za-z0-9]{30,255}${END}`) },
  // GitHub App installation tokens of the older format: `v1.` and 40 hex digits.
  { name: "github-token", pattern: re(`${START}v1\\.[0-9a-f]{40}${END}`) },
  // base64 of "x-access-token:" (15 bytes, so always these 20 characters): actions/checkout's extraheader.
  { name: "github-token", pattern: /eC1hY2Nlc3MtdG9rZW46[A-Za-z0-9+/]*={0,2}/g },
  { name: "anthropic-key", pattern: re(`${START}sk-ant-[A-Za-z0-9_-]{16,}`) },
  { name: "npm-token", pattern: re(`npm_[A-Za-z0-9]{36}${END}`) },
  { name: "aws-access-key", pattern: re(`${START}(?:AKIA|ASIA)[A-Z0-9]{16}${END}`) },
  // `Authorization: Basic …` / `Bearer …` / `token …` header values (any case, also `-H "…"` and JSON).
  {
    name: "authorization",
    pattern: re(
      String.raw`(?<head>\bauthorization\\?["']?\s*[:=]\s*\\?["']?(?:basic|bearer|token)\s+)` +
        String.raw`${NOT_REDACTED}[^\s"',;\\]+`,
      "gi",
    ),
    replace: "$<head>[REDACTED:authorization]",
  },
  // Credentials in a URL: `x-access-token:<token>@` anywhere, and `scheme://user:password@host` (the scheme,
  // user and host stay, so the log still says where it went).
  //
  // Both are linear in the text: a search that fails at one start must not rescan what the next start scans.
  // A token stops at `:` and `/`, so one `x-access-token:` scan never runs over the next one; a scheme is at most
  // 32 characters and needs no word boundary, so a long run of scheme characters (`w.a.w.a.…`, which a report
  // or a test's output can hold) is tried from at most 32 starts per `://` instead of from every word in it.
  // The scheme itself is kept either way, so where the match starts changes nothing in the output.
  {
    name: "github-token",
    pattern: re(`(?<head>x-access-token:)${NOT_REDACTED}[^\\s@"'<>:/]+(?=@)`),
    replace: "$<head>[REDACTED:github-token]",
  },
  {
    name: "url-credential",
    pattern: re(`(?<head>[A-Za-z][A-Za-z0-9+.-]{0,31}://[^\\s:/@"'<>]+:)${NOT_REDACTED}[^\\s@/"'<>]+(?=@)`),
    replace: "$<head>[REDACTED:url-credential]",
  },
];

/**
 * JWT: base64url JSON header ("eyJ" = `{"`), payload, optional signature (alg "none" has none), starting where a
 * secret may start. Not one regular expression: `START eyJ…{5,}\.` tried at every `eyJ` of one long run of
 * base64url characters (`-eyJaaaa-eyJaaaa…`) rescans the rest of the run each time, quadratic in the text. Every
 * start inside one run reaches the same end, so the run is scanned once: a run (where none precedes it) followed
 * by the rest of a token is a candidate, and the token starts at the first `eyJ` in it that may start a secret
 * with at least 5 characters after it. A run with no such `eyJ` is skipped up to its dot (the payload may itself
 * start a token).
 */
const JWT_CANDIDATE = /(?<![A-Za-z0-9_-])(?<first>[A-Za-z0-9_-]+)\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
const JWT_START = new RegExp(`${START}eyJ`, "y");

function redactJwts(text: string): string {
  let out = "";
  let last = 0;
  JWT_CANDIDATE.lastIndex = 0;
  for (let m = JWT_CANDIDATE.exec(text); m !== null; m = JWT_CANDIDATE.exec(text)) {
    const first = m.groups?.["first"] ?? "";
    let start = -1;
    for (
      let i = first.indexOf("eyJ");
      i !== -1 && first.length - (i + 3) >= 5;
      i = first.indexOf("eyJ", i + 1)
    ) {
      JWT_START.lastIndex = m.index + i;
      if (JWT_START.test(text)) {
        start = m.index + i;
        break;
      }
    }
    if (start === -1) {
      JWT_CANDIDATE.lastIndex = m.index + first.length + 1;
      continue;
    }
    out += `${text.slice(last, start)}[REDACTED:jwt]`;
    last = m.index + m[0].length;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Registered values shorter than this are ignored: redacting "a" or "42" everywhere would destroy the text. */
export const MIN_SECRET_LENGTH = 6;

/**
 * The parts of base64 that encode `value` wherever it sits in a longer base64 text: for each of the three
 * byte alignments, the characters that depend on `value` alone (the edge characters that mix with the
 * neighbouring bytes are left out). The same approach as the GitHub Actions runner's secret masker.
 */
function base64Forms(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const full = Math.floor(padded.length / 3) * 4;
    let binary = "";
    for (const b of padded) binary += String.fromCharCode(b);
    const encoded = btoa(binary).slice(0, full);
    // The characters that carry prefix bits: none, 2 (one prefix byte) or 3 (two prefix bytes).
    const form = encoded.slice([0, 2, 3][offset]);
    if (form.length >= MIN_SECRET_LENGTH) {
      forms.push(form);
      const url = form.replace(/\+/g, "-").replace(/\//g, "_");
      if (url !== form) forms.push(url);
    }
  }
  return forms;
}

export class Redactor {
  private secrets = new Set<string>();

  constructor(secrets: Iterable<string | undefined | null> = []) {
    for (const s of secrets) if (s) this.registerSecret(s);
  }

  /**
   * Registers a value known only at run time (a token, a key). Returns false when it is too short to
   * redact safely (fewer than MIN_SECRET_LENGTH characters after trimming). Its JSON-escaped, URL-encoded
   * and base64 forms (standalone, and inside a longer base64 text such as `user:token`) are registered too.
   */
  registerSecret(value: string): boolean {
    const v = value.trim();
    if (v.length < MIN_SECRET_LENGTH) return false;
    this.secrets.add(v);
    const json = JSON.stringify(v).slice(1, -1);
    if (json !== v) this.secrets.add(json);
    const url = encodeURIComponent(v);
    if (url !== v) this.secrets.add(url);
    let binary = "";
    for (const b of new TextEncoder().encode(v)) binary += String.fromCharCode(b);
    this.secrets.add(btoa(binary));
    for (const form of base64Forms(v)) this.secrets.add(form);
    return true;
  }

  /** Text with every known secret replaced by `[REDACTED:<kind>]`. */
  redact(text: string): string {
    let out = text;
    // Registered values first, longest first, so a value containing another is removed whole.
    for (const s of [...this.secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(s)) out = out.split(s).join("[REDACTED:secret]");
    }
    for (const { name, pattern, replace } of PATTERNS) {
      pattern.lastIndex = 0;
      out = out.replace(pattern, replace ?? `[REDACTED:${name}]`);
      // JWTs where the expression stood in the list (after AWS keys, before authorization headers).
      if (name === "aws-access-key") out = redactJwts(out);
    }
    return out;
  }

  /** A deep copy of `value` with every string (values and object keys) redacted. Cycles become "[Circular]". */
  redactDeep<T>(value: T): T {
    const seen = new WeakSet<object>();
    const walk = (v: unknown): unknown => {
      if (typeof v === "string") return this.redact(v);
      if (v === null || typeof v !== "object") return v;
      if (v instanceof Uint8Array) return v;
      if (seen.has(v)) return "[Circular]";
      seen.add(v);
      let out: unknown;
      if (Array.isArray(v)) out = v.map(walk);
      else if (v instanceof Date) out = new Date(v.getTime());
      else if (v instanceof Error) out = { name: v.name, message: this.redact(v.message) };
      else {
        const o: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) o[this.redact(k)] = walk(x);
        out = o;
      }
      seen.delete(v);
      return out;
    };
    return walk(value) as T;
  }
}
