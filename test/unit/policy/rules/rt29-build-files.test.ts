/**
 * Red team 29: build files of ecosystems the gate had no model of (sbt, mix, CMake, SwiftPM, …) and tox's sections of
 * setup.cfg. A changed line that names tests, or sits in a block opened on a line that does, is refused; the
 * counter-examples (a dependency, a source file, a version, a flag, `latest`) stay the fix's.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { modify } from "../helpers.ts";

const infra = (path: string, before: string, after: string) =>
  evaluatePatch(modify(path, before, after), {}).violations.filter((v) => v.rule === "test-infrastructure");

const SBT = 'name := "app"\nscalaVersion := "3.3.1"\n';
const MIX =
  'defmodule App.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :app, version: "0.1.0", deps: deps()]\n  end\n\n  defp deps do\n    [{:jason, "~> 1.4"}]\n  end\nend\n';
const CMAKE =
  "cmake_minimum_required(VERSION 3.16)\nproject(app CXX)\nenable_testing()\nadd_library(app src/app.cpp)\nadd_executable(parser_test tests/parser_test.cpp)\nadd_test(NAME parser_test COMMAND parser_test)\n";
const SWIFT = (target: string, deps = "") =>
  `// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n    name: "App",\n    dependencies: [${deps}],\n    targets: [\n        .target(name: "App"),\n${target}\n    ]\n)\n`;
const CFG = "[metadata]\nname = app\n\n[options]\ninstall_requires =\n    requests>=2\n";

describe("build files the gate had no model of: lines about tests are refused", () => {
  it.each([
    ["build.sbt", SBT, `${SBT}Test / testOptions += Tests.Filter(_ => false)\n`],
    ["build.sbt", SBT, `${SBT}Test / skip := true\n`],
    [
      "project/Build.scala",
      "object Build {\n}\n",
      "object Build {\n  val testFilter = (_: String) => false\n}\n",
    ],
    ["mix.exs", MIX, MIX.replace("deps: deps()]", "deps: deps(), test_paths: []]")],
    ["CMakeLists.txt", CMAKE, CMAKE.replace("add_test(NAME parser_test COMMAND parser_test)\n", "")],
    [
      "Package.swift",
      SWIFT('        .testTarget(name: "AppTests", dependencies: ["App"]),'),
      SWIFT('        .testTarget(name: "AppTests", dependencies: ["App"], exclude: ["FailingTests.swift"]),'),
    ],
    [
      "Package.swift",
      SWIFT(
        '        .testTarget(\n            name: "AppTests",\n            dependencies: ["App"]\n        ),',
      ),
      SWIFT(
        '        .testTarget(\n            name: "AppTests",\n            dependencies: ["App"],\n            exclude: ["Failing.swift"]\n        ),',
      ),
    ],
    ["meson.build", "project('app', 'c')\n", "project('app', 'c')\n# test('parser', exe)\n"],
  ])("%s: refused", (path, before, after) => {
    expect(
      infra(path, before, after)
        .map((v) => v.message)
        .join("\n"),
    ).toMatch(/names tests|block that names tests/);
  });

  it("setup.cfg: tox's [tox:tox] and [testenv:<name>] sections are refused", () => {
    expect(
      infra("setup.cfg", CFG, `${CFG}\n[tox:tox]\nenvlist = py\n\n[testenv]\ncommands = python -c pass\n`)
        .length,
    ).toBeGreaterThan(0);
    expect(
      infra(
        "setup.cfg",
        `${CFG}\n[testenv:py]\ndeps = pytest\n`,
        `${CFG}\n[testenv:py]\ndeps = pytest\ncommands = true\n`,
      ).length,
    ).toBeGreaterThan(0);
  });

  it("a build file renamed away is refused", () => {
    const patch =
      "diff --git a/CMakeLists.txt b/CMakeLists.txt.off\nsimilarity index 100%\nrename from CMakeLists.txt\nrename to CMakeLists.txt.off\n";
    expect(evaluatePatch(patch, {}).violations.map((v) => v.rule)).toContain("test-infrastructure");
  });
});

describe("build files the gate had no model of: the fix's own lines are allowed", () => {
  it.each([
    ["build.sbt", SBT, `${SBT}libraryDependencies += "org.typelevel" %% "cats-core" % "2.10.0"\n`],
    ["build.sbt", SBT, SBT.replace("3.3.1", "3.3.3")],
    ["mix.exs", MIX, MIX.replace('{:jason, "~> 1.4"}', '{:jason, "~> 1.4"}, {:decimal, "~> 2.0"}')],
    [
      "CMakeLists.txt",
      CMAKE,
      CMAKE.replace("add_library(app src/app.cpp)", "add_library(app src/app.cpp src/util.cpp)"),
    ],
    ["CMakeLists.txt", CMAKE, `${CMAKE}set(CMAKE_CXX_STANDARD 17)\n`],
    [
      "Package.swift",
      SWIFT('        .testTarget(name: "AppTests", dependencies: ["App"]),'),
      SWIFT(
        '        .testTarget(name: "AppTests", dependencies: ["App"]),',
        '.package(url: "https://github.com/apple/swift-argument-parser", from: "1.3.0")',
      ),
    ],
    ["build.sbt", SBT, `${SBT}// pin to the latest release\n`],
    ["setup.cfg", CFG, CFG.replace("requests>=2", "requests>=2.31")],
  ])("%s: allowed", (path, before, after) => {
    expect(infra(path, before, after)).toEqual([]);
  });
});
