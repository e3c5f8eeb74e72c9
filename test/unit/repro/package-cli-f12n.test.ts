/**
 * A package's own command in a shell session (`$ retire --version`, `$ npx foo --bar`, `$ ./node_modules/.bin/x`)
 * runs that package's `bin` with the typed arguments; what it prints is compared with the transcript. A bare
 * command is a package's only when the report shows that package installed. Reports written for these tests.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import {
  commandProgram,
  installedPackageNames,
  labelledCommandValue,
  packageCommand,
} from "../../../src/repro/package-cli.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";

describe("packageCommand", () => {
  const none = new Set<string>();
  it("npx, npx -p, node_modules/.bin, and a bare command the report shows installed", () => {
    expect(packageCommand("npx foo --bar 1", none)).toMatchObject({
      pkg: "foo",
      command: "foo",
      args: ["--bar", "1"],
      version: null,
    });
    expect(packageCommand("npx @scope/tool@1.2.3 -v", none)).toMatchObject({
      pkg: "@scope/tool",
      command: "tool",
      args: ["-v"],
      version: "1.2.3",
    });
    expect(packageCommand("npx -p some-pkg cmd 'a b'", none)).toMatchObject({
      pkg: "some-pkg",
      command: "cmd",
      args: ["a b"],
    });
    expect(packageCommand("./node_modules/.bin/x --y", none)).toMatchObject({
      pkg: "x",
      command: "x",
      args: ["--y"],
    });
    expect(packageCommand("retire --version", new Set(["retire"]))).toMatchObject({
      pkg: "retire",
      command: "retire",
      args: ["--version"],
      typed: "retire --version",
    });
  });

  it("must not fire: a shell command, a command of no package the report shows, a pipe or a redirection", () => {
    expect(packageCommand("grep shlex package.json", new Set(["grep", "shlex"]))).toBeNull();
    expect(packageCommand("tree", none)).toBeNull();
    expect(packageCommand("retire --version", none)).toBeNull();
    expect(packageCommand("npx foo --bar | head -1", none)).toBeNull();
    expect(packageCommand("npx foo > out.txt", none)).toBeNull();
    expect(packageCommand("node index.js", new Set(["node"]))).toBeNull();
  });
});

describe("installedPackageNames", () => {
  it("an npm list tree, an install line", () => {
    const names = installedPackageNames(
      "└── retire@2.2.5\n$ npm i -g some-cli\n`yarn global add other@1.0.0`",
    );
    expect([...names].sort()).toEqual(["other", "retire", "some-cli"]);
  });
  it("must not fire: an e-mail address or a path with @", () => {
    expect([...installedPackageNames("mail me at me@example.com or see /a/b@2.0")]).toEqual([]);
  });
});

describe("labelledCommandValue", () => {
  it("a template label naming the command, its value on the next line (a remark in parentheses dropped)", () => {
    expect(
      labelledCommandValue(
        "Retire.js version: (retire --version):\n2.2.4 (but 2.2.5 is the one installed)\n",
        "retire --version",
      ),
    ).toBe("2.2.4");
    expect(labelledCommandValue("Version (`tool -v`): 1.0.3", "tool -v")).toBe("1.0.3");
  });
  it("must not fire: a sentence after the label, or another command", () => {
    expect(labelledCommandValue("I ran tool -v: it printed nothing at all", "tool -v")).toBeNull();
    expect(labelledCommandValue("node version: (node --version):\nv12.18.2", "retire --version")).toBeNull();
  });
});

describe("the report's session, read and built", () => {
  const report = [
    "# the CLI reports the wrong version",
    "",
    "**Version (`mycli --version`):**",
    "1.0.0 (but 1.0.1 is installed)",
    "",
    `${f}`,
    "$ npm list -g mycli",
    "└── mycli@1.0.1",
    f,
    "",
    "**Expected behaviour:**",
    f,
    "$ mycli --version",
    "1.0.1",
    f,
  ].join("\n");

  it("the command's run is a program of the package, the label the claim, the Expected session the expectation", () => {
    const parsed = parseReport(report);
    const exp = reportedExpectations(parsed);
    expect(exp.actual.output).toEqual(["1.0.0"]);
    expect(exp.expectedOutput).toEqual(["1.0.1"]);
    const program = completeProgram(parsed, exp.invocation)!;
    expect(program.dependencies).toEqual(["mycli"]);
    expect(program.files[program.entry]).toContain(
      'spawnSync(process.execPath, [_path.join(_dir, _bin), ...["--version"]]',
    );
  });

  it("must not fire: without the package shown installed, a bare command is not run", () => {
    const parsed = parseReport(report.replace("└── mycli@1.0.1", "(nothing)"));
    expect(parsed.blocks.some((b) => b.shellRun?.cli)).toBe(false);
  });
});

describe("commandProgram runs the package's bin (real Node, a package on disk)", () => {
  const dir = mkdtempSync(join(tmpdir(), "f12n-cli-"));
  const pkg = join(dir, "node_modules", "mycli");
  mkdirSync(join(pkg, "bin"), { recursive: true });
  writeFileSync(
    join(pkg, "package.json"),
    JSON.stringify({ name: "mycli", version: "1.0.1", bin: { mycli: "bin/cli" } }),
  );
  // `require.main === module`: the bin runs as its own process, as the shell runs it.
  writeFileSync(
    join(pkg, "bin", "cli"),
    "#!/usr/bin/env node\nif (require.main === module) { console.log(process.argv.slice(2).join(',')); process.exitCode = 3; }\n",
  );
  const runIt = (code: string) => {
    writeFileSync(join(dir, "reproduction.cjs"), code);
    try {
      return {
        out: execFileSync(process.execPath, ["reproduction.cjs"], {
          cwd: dir,
          encoding: "utf8",
          stdio: "pipe",
        }),
        status: 0,
      };
    } catch (e) {
      const err = e as { stdout: string; stderr: string; status: number };
      return { out: err.stdout, err: err.stderr, status: err.status };
    }
  };

  it("prints what the bin prints, with its arguments and exit status", () => {
    const r = runIt(
      commandProgram({
        pkg: "mycli",
        command: "mycli",
        args: ["--version", "a b"],
        version: null,
        typed: "mycli --version 'a b'",
      }),
    );
    expect(r.out).toBe("--version,a b\n");
    expect(r.status).toBe(3);
  });

  it("must not fire: a package without that command fails as a module not found", () => {
    writeFileSync(
      join(pkg, "package.json"),
      JSON.stringify({ name: "mycli", version: "1.0.1", bin: { a: "bin/cli", b: "bin/cli" } }),
    );
    const r = runIt(
      commandProgram({ pkg: "mycli", command: "other", args: [], version: null, typed: "other" }),
    );
    expect(r.status).not.toBe(0);
    expect(r.err).toMatch(/Cannot find module 'mycli\/\.bin\/other'/);
  });
});
