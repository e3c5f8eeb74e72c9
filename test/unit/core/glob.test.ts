import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { GlobError, globMatcher } from "../../../src/core/glob.ts";
import {
  DEFAULT_CI_GLOBS,
  DEFAULT_LOCKFILE_GLOBS,
  DEFAULT_SECRET_GLOBS,
  DEFAULT_VCS_GLOBS,
} from "../../../src/policy/config.ts";

const GLOBS = [
  ...DEFAULT_CI_GLOBS,
  ...DEFAULT_LOCKFILE_GLOBS,
  ...DEFAULT_SECRET_GLOBS,
  ...DEFAULT_VCS_GLOBS,
  "packages/*",
  "packages/**",
  "apps/*/",
  "./libs/*",
  "**/*.{test,spec}.{js,ts,jsx,tsx,mjs,cjs}",
  "**/__tests__/**",
  "test/**/*.py",
  "tests/**",
  "**/test_*.py",
  "**/*_test.go",
  "src/[a-c]*.ts",
  "file?.txt",
  "pkg-{1..3}",
  "CI / test*",
  "*",
  "**",
  "a/**/b",
  "!packages/private",
  "*.test.*",
  "{a,b/{c,d}}/x",
];
const PATHS = [
  ".github/workflows/ci.yml",
  "GITHUB/x",
  ".gitlab-ci.yml",
  "Jenkinsfile",
  "Jenkinsfile.prod",
  "sub/Jenkinsfile",
  "package-lock.json",
  "a/b/package-lock.json",
  "yarn.lock",
  ".env",
  "config/.env",
  "config/.env.local",
  "prod.env",
  "keys/server.pem",
  "home/.ssh/id_rsa",
  "id_rsa.pub",
  ".npmrc",
  "src/.npmrc",
  "secrets.json",
  "conf/my-secret-file.yaml",
  "credentials.txt",
  ".gitmodules",
  "x/.gitattributes",
  ".git/config",
  "a/.git/hooks/pre-commit",
  "packages/a",
  "packages/a/b",
  "packages/.hidden",
  "apps/web",
  "libs/x",
  "src/a.test.ts",
  "src/deep/x.spec.jsx",
  "src/__tests__/a.js",
  "test/unit/a.py",
  "tests/a/b/c.py",
  "pkg/test_x.py",
  "pkg/x_test.go",
  "src/alpha.ts",
  "src/delta.ts",
  "file1.txt",
  "file10.txt",
  "pkg-2",
  "pkg-4",
  "CI / test (ubuntu)",
  "build (ubuntu-22.04)",
  "README.md",
  ".hidden",
  "a/b",
  "a/x/y/b",
  "a/.x/b",
  "packages/private",
  "c/x",
  "b/d/x",
  "a.test.js",
  "./packages/a",
  "",
];

describe("globMatcher", () => {
  for (const options of [{}, { dot: true, nocase: true }, { nocase: true }, { dot: false }]) {
    it(`agrees with picomatch on ordinary globs and paths (${JSON.stringify(options)})`, () => {
      const diffs: string[] = [];
      for (const g of GLOBS) {
        const theirs = picomatch([g.replace(/\/+$/, "")], options);
        const mine = globMatcher([g.replace(/\/+$/, "")], options);
        for (const p of PATHS) {
          if (mine(p) !== theirs(p)) diffs.push(`${g} ${JSON.stringify(p)}: ours ${mine(p)}`);
        }
      }
      expect(diffs).toEqual([]);
    });
  }

  it("matches a many-star glob against a long name in linear time", () => {
    const t = process.hrtime.bigint();
    const m = globMatcher(`${"*a".repeat(40)}*c`);
    expect(m("a".repeat(100_000))).toBe(false);
    expect(m(`${"a".repeat(1000)}c`)).toBe(true);
    expect(Number(process.hrtime.bigint() - t) / 1e6).toBeLessThan(2_000);
  });

  it("reads parentheses literally and `[!a]` as a negated class (where picomatch does not)", () => {
    expect(globMatcher("build (ubuntu-*)")("build (ubuntu-22.04)")).toBe(true);
    expect(globMatcher("src/[!a]*.ts")("src/delta.ts")).toBe(true);
    expect(globMatcher("src/[!a]*.ts")("src/alpha.ts")).toBe(false);
  });

  it("refuses what it does not read, naming the glob", () => {
    expect(() => globMatcher(["+(a|b)"])).toThrow(GlobError);
    expect(() => globMatcher(["x/@(a|b)"])).toThrow(/glob "x\/@\(a\|b\)"/);
    expect(() => globMatcher(["{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}"])).toThrow(/more than 256/);
    expect(() => globMatcher(["{1..100000}"])).toThrow(GlobError);
  });
});
