#!/usr/bin/env bash
# Regenerates the raw runner outputs under test/fixtures/logs/ by running REAL test runners,
# compilers and linters on small failing projects written into a scratch directory.
#
#   scripts/make-log-fixtures.sh [scratch-dir]     (default /tmp/logfix)
#   RETRACE_LOG_FIXTURES_OUT=/tmp/out scripts/make-log-fixtures.sh   writes elsewhere (to check reproducibility)
#
# Needs: python3 + pytest, go, cargo, node + npm (jest, vitest, mocha, typescript, eslint are
# installed with npm into <scratch>/js, outside the repository). The expected.json files next to
# the logs are written by hand and are never overwritten here.
# A few fixtures cannot come from a runner on this machine (Maven Surefire, cargo-nextest, npm 6-9
# `npm ERR!` output); those are hand-written from the tools' documented formats and live in
# *-handwritten.* files that this script leaves alone.
set -u
cd "$(dirname "$0")/.."
OUT="${RETRACE_LOG_FIXTURES_OUT:-$PWD/test/fixtures/logs}"
S="${1:-/tmp/logfix}"
mkdir -p "$S" "$OUT"

# Runner paths in the output become the scratch dir; fixtures must not depend on it, so every
# capture rewrites "$S/<project>" to a GitHub runner checkout path, as a downloaded log has it.
RUNNER=/home/runner/work/calc/calc
capture() { # capture <out-file> <project-dir> <command...>: stdout+stderr, exit code appended
  local out="$1" dir="$2"
  shift 2
  mkdir -p "$(dirname "$out")"
  (cd "$dir" && env -u FORCE_COLOR NO_COLOR=1 CI=true "$@" >"$out.tmp" 2>&1; echo "exit=$?" >"$out.rc")
  sed -e "s#$dir#$RUNNER#g" "$out.tmp" >"$out"
  rm -f "$out.tmp" "$out.rc"
}

# ---------------------------------------------------------------- python (pytest, unittest, import)
P="$S/py"
rm -rf "$P" && mkdir -p "$P/calc" "$P/tests"
cat >"$P/calc/__init__.py" <<'EOF'
def add(a, b):
    return a + b


def div(a, b):
    return a // b


def mean(xs):
    return sum(xs) / len(xs) + 1
EOF
cat >"$P/tests/__init__.py" <<'EOF'
EOF
cat >"$P/tests/test_calc.py" <<'EOF'
import pytest

from calc import add, div, mean


def test_add():
    assert add(2, 2) == 4


@pytest.mark.parametrize("a,b,expected", [(1, 2, 3), (7, 2, 3.5), (-4, 2, -2)])
def test_div(a, b, expected):
    assert div(a, b) == expected


def test_mean():
    assert mean([1, 2, 3]) == 2


@pytest.fixture
def db():
    raise ConnectionError("database not reachable at localhost:5432")


def test_uses_db(db):
    assert db


class TestDivZero:
    def test_zero(self):
        with pytest.raises(ValueError):
            div(1, 0)

    @pytest.mark.skip(reason="not implemented")
    def test_later(self):
        pass
EOF
cat >"$P/tests/test_broken.py" <<'EOF'
from calc import multiply


def test_multiply():
    assert multiply(2, 3) == 6
EOF
capture "$OUT/pytest/run.log" "$P" python3 -m pytest -rA -p no:cacheprovider --continue-on-collection-errors tests
capture "$OUT/pytest/collection-error.log" "$P" python3 -m pytest -p no:cacheprovider tests
capture "$OUT/pytest/verbose.log" "$P" python3 -m pytest -v -p no:cacheprovider tests/test_calc.py
(cd "$P" && python3 -m pytest -q -p no:cacheprovider --continue-on-collection-errors --junitxml=report.xml tests >/dev/null 2>&1)
mkdir -p "$OUT/junit" && sed -e "s#$P#$RUNNER#g" "$P/report.xml" >"$OUT/junit/pytest.xml"

U="$S/unittest"
rm -rf "$U" && mkdir -p "$U"
cp "$P/calc/__init__.py" "$U/calc.py"
cat >"$U/test_calc.py" <<'EOF'
import unittest

from calc import add, div, mean


class CalcTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 2), 4)

    def test_div(self):
        self.assertEqual(div(7, 2), 3.5)

    def test_mean(self):
        self.assertAlmostEqual(mean([1, 2, 3]), 2)

    def test_zero(self):
        self.assertEqual(div(1, 0), 0)

    @unittest.skip("later")
    def test_later(self):
        pass


