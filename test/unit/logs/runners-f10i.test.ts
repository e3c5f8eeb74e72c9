/**
 * Shapes added on branch f10i (hold18's and hold19's classes): Ginkgo's closing summary, a lone libtest panic of a
 * test at an integration-test crate's top level, and go test output under a bare import-path line (Fedora's
 * `%gotest`). The logs are written here for a small kettle library of our own, in the tools' byte layout.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) =>
  parseLog(text).failures.map((f) => [f.format, f.test, f.file ?? null, f.line ?? null]);

describe("Ginkgo's summary: `[Fail] … [It] spec` lines confirmed by its own heading or count line", () => {
  const v1 = [
    "Summarizing 2 Failures:",
    "",
    "[Fail] Kettle when full [It] boils within a minute ",
    "/home/runner/work/kettle/kettle/pkg/boil/boil_test.go:42",
    "",
    "[Panic!] Kettle [BeforeEach] pours without spilling ",
    "/home/runner/work/kettle/kettle/pkg/boil/pour_test.go:17",
    "",
    "Ran 7 of 7 Specs in 0.004 seconds",
    "FAIL! -- 5 Passed | 2 Failed | 0 Pending | 0 Skipped",
    "--- FAIL: TestBoil (0.01s)",
    "FAIL",
  ];

  it("v1: each spec line is a failure named by its full text without the node marker, at the line below", () => {
    expect(found(`${v1.join("\n")}\n`)).toEqual(
      expect.arrayContaining([
        ["ginkgo", "Kettle when full boils within a minute", "pkg/boil/boil_test.go", 42],
        ["ginkgo", "Kettle pours without spilling", "pkg/boil/pour_test.go", 17],
      ]),
    );
    expect(parseLog(`${v1.join("\n")}\n`).counts.ginkgo).toMatchObject({ passed: 5, failed: 2 });
  });

  it("v2: the indented `[FAIL]` lines and the place under them", () => {
    const v2 = [
      "Summarizing 1 Failure:",
      "  [FAIL] Kettle when empty [It] refuses to heat",
      "  /src/kettle/heat_test.go:88",
      "",
      "Ran 3 of 3 Specs in 0.010 seconds",
      "FAIL! -- 2 Passed | 1 Failed | 0 Pending | 0 Skipped",
    ];
    expect(found(`${v2.join("\n")}\n`)).toEqual([
      ["ginkgo", "Kettle when empty refuses to heat", "/src/kettle/heat_test.go", 88],
    ]);
  });

  it("a paste cut above the heading: the `FAIL!` count line confirms the spec line", () => {
    expect(found(`${v1.slice(2, 10).join("\n")}\n`)).toHaveLength(2);
  });

  it("must not fire: a green run (`SUCCESS!`) whose output prints a spec-like `[Fail] … [It]` line", () => {
    const text = [
      "[Fail] Kettle when full [It] boils within a minute",
      "/src/kettle/boil_test.go:42",
      "Ran 7 of 7 Specs in 0.004 seconds",
      "SUCCESS! -- 7 Passed | 0 Failed | 0 Pending | 0 Skipped",
      "PASS",
    ].join("\n");
    expect(found(`${text}\n`)).toEqual([]);
  });

  it("must not fire: a `[Fail]` line with no Ginkgo heading or count line around it names nothing", () => {
    expect(found("[Fail] Kettle when full [It] boils within a minute\nsee above\n")).toEqual([]);
  });
});

describe("a lone libtest panic: a bare thread name is a test's only at an integration-test crate's root", () => {
  it("a lowercase identifier panicking at tests/<file>.rs is that top-level test (old and new panic forms)", () => {
    expect(
      found("\tthread 'pours' panicked at 'assertion failed: `(left == right)`', tests/kettle.rs:111\n"),
    ).toEqual([["cargo", "pours", "tests/kettle.rs", 111]]);
    expect(found("thread 'pours' panicked at tests/kettle.rs:12:5:\nassertion failed: full\n")).toEqual([
      ["cargo", "pours", "tests/kettle.rs", 12],
    ]);
  });

  it("must not fire: `main`, a named worker, or a bare name panicking outside tests/ names no test", () => {
    expect(found("thread 'main' panicked at tests/kettle.rs:12:5:\nassertion failed: full\n")).toEqual([]);
    expect(found("thread 'boil-worker' panicked at tests/kettle.rs:12:5:\nboom\n")).toEqual([]);
    expect(found("thread 'heater' panicked at src/heat.rs:12:5:\nboom\n")).toEqual([]);
    expect(found("thread 'heater' panicked at tests/common/mod.rs:12:5:\nboom\n")).toEqual([]);
  });
});

describe("go test output under a bare import-path line (Fedora's %gotest)", () => {
  const log = [
    "github.com/kettle/kettle/internal/boil",
    "--- FAIL: TestBoil (0.00s)",
    "    --- FAIL: TestBoil/full (0.00s)",
    "        boil_test.go:24: boiled at 90, want 100",
    "FAIL",
  ];

  it("the line names the package: the subtest's id and file take it", () => {
    expect(found(`${log.join("\n")}\n`)).toEqual([
      ["go", "github.com/kettle/kettle/internal/boil.TestBoil/full", "internal/boil/boil_test.go", 24],
    ]);
  });

  it("a bare path not right above go's first test line names nothing", () => {
    const text = ["github.com/kettle/kettle/internal/boil", "building…", ...log.slice(1)].join("\n");
    expect(found(`${text}\n`)).toEqual([["go", "TestBoil/full", "boil_test.go", 24]]);
  });

  it("must not fire: a green run under the line gives no failure", () => {
    const text = ["github.com/kettle/kettle/internal/boil", "--- PASS: TestBoil (0.00s)", "PASS"].join("\n");
    expect(found(`${text}\n`)).toEqual([]);
  });
});
