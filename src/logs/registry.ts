/**
 * Every format parser, in the order lines are offered to them: structured formats first, then
 * runners with distinctive markers, then compilers and linters, then the generic catch-all.
 */
import type { FormatDefinition } from "./parser.ts";
import { antJunitFormat } from "./parsers/ant-junit.ts";
import { avaFormat } from "./parsers/ava.ts";
import { bunFormat } from "./parsers/bun.ts";
import { cargoFormat } from "./parsers/cargo.ts";
import { codeceptionFormat } from "./parsers/codeception.ts";
import { catch2Format } from "./parsers/catch2.ts";
import { bazelFormat } from "./parsers/bazel.ts";
import { automakeFormat } from "./parsers/automake.ts";
import { mesonFormat } from "./parsers/meson.ts";
import { autotestFormat } from "./parsers/autotest.ts";
import { regrtestFormat } from "./parsers/regrtest.ts";
import { eunitFormat } from "./parsers/eunit.ts";
import { robotFormat } from "./parsers/robot.ts";
import { exunitFormat } from "./parsers/exunit.ts";
import { minitestFormat } from "./parsers/minitest.ts";
import { eslintFormat } from "./parsers/eslint.ts";
import { genericFormat } from "./parsers/generic.ts";
import { gocheckFormat } from "./parsers/gocheck.ts";
import { ginkgoFormat } from "./parsers/ginkgo.ts";
import { goFormat } from "./parsers/go.ts";
import { gtestFormat } from "./parsers/gtest.ts";
import { goJsonFormat } from "./parsers/go-json.ts";
import { jestFormat } from "./parsers/jest.ts";
import { juliaFormat } from "./parsers/julia.ts";
import { karmaFormat } from "./parsers/karma.ts";
import { karmaMochaFormat } from "./parsers/karma-mocha.ts";
import { hspecFormat } from "./parsers/hspec.ts";
import { nunitConsoleFormat } from "./parsers/nunit-console.ts";
import { touchUnitFormat } from "./parsers/touch-unit.ts";
import { nodeTestPyFormat } from "./parsers/node-testpy.ts";
import { javaStackFormat } from "./parsers/java-stack.ts";
import { jasmineFormat } from "./parsers/jasmine.ts";
import { junitFormat } from "./parsers/junit.ts";
import { junitConsoleFormat } from "./parsers/junit-console.ts";
import { mochaFormat } from "./parsers/mocha.ts";
import { vowsFormat } from "./parsers/vows.ts";
import { nextestFormat } from "./parsers/nextest.ts";
import { nixTestsFormat } from "./parsers/nix-tests.ts";
import { nodeTestFormat } from "./parsers/node-test.ts";
import { npmFormat } from "./parsers/npm.ts";
import { proveFormat } from "./parsers/prove.ts";
import { pytestFormat } from "./parsers/pytest.ts";
import { pythonFormat } from "./parsers/python.ts";
import { dartTestFormat } from "./parsers/dart-test.ts";
import { dartUnittestFormat } from "./parsers/dart-unittest.ts";
import { dejagnuFormat } from "./parsers/dejagnu.ts";
import { denoFormat } from "./parsers/deno.ts";
import { denoHarnessFormat } from "./parsers/deno-harness.ts";
import { testcafeFormat } from "./parsers/testcafe.ts";
import { dotnetFormat, trxFormat } from "./parsers/dotnet.ts";
import { gradleFormat } from "./parsers/gradle.ts";
import { pestFormat } from "./parsers/pest.ts";
import { phpunitFormat } from "./parsers/phpunit.ts";
import { playwrightFormat } from "./parsers/playwright.ts";
import { rspecFormat } from "./parsers/rspec.ts";
import { sbtFormat } from "./parsers/sbt.ts";
import { surefireFormat } from "./parsers/surefire.ts";
import { tastyFormat } from "./parsers/tasty.ts";
import { swiftTestingFormat, xctestFormat } from "./parsers/swift.ts";
import { jenkinsReportFormat } from "./parsers/jenkins-report.ts";
import { tkgFormat } from "./parsers/tkg.ts";
import { tapFormat } from "./parsers/tap.ts";
import { tapReporterFormat } from "./parsers/tap-reporter.ts";
import { teamcityFormat } from "./parsers/teamcity.ts";
import { testthatFormat } from "./parsers/testthat.ts";
import { elixirKoansFormat } from "./parsers/elixir-koans.ts";
import { exercismFormat } from "./parsers/exercism.ts";
import { cloudslangFormat } from "./parsers/cloudslang.ts";
import { mavenInvokerFormat } from "./parsers/maven-invoker.ts";
import { nimFormat } from "./parsers/nim.ts";
import { asPectFormat } from "./parsers/as-pect.ts";
import { cutterFormat } from "./parsers/cutter.ts";
import { wptrunnerFormat } from "./parsers/wptrunner.ts";
import { seatestFormat } from "./parsers/seatest.ts";
import { shunit2Format } from "./parsers/shunit2.ts";
import { boostTestFormat } from "./parsers/boost-test.ts";
import { cpputestFormat } from "./parsers/cpputest.ts";
import { cucumberFormat } from "./parsers/cucumber.ts";
import { oasisFormat } from "./parsers/oasis.ts";
import { bustedFormat } from "./parsers/busted.ts";
import { batsFormat } from "./parsers/bats.ts";
import { behaveFormat } from "./parsers/behave.ts";
import { gleeunitFormat } from "./parsers/gleeunit.ts";
import { luatestFormat } from "./parsers/luatest.ts";
import { luvitFormat } from "./parsers/luvit.ts";
import { phpspecFormat } from "./parsers/phpspec.ts";
import { rackunitFormat } from "./parsers/rackunit.ts";
import { telescopeFormat } from "./parsers/telescope.ts";
import { xcprettyFormat } from "./parsers/xcpretty.ts";
import { vscodeDotnetFormat } from "./parsers/vscode-dotnet.ts";
import { doctestFormat } from "./parsers/doctest.ts";
import { tscFormat } from "./parsers/tsc.ts";
import { unittestFormat } from "./parsers/unittest.ts";
import { vitestFormat } from "./parsers/vitest.ts";
import { wdioFormat } from "./parsers/wdio.ts";
import { wdioEpilogueFormat } from "./parsers/wdio-epilogue.ts";
import { zigFormat } from "./parsers/zig.ts";
import { dottedStatusFormat } from "./parsers/dotted-status.ts";