if __name__ == "__main__":
    unittest.main()
EOF
capture "$OUT/unittest/run.log" "$U" python3 -m unittest -v test_calc

I="$S/pyimport"
rm -rf "$I" && mkdir -p "$I/app"
cat >"$I/app/__init__.py" <<'EOF'
EOF
cat >"$I/app/settings.py" <<'EOF'
import yamlish_config_that_is_missing

DEBUG = True
EOF
cat >"$I/app/main.py" <<'EOF'
from app import settings


def run():
    return settings.DEBUG
EOF
cat >"$I/app/broken.py" <<'EOF'
def handler(event):
    if event["type"] == "push"
        return True
    return False
EOF
capture "$OUT/python/import-error.log" "$I" python3 -c "import app.main"
capture "$OUT/python/syntax-error.log" "$I" python3 -m app.broken

# ---------------------------------------------------------------- JavaScript runners
J="$S/js"
if [ ! -x "$J/node_modules/.bin/jest" ]; then
  mkdir -p "$J" && (cd "$J" && npm init -y >/dev/null &&
    npm install --no-audit --no-fund jest vitest@3 mocha typescript eslint@9 @eslint/js@9 eslint-formatter-unix >/dev/null)
fi
BIN="$J/node_modules/.bin"
mkproj() { # mkproj <dir>: a tiny CommonJS library with a bug in mean()
  rm -rf "$1" && mkdir -p "$1/src" "$1/test"
  cat >"$1/src/calc.js" <<'EOF'
function add(a, b) {
  return a + b;
}
function mean(xs) {
  return xs.reduce((s, x) => s + x, 0) / (xs.length - 1);
}
function parse(text) {
  return JSON.parse(text).value.toUpperCase();
}
module.exports = { add, mean, parse };
EOF
  echo '{"name":"calc","version":"1.0.0","private":true}' >"$1/package.json"
}

mkproj "$S/jest"
cat >"$S/jest/test/calc.test.js" <<'EOF'
const { add, mean, parse } = require("../src/calc");

describe("calc", () => {
  test("adds", () => {
    expect(add(1, 2)).toBe(3);
  });
  test("mean of three", () => {
    expect(mean([1, 2, 3])).toBe(2);
  });
  describe("parse", () => {
    test("reads value", () => {
      expect(parse('{"other": 1}')).toBe("X");
    });
  });
  test.skip("later", () => {});
});
EOF
capture "$OUT/jest/run.log" "$S/jest" "$BIN/jest" --rootDir . --ci
capture "$OUT/jest/verbose.log" "$S/jest" "$BIN/jest" --rootDir . --ci --verbose
(cd "$S/jest" && CI=true "$BIN/jest" --rootDir . --ci --colors >"$S/jest-color.log" 2>&1)

mkproj "$S/vitest"
echo '{"name":"calc","version":"1.0.0","private":true,"type":"module"}' >"$S/vitest/package.json"
cat >"$S/vitest/src/calc.js" <<'EOF'
export function add(a, b) {
  return a + b;
}
export function mean(xs) {
  return xs.reduce((s, x) => s + x, 0) / (xs.length - 1);
}
export function parse(text) {
  return JSON.parse(text).value.toUpperCase();
}
EOF
cat >"$S/vitest/test/calc.test.js" <<'EOF'
import { describe, expect, test } from "vitest";
import { add, mean, parse } from "../src/calc.js";

describe("calc", () => {
  test("adds", () => {
    expect(add(1, 2)).toBe(3);
  });
  test("mean of three", () => {
    expect(mean([1, 2, 3])).toBe(2);
  });
  describe("parse", () => {
    test("reads value", () => {
      expect(parse('{"other": 1}')).toBe("X");
    });
  });
  test.skip("later", () => {});
});
EOF
capture "$OUT/vitest/run.log" "$S/vitest" "$BIN/vitest" run --root .
capture "$OUT/vitest/verbose.log" "$S/vitest" "$BIN/vitest" run --root . --reporter=verbose
capture "$OUT/junit/vitest.xml" "$S/vitest" "$BIN/vitest" run --root . --reporter=junit

mkproj "$S/mocha"
cat >"$S/mocha/test/calc.test.js" <<'EOF'
const assert = require("node:assert");
const { add, mean, parse } = require("../src/calc");

