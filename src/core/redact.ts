/**
 * The redactor every output goes through (trace, comments, PR bodies, logs, artifacts).
 * Known secret shapes are always removed; values Retrace was given at run time (its own tokens and keys)
 * are registered on the instance and removed wherever they appear, also in their JSON- and URL-escaped forms.
 */

/** A secret shape: a name (shown in the placeholder) and a global regular expression. */
interface SecretPattern {
  name: string;
  pattern: RegExp;
}

const PATTERNS: readonly SecretPattern[] = [
  // PEM private keys; an unterminated block (a truncated log) is redacted to the end of the text.
  {
    name: "private-key",
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----|[\s\S]*$)/g,
  },
  { name: "github-token", pattern: /\bgithub_pat_[A-Za-z0-9_]{22,255}/g },
  { name: "github-token", pattern: /\bgh[pousr]_[A-Za-z0-9]{30,255}\b/g },
  { name: "anthropic-key", pattern: /\bsk-ant-[A-Za-z0-9_-]{16,}/g },
  { name: "aws-access-key", pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g },
  // JWT: base64url JSON header ("eyJ" = `{"`), payload, optional signature (alg "none" has none).
  { name: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g },
];

/** Registered values shorter than this are ignored: redacting "a" or "42" everywhere would destroy the text. */
export const MIN_SECRET_LENGTH = 6;

export class Redactor {
  private secrets = new Set<string>();

  constructor(secrets: Iterable<string | undefined | null> = []) {
    for (const s of secrets) if (s) this.registerSecret(s);
  }

  /**
   * Registers a value known only at run time (a token, a key). Returns false when it is too short to
   * redact safely (fewer than MIN_SECRET_LENGTH characters after trimming).
   */
  registerSecret(value: string): boolean {
    const v = value.trim();
    if (v.length < MIN_SECRET_LENGTH) return false;
    this.secrets.add(v);
    const json = JSON.stringify(v).slice(1, -1);
    if (json !== v) this.secrets.add(json);
    const url = encodeURIComponent(v);
    if (url !== v) this.secrets.add(url);
    return true;
  }

  /** Text with every known secret replaced by `[REDACTED:<kind>]`. */
  redact(text: string): string {
    let out = text;
    // Registered values first, longest first, so a value containing another is removed whole.
    for (const s of [...this.secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(s)) out = out.split(s).join("[REDACTED:secret]");
    }
    for (const { name, pattern } of PATTERNS) {
      pattern.lastIndex = 0;
      out = out.replace(pattern, `[REDACTED:${name}]`);
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
