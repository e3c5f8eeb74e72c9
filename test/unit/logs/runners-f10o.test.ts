/**
 * Fixer f10o (issue 10): every hosted CI's checkout root made repo-relative (CHECKOUT_ROOTS, ANCHORED_ROOTS), the
 * anchored roots found in linear time, and DejaGnu's result lines claimed before unittest reads them.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";
import { ANCHORED_ROOTS, CHECKOUT_ROOTS, createPathMapper } from "../../../src/logs/normalize.ts";
import { cpuMs } from "../../support/cpu-time.ts";

describe("checkout roots of the hosted CIs", () => {
  const map = createPathMapper();
  it.each([
    // AppVeyor (the kestrel case: an xUnit frame kept the runner's absolute path).
    ["C:\\projects\\kestrelhttpserver\\test\\HttpsTests.cs(55,0): at X", "test\\HttpsTests.cs(55,0): at X"],
    ["/home/appveyor/projects/calc/src/a.py:3", "src/a.py:3"],
    ["/Users/appveyor/projects/calc/src/a.py:3", "src/a.py:3"],
    // Azure Pipelines, hosted and self-hosted.
    ["D:\\a\\1\\s\\src\\Calc.cs(12,5): error", "src\\Calc.cs(12,5): error"],
    ["/home/vsts/work/1/s/tests/test_a.py:7: AssertionError", "tests/test_a.py:7: AssertionError"],
    ["/Users/runner/work/1/s/lib/a.ts:3:4", "lib/a.ts:3:4"],
    ["/opt/agent/_work/1/s/pkg/b.go:12", "pkg/b.go:12"],
    // GitHub Actions.
    ["D:\\a\\calc\\calc\\src\\user.ts(7,9): error", "src\\user.ts(7,9): error"],
    ["at f (/home/runner/work/calc/calc/a.js:1:2)", "at f (a.js:1:2)"],
    ["/home/ci/actions-runner/_work/calc/calc/src/x.py", "src/x.py"],
    // GitLab, Jenkins (Linux and Windows).
    ["/builds/group/proj/src/money.js:11:29", "src/money.js:11:29"],
    ["/var/lib/jenkins/workspace/job/tests/MoneyTest.php:18", "tests/MoneyTest.php:18"],
    ["C:\\ProgramData\\Jenkins\\.jenkins\\workspace\\job\\src\\A.cs:line 4", "src\\A.cs:line 4"],
    // CircleCI: the image user's home, root's, macOS's distiller, and `~/project` as its steps print it.
    ["/home/circleci/project/spec/a_spec.rb:4", "spec/a_spec.rb:4"],
    ["/root/project/spec/a_spec.rb:4", "spec/a_spec.rb:4"],
    ["/Users/distiller/project/Tests/ATests.swift:9: error", "Tests/ATests.swift:9: error"],
    ["cd ~/project/web && npm test", "cd web && npm test"],
    // Buildkite: <builds>/<agent>/<org>/<pipeline>.
    ["/var/lib/buildkite-agent/builds/agent-1/acme/calc/src/a.py:3", "src/a.py:3"],
    ["/buildkite/builds/agent-1/acme/calc/src/a.py:3", "src/a.py:3"],
    ["C:\\buildkite-agent\\builds\\agent-1\\acme\\calc\\src\\A.cs", "src\\A.cs"],
    // Travis (Linux, macOS, Windows), Bitbucket, Drone.
    ["/home/travis/build/acme/calc/tests/x.py:3", "tests/x.py:3"],
    ["/Users/travis/build/acme/calc/tests/x.py:3", "tests/x.py:3"],
    ["C:\\Users\\travis\\build\\acme\\calc\\src\\A.cs", "src\\A.cs"],
    ["/opt/atlassian/pipelines/agent/build/tests/x.py:3", "tests/x.py:3"],
    ["Configuration: /drone/src/tests/phpunit.xml", "Configuration: tests/phpunit.xml"],
    // Package builds.
    ["/home/abuild/rpmbuild/BUILD/calc-1.0/tests/x.py:3", "tests/x.py:3"],
    ["/usr/ports/x/work-py39/calc-1.0/tests/x.py:3", "tests/x.py:3"],
  ])("%s", (input, expected) => {
    expect(map(input)).toBe(expected);
  });

  it("must not fire: the same directory names inside a longer path, a developer's own drive, other Azure folders", () => {
    for (const kept of [
      "/opt/builds/a/b/c.txt",
      "/x/home/travis/build/acme/calc/a.py",
      "/srv/drone/src/a.go",
      "/home/me/root/project/a.py",
      "E:\\projects\\botkit\\test\\a.js",
      "/home/vsts/work/1/b/a.py",
      "/home/abuild/rpmbuild/BUILD/notversioned/tests/x.py",
      "~/projects/calc/a.py",
    ])
      expect(map(kept)).toBe(kept);
  });

  it("with repoName, roots that name the repository map only its checkout; numbered ones (Azure) any", () => {
    const m = createPathMapper({ repoName: "acme/calc" });
    expect(m("C:\\projects\\calc\\a.cs")).toBe("a.cs");
    expect(m("C:\\projects\\other\\a.cs")).toBe("C:\\projects\\other\\a.cs");
    expect(m("/var/lib/buildkite-agent/builds/agent-1/acme/calc/a.py")).toBe("a.py");
    expect(m("/var/lib/buildkite-agent/builds/agent-1/acme/other/a.py")).toBe(
      "/var/lib/buildkite-agent/builds/agent-1/acme/other/a.py",
    );
    expect(m("D:\\a\\1\\s\\a.cs")).toBe("a.cs");
    expect(m("/home/vsts/work/1/s/a.py")).toBe("a.py");
    expect(m("/agent/_work/1/s/a.py")).toBe("a.py");
  });

  it("every root's example maps to a repo-relative path, and holds one of its needles", () => {
    for (const r of [...CHECKOUT_ROOTS, ...ANCHORED_ROOTS]) {
      const out = map(r.example);
      expect(out, r.ci).not.toBe(r.example);
      expect(out.startsWith("/") || /^[A-Za-z]:\\/.test(out) || out.startsWith("~"), r.ci).toBe(false);
      const needles = "needles" in r ? r.needles : [r.needle];
      expect(
        needles.some((n) => r.example.includes(n)),
        r.ci,
      ).toBe(true);
    }
  });

  it("an AppVeyor xUnit log places the failure at the repository's file", () => {
    const log = [
      "[xUnit.net 00:00:06.9064563]     Kestrel.FunctionalTests.HttpsTests.EmptyRequestLogged [FAIL]",
      "[xUnit.net 00:00:06.9114510]       Assert.Equal() Failure",
      "[xUnit.net 00:00:06.9247879]       Stack Trace:",
      "[xUnit.net 00:00:06.9247879]         C:\\projects\\kestrelhttpserver\\test\\Kestrel.FunctionalTests\\HttpsTests.cs(55,0): at Kestrel.FunctionalTests.HttpsTests.<EmptyRequestLogged>d__0.MoveNext()",
    ].join("\n");
    const f = parseLog(log).failures;
    expect(f.map((x) => [x.test, x.file, x.line])).toEqual([
      [
        "Kestrel.FunctionalTests.HttpsTests.EmptyRequestLogged",
        "test/Kestrel.FunctionalTests/HttpsTests.cs",
        55,
      ],
    ]);
  });
});

describe("anchored roots: linear in the line's length", () => {
  const cost = (line: string, options = {}) => {
    const m = createPathMapper(options);
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      best = Math.min(best, cpuMs(() => m(line)).ms);
    }
    return best;
  };
  it.each([
    ["/!… then a bare /_work/", (n: number) => `${"/!".repeat(n)}/_work/`, {}],
    ["/!… then /BUILD/", (n: number) => `${"/!".repeat(n)}/BUILD/`, {}],
    ["/!… then /work-py39/", (n: number) => `${"/!".repeat(n)}/work-py39/x`, {}],
    [
      "GitLab /builds/ repeated with a repository name",
      (n: number) => "/builds/!".repeat(n),
      { repoName: "a/calc" },
    ],
  ])("%s: 32,000 repetitions well under the quadratic time", (_name, make, options) => {
    // Quadratic (the old patterns): about 150 ms at 8,000 and 2.4 s at 32,000 on this machine; linear: under 5 ms.
    expect(cost(make(32_000), options)).toBeLessThan(250);
  });
  it("still removes the checkout at the end of a long path, and keeps what precedes it", () => {
    const m = createPathMapper();
    expect(m(`x ${"/!".repeat(8_000)}/_work/calc/calc/a.py:3`)).toBe("x a.py:3");
    // The path starts at its first `/` that follows no `[\w.-]`: `x/!` keeps `x/!`, `x.y/z` is no path's start.
    expect(m(`x${"/!".repeat(3)}/_work/calc/calc/a.py`)).toBe("x/!a.py");
    expect(m("x.y/z/_work/calc/calc/a.py")).toBe("x.y/z/_work/calc/calc/a.py");
  });
});

describe("DejaGnu's result lines are claimed before unittest reads them", () => {
  const head = ["Running target unix", "Running ../../testsuite/kettle.pour/pour.exp ..."];
  const tail = [
    "",
    "\t\t=== kettle Summary ===",
    "",
    "# of expected passes\t\t40",
    "# of unexpected failures\t2",
    "/usr/bin/gcc  version 12.2.0",
  ];
  const byFormat = (lines: string[]) => parseLog(lines.join("\n")).failures.map((f) => [f.format, f.test]);
  it("a result line under a `=====` rule (unittest reads any `FAIL: ` there as a block's header)", () => {
    expect(
      byFormat([
        ...head,
        "=".repeat(70),
        "FAIL: kettle.pour/half.c -O0 execution test",
        "FAIL: kettle.pour/half.c -O2 execution test",
        ...tail,
      ]),
    ).toEqual([
      ["dejagnu", "kettle.pour/half.c -O0 execution test"],
      ["dejagnu", "kettle.pour/half.c -O2 execution test"],
    ]);
  });
  it("a result line shaped like unittest's header, in a log that also holds a unittest run", () => {
    expect(
      byFormat([
        "test_a (m.C) ... FAIL",
        "",
        "=".repeat(70),
        "FAIL: test_a (m.C)",
        "-".repeat(70),
        "Traceback (most recent call last):",
        '  File "m.py", line 3, in test_a',
        "AssertionError",
        "",
        "-".repeat(70),
        "Ran 1 test in 0.001s",
        "",
        "FAILED (failures=1)",
        ...head,
        "FAIL: test_pour (kettle.Pour)",
        "-".repeat(70),
        "FAIL: kettle.pour/half.c -O2 execution test",
        ...tail,
      ]),
    ).toEqual([
      ["unittest", "m.C.test_a"],
      ["dejagnu", "test_pour (kettle.Pour)"],
      ["dejagnu", "kettle.pour/half.c -O2 execution test"],
    ]);
  });
  it("must not fire: unittest's own run after a DejaGnu run's summary ended, nose's bare header", () => {
    const unittestAfter = [
      ...head,
      "FAIL: kettle.pour/half.c -O0 execution test",
      ...tail,
      "=".repeat(70),
      "FAIL: test_a (m.C)",
      "-".repeat(70),
      "Traceback (most recent call last):",
      '  File "m.py", line 3, in test_a',
      "AssertionError",
      "",
      "-".repeat(70),
      "Ran 1 test in 0.001s",
      "",
      "FAILED (failures=1)",
    ];
    expect(byFormat(unittestAfter)).toEqual([
      ["dejagnu", "kettle.pour/half.c -O0 execution test"],
      ["unittest", "m.C.test_a"],
    ]);
    const nose = [
      "=".repeat(70),
      "FAIL: tests.test_kettle.test_pour",
      "-".repeat(70),
      "Traceback (most recent call last):",
      '  File "/src/tests/test_kettle.py", line 4, in test_pour',
      "AssertionError",
      "",
      "-".repeat(70),
      "Ran 1 test in 0.001s",
      "",
      "FAILED (failures=1)",
    ];
    expect(byFormat(nose)).toEqual([["unittest", "tests.test_kettle.test_pour"]]);
  });
});