describe("calc", () => {
  it("adds", () => {
    assert.strictEqual(add(1, 2), 3);
  });
  it("mean of three", () => {
    assert.strictEqual(mean([1, 2, 3]), 2);
  });
  describe("parse", () => {
    it("reads value", () => {
      assert.strictEqual(parse('{"other": 1}'), "X");
    });
  });
  it.skip("later", () => {});
});
EOF
capture "$OUT/mocha/run.log" "$S/mocha" "$BIN/mocha" test
capture "$OUT/tap/mocha-tap.log" "$S/mocha" "$BIN/mocha" --reporter tap test

mkproj "$S/nodetest"
cat >"$S/nodetest/test/calc.test.js" <<'EOF'
const { describe, it } = require("node:test");
const assert = require("node:assert");
const { add, mean, parse } = require("../src/calc");

describe("calc", () => {
  it("adds", () => {
    assert.strictEqual(add(1, 2), 3);
  });
  it("mean of three", () => {
    assert.strictEqual(mean([1, 2, 3]), 2);
  });
  describe("parse", () => {
    it("reads value", () => {
      assert.strictEqual(parse('{"other": 1}'), "X");
    });
  });
  it.skip("later", () => {});
});
EOF
capture "$OUT/tap/node-test.log" "$S/nodetest" node --test --test-reporter=tap test/
capture "$OUT/node-test/spec.log" "$S/nodetest" node --test --test-reporter=spec test/

# ---------------------------------------------------------------- tsc and eslint
T="$S/ts"
rm -rf "$T" && mkdir -p "$T/src"
cat >"$T/tsconfig.json" <<'EOF'
{ "compilerOptions": { "strict": true, "noEmit": true, "target": "ES2022", "module": "commonjs" }, "include": ["src"] }
EOF
cat >"$T/src/user.ts" <<'EOF'
export interface User {
  id: number;
  name: string;
}

export function label(user: User): string {
  const id: string = user.id;
  return `${user.nam} (${id})`;
}
EOF
cat >"$T/src/index.ts" <<'EOF'
import { label } from "./user";

console.log(label({ id: 1 }));
EOF
capture "$OUT/tsc/plain.log" "$T" "$BIN/tsc" -p .
capture "$OUT/tsc/pretty.log" "$T" "$BIN/tsc" -p . --pretty