export const FORMATS: readonly FormatDefinition[] = [
  junitFormat,
  trxFormat,
  goJsonFormat,
  junitConsoleFormat,
  antJunitFormat,
  nunitConsoleFormat,
  // NUnitLite under Touch.Unit: `[FAIL] Class.Method :` read only with a frame naming it under its namespace.
  touchUnitFormat,
  // tasty before hspec: cabal's suite lines wrap both, and tasty's reads hspec's count line to know a suite named its failures.
  tastyFormat,
  hspecFormat,
  pytestFormat,
  // DejaGnu before unittest (and automake, below): its result lines under its own `Running …exp ...` line are
  // claimed, so neither reads them (unittest takes any `FAIL: ` line under a `=====` rule as a block's header, and
  // `FAIL: x (m.C)` as a header awaiting its rule). Outside a run DejaGnu claims nothing: bare `FAIL:` lines
  // (automake's, nose's, Dart's) still reach their parsers.
  // Robot Framework before unittest: its `| FAIL |` test lines sit between `=` and `-` rules, which unittest's blocks
  // use too; only a status line under a suite heading read between two `=` rules is claimed.
  robotFormat,
  dejagnuFormat,
  unittestFormat,
  jestFormat,
  vitestFormat,
  bunFormat,
  nodeTestFormat,
  nodeTestPyFormat,
  denoFormat,
  // deno's 2018 harness: `Test FAIL name` only after a `N/M +P -F: name` progress line named the test.
  denoHarnessFormat,
  // prove's summary report before tap: it watches for `not ok` lines, which tap claims.
  proveFormat,
  tapFormat,
  tapReporterFormat,
  wdioFormat,
  // WebdriverIO 4's closing report: `1) title:` entries under `Number of specs:` and mocha's counts, before mocha's.
  wdioEpilogueFormat,
  // ExUnit's and minitest's numbered `  1) …` blocks, before mocha's: each is taken only in its own shape.
  exunitFormat,
  // elixir-koans' `mix meditate`: the koan named under its `Now meditate upon Module` heading and rule.
  elixirKoansFormat,
  minitestFormat,
  // TestCafe's spec reporter under its ` Running tests in:` heading: its ` √ test` lines and numbered errors are its own.
  testcafeFormat,
  // karma-mocha-reporter's `✖` tree before mocha's: it needs the describe lines above a test.
  karmaMochaFormat,
  mochaFormat,
  // vows' `✗ vow` under its context line, only with vows' own frames or summary.
  vowsFormat,
  jasmineFormat,
  karmaFormat,
  avaFormat,
  // Ginkgo before go: its summary lines are its own, and a Ginkgo suite runs under `go test`.
  ginkgoFormat,
  // gocheck's reports run under `go test` too; its `FAIL: x_test.go:N: Suite.Method` line is its own.
  gocheckFormat,
  goFormat,
  nextestFormat,
  // zig before cargo: zig 0.14+ prints `error: 'test.x' failed:` at the margin, the shape of a rustc diagnostic.
  zigFormat,
  cargoFormat,
  gtestFormat,
  catch2Format,
  teamcityFormat,
  exercismFormat,
  bazelFormat,
  // Build-system harnesses (make check, meson test): a test's name and verdict, no test framework's detail.
  // DejaGnu is registered before unittest (above).
  // Dart's old unittest before automake: both print `FAIL: name`; each needs its own count line to read them.
  dartUnittestFormat,
  automakeFormat,
  mesonFormat,
  regrtestFormat,
  autotestFormat,
  nixTestsFormat,
  tkgFormat,
  jenkinsReportFormat,
  // Small runners whose lines need their own heading or count line (seatest's fixture banner and `N run  M failed`,
  // the CloudSlang builder's `Following N tests failed:`).
  seatestFormat,
  cloudslangFormat,
  // The Maven Invoker Plugin's `The following builds failed:` entries (failed integration-test builds).
  mavenInvokerFormat,
  // Nim's std/unittest `[FAILED] name` lines (confirmed by its `[Suite]`/`[OK]`/`Check failed:` lines) and nimble's
  // failed test programs (confirmed by its `Only N/M tests passed`).
  nimFormat,
  // as-pect's `❌ file Pass: N / M Todo: T Time:` headers and the `❌ test` entries under them.
  asPectFormat,
  // Cutter's `Failure: case::test` over its `<expected == actual>` line.
  cutterFormat,
  // wptrunner's `TEST_START:`/`TEST_END: … TIMEOUT, expected FAIL` lines (mozlog's mach formatter).
  wptrunnerFormat,
  // shunit2's `ASSERT:` lines under a test's name line, confirmed by its `shunit2:` lines or `Ran N tests.` count.
  shunit2Format,
  // Boost.Test's `file(N): error: in "Suite/Case": …` lines, confirmed by its `Running N test cases...` line.
  boostTestFormat,
  // CppUTest's `Failure in TEST(Group, Name)` and `-v` lines marked `[FAIL]`.
  cpputestFormat,
  // Cucumber's `Failing Scenarios:` list, confirmed by its `N scenarios (M failed…)` line.
  cucumberFormat,
  // OCaml oasis's `W: Test 'NAME' fails:` lines, placed by the test program's uncaught exception above.
  oasisFormat,
  // busted's (Lua) `Failure → file @ N` blocks under its `N successes / N failures / …` count line.
  bustedFormat,
  // Runners of hold39's logs, each read only in its own shape: bats' `✗` with its `in test file` line, behave's
  // steps under `Feature:`, gleeunit's entries with their `location:`, luatest's `Failed tests:` list, telescope's
  // blocks under its count line, luvit's `FAILED` lines with their `FAIL (file)` block, phpspec's failed-examples
  // section, rackunit's `FAILURE` blocks.
  batsFormat,
  behaveFormat,
  gleeunitFormat,
  luatestFormat,
  telescopeFormat,
  luvitFormat,
  phpspecFormat,
  rackunitFormat,
  // Runners whose logs rarely share a job with the ones above: later in the chain, so the common
  // JavaScript/Python/Go lines are claimed before these look at them.
  sbtFormat,
  surefireFormat,
  gradleFormat,
  // Before dotnet's: its `Total tests: N. Passed: …` count closes this summary.
  vscodeDotnetFormat,
  dotnetFormat,
  phpunitFormat,
  // Codeception's entries carry a ` Test  path:method` line PHPUnit's never have.
  codeceptionFormat,
  pestFormat,
  rspecFormat,
  playwrightFormat,
  xctestFormat,
  // xcpretty's `✗ testX, reason` lines under their class heading (xcodebuild through xcpretty or fastlane scan).
  xcprettyFormat,
  swiftTestingFormat,
  dartTestFormat,
  testthatFormat,
  juliaFormat,
  // EUnit's `in function m:f/0 (file.erl, line N)` over its `**error:` line.
  eunitFormat,
  // doctest's `File "x.py", line N, in name` is a traceback frame's shape: read before the Python fallback.
  doctestFormat,
  dottedStatusFormat,
  tscFormat,
  eslintFormat,
  pythonFormat,
  // A Java assertion's stack alone, the test named by its own frame: a fallback, after every runner's format.
  javaStackFormat,
  npmFormat,
  genericFormat,
];

export function formatNames(): string[] {
  return FORMATS.map((f) => f.name);
}
