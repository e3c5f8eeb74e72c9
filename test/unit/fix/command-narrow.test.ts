/**
 * Reruns narrow the repository's OWN test command: what CI ran (environment prefixes, `cd`, npx/yarn, config
 * and plugin flags) stays byte for byte; only the runner's selection and its name/shard filters change.
 */
import { describe, expect, it } from "vitest";
import { filterCommand } from "../../../src/fix/test-runner/filter.ts";
import type { TestFramework } from "../../../src/fix/test-runner/types.ts";

const narrow = (framework: TestFramework, command: string, ids: string[]) =>
  filterCommand({ framework, command, detectedBy: "test" }, ids).command;

describe("narrowing keeps the command CI ran", () => {
  it("pytest: environment prefix and plugin flags kept, the suite path replaced by the node ids", () => {
    expect(narrow("pytest", "PYTHONPATH=src pytest -q tests", ["tests/test_a.py::test_x"])).toBe(
      "PYTHONPATH=src pytest tests/test_a.py::test_x -q",
    );
    expect(
      narrow("pytest", 'FOO=1 BAR="a b" python -m pytest -p no:randomly -k "not slow" tests/ --maxfail 3', [
        "tests/test_a.py::T::test_y[1-2]",
      ]),
    ).toBe(
      'FOO=1 BAR="a b" python -m pytest \'tests/test_a.py::T::test_y[1-2]\' -p no:randomly -k "not slow" --maxfail 3',
    );
  });

  it("jest behind cd and npx: config kept, path pattern and shard replaced", () => {
    expect(
      narrow("jest", "cd packages/core && npx jest --ci -c jest.unit.js --shard=2/3 src/", [
        "src/a.test.js > adds",
      ]),
    ).toBe("cd packages/core && npx jest src/a.test.js -t '^(?:adds)$' --ci -c jest.unit.js");
  });

  it("vitest: project kept, shard dropped, always `run`", () => {
    expect(narrow("vitest", "npx vitest --shard=1/3 --project unit", ["test/a.test.ts > x"])).toBe(
      "npx vitest run test/a.test.ts -t '^ ?(?:x)$' --project unit",
    );
  });

  it("mocha: --require kept, the spec glob replaced", () => {
    expect(narrow("mocha", "mocha --require ts-node/register 'test/**/*.spec.ts'", ["calc > adds"])).toBe(
      "mocha --grep '^(?:calc adds)$' --require ts-node/register",
    );
  });

  it("node --test: loader flags kept, globs replaced by the pattern and the files", () => {
    expect(narrow("node-test", "node --import tsx --test test/*.test.ts", ["test/a.test.ts > s > t"])).toBe(
      "node --import tsx --test --test-name-pattern='^(?:s|t)$' test/a.test.ts",
    );
  });

  it("go test: -race and -count kept, packages and -run replaced", () => {
    expect(narrow("go", "go test -race -count=1 -run Old ./...", ["example.com/x/pkg.TestAdd/zero"])).toBe(
      "go test -run '^(?:TestAdd)$' example.com/x/pkg -race -count=1",
    );
  });

  it("cargo: features kept; libtest's own arguments keep their place after --", () => {
    expect(narrow("cargo", "cargo test --all-features -- --nocapture", ["tests::adds"])).toBe(
      "cargo test --all-features -- --exact tests::adds --nocapture",
    );
    expect(narrow("cargo", "cargo test parse", ["tests::adds"])).toBe("cargo test -- --exact tests::adds");
  });

  it("falls back to the plain runner command when the runner is not in the command (a resolved script)", () => {
    expect(narrow("pytest", "tox -e py311", ["tests/test_a.py::t"])).toBe(
      "python3 -m pytest tests/test_a.py::t",
    );
  });
});