E="$S/eslint"
rm -rf "$E" && mkdir -p "$E/src"
cat >"$E/eslint.config.js" <<EOF
const js = require("$J/node_modules/@eslint/js");
module.exports = [js.configs.recommended, { languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly" } }, rules: { eqeqeq: "error", "no-console": "warn" } }];
EOF
cat >"$E/src/app.js" <<'EOF'
const unused = 1;
function check(a) {
  if (a == null) {
    console.log("missing");
  }
  return undefinedThing;
}
module.exports = { check };
EOF
capture "$OUT/eslint/stylish.log" "$E" "$BIN/eslint" src
capture "$OUT/eslint/unix.log" "$E" "$BIN/eslint" --format "$J/node_modules/eslint-formatter-unix/index.js" src

# ---------------------------------------------------------------- npm
N="$S/npm"
rm -rf "$N" && mkdir -p "$N"
echo '{"name":"calc","version":"1.0.0","private":true,"scripts":{"test":"node -e \"process.exit(3)\""}}' >"$N/package.json"
capture "$OUT/npm/ci-no-lockfile.log" "$N" npm ci --no-audit --no-fund --offline
capture "$OUT/npm/enoent.log" "$N" npm install --offline --no-audit --no-fund ./missing-dir
# A real peer-dependency conflict (ERESOLVE) needs the registry: eslint 9 with @eslint/js 10.
if [ -n "${RETRACE_FIXTURES_ONLINE:-}" ]; then
  N2="$S/npm-eresolve"
  rm -rf "$N2" && mkdir -p "$N2" && echo '{"name":"x","version":"1.0.0","private":true}' >"$N2/package.json"
  capture "$OUT/npm/eresolve.log" "$N2" npm install --no-audit --no-fund eslint@9 @eslint/js@10
fi

# ---------------------------------------------------------------- go
G="$S/go"
rm -rf "$G" && mkdir -p "$G/calc" "$G/broken"
echo 'module example.com/calc

go 1.19' >"$G/go.mod"
cat >"$G/calc/calc.go" <<'EOF'
package calc

func Add(a, b int) int { return a + b + 1 }

func At(xs []int, i int) int { return xs[i] }
EOF
cat >"$G/calc/calc_test.go" <<'EOF'
package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(1, 2); got != 3 {
		t.Errorf("Add(1, 2) = %d, want 3", got)
	}
}

func TestTable(t *testing.T) {
	for _, tc := range []struct{ name string; a, b, want int }{{"zero", 0, 0, 0}, {"one", 1, 0, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Add(tc.a, tc.b); got != tc.want {
				t.Fatalf("Add(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestSkipped(t *testing.T) { t.Skip("later") }

func TestPass(t *testing.T) {}

func TestPanics(t *testing.T) {
	At([]int{1}, 3)
}
EOF
cat >"$G/broken/broken.go" <<'EOF'
package broken

func Name() string { return undefinedName }
EOF
cat >"$G/broken/broken_test.go" <<'EOF'
package broken

import "testing"

func TestName(t *testing.T) { _ = Name() }
EOF
export GOFLAGS=-mod=mod GOCACHE="$S/gocache" GOPATH="$S/gopath"
capture "$OUT/go/plain.log" "$G" go test ./...
capture "$OUT/go/verbose.log" "$G" go test -v ./calc
capture "$OUT/go/json.log" "$G" go test -json ./...

# ---------------------------------------------------------------- cargo
C="$S/cargo"
rm -rf "$C" && mkdir -p "$C/src"
cat >"$C/Cargo.toml" <<'EOF'
[package]
name = "calc"
version = "0.1.0"
edition = "2021"
EOF
cat >"$C/src/lib.rs" <<'EOF'
pub fn add(a: i32, b: i32) -> i32 {
    a + b + 1
}

pub fn at(xs: &[i32], i: usize) -> i32 {
    xs[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }

    #[test]
    fn index_out_of_range() {
        assert_eq!(at(&[1, 2], 5), 0);
    }

    #[test]
    fn passes() {
        assert!(true);
    }

    #[test]
    #[ignore]
    fn slow() {}
}
EOF
capture "$OUT/cargo/test.log" "$C" cargo test --offline -- --test-threads=1
mkdir -p "$C/src2" && cp "$C/src/lib.rs" "$C/src2/lib.rs.bak"
cat >"$C/src/lib.rs" <<'EOF'
pub fn add(a: i32, b: i32) -> i32 {
    let s: String = a + b;
    s
}
EOF
capture "$OUT/cargo/build-error.log" "$C" cargo test --offline
cp "$C/src2/lib.rs.bak" "$C/src/lib.rs"

# ---------------------------------------------------------------- a GitHub Actions log, as downloaded
# Built from the real eslint (stylish) and jest (colours on) outputs above: each line gets the
# runner's timestamp prefix, steps are ##[group]s, the tests run in a checkout under
# /home/runner/work, and line ends are CRLF as in a log downloaded from a Windows browser.
node - "$OUT" "$S" <<'EOF'
const fs = require("node:fs");
const [out, scratch] = process.argv.slice(2);
let t = Date.parse("2024-05-02T10:11:12.000Z");
const lines = [];
const emit = (s) => {
  t += 37;
  const stamp = new Date(t).toISOString().replace("Z", "0000Z");
  lines.push(`${stamp} ${s}`);
};
emit("##[group]Run actions/checkout@v4");
emit("with:");
emit("  repository: acme/calc");
emit("##[endgroup]");
emit("Syncing repository: acme/calc");
emit("##[group]Run npx eslint src");
emit("\u001b[36;1mnpx eslint src\u001b[0m");
emit("shell: /usr/bin/bash -e {0}");
emit("##[endgroup]");
const eslint = fs.readFileSync(`${out}/eslint/stylish.log`, "utf8").replaceAll("/home/runner/work/calc/calc", "/home/runner/work/calc/calc");
for (const l of eslint.split("\n")) emit(l);
emit("##[error]Process completed with exit code 1.");
emit("##[group]Run npm test");
emit("\u001b[36;1mnpm test\u001b[0m");
emit("##[endgroup]");
const jest = fs.readFileSync(`${scratch}/jest-color.log`, "utf8").replaceAll(`${scratch}/jest`, "/home/runner/work/calc/calc");
for (const l of jest.split("\n")) emit(l);
emit("##[error]Process completed with exit code 1.");
emit("Post job cleanup.");
fs.mkdirSync(`${out}/github-actions`, { recursive: true });
fs.writeFileSync(`${out}/github-actions/lint-then-jest.log`, lines.join("\r\n") + "\r\n");
EOF
echo "fixtures written under $OUT"
