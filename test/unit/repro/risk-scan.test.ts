/**
 * The risky-call scanner run on model-written scripts before they run.
 */
import { describe, expect, it } from "vitest";
import { describeRisk, scanRisks } from "../../../src/repro/risk-scan.ts";

const kinds = (files: Record<string, string>) => scanRisks(files).map((f) => `${f.line}:${f.kind}`);

describe("scanRisks", () => {
  it("finds Python processes, eval, network, deletion, writes outside cwd, kills and endless loops", () => {
    const code = [
      "import os, subprocess", // 1
      "os.system('ls')", // 2
      "subprocess.Popen(['sh'])", // 3
      "eval(user_code)", // 4
      "import requests", // 5
      "from urllib.request import urlopen", // 6
      "shutil.rmtree(tmp)", // 7
      "os.remove('x.txt')", // 8
      "open('/etc/passwd', 'w').write('x')", // 9
      "open('../outside.txt', 'a')", // 10
      "os.kill(1, 9)", // 11
      "while True:", // 12
      "    pass", // 13
      "open('data.txt', 'w').write('ok')  # inside cwd: fine", // 14
      "x = evaluate(1)  # not eval", // 15
    ].join("\n");
    expect(kinds({ "reproduction.py": code })).toEqual([
      "2:subprocess",
      "3:subprocess",
      "4:eval",
      "5:network",
      "6:network",
      "7:file-deletion",
      "8:file-deletion",
      "9:write-outside-workspace",
      "10:write-outside-workspace",
      "11:process-kill",
      "12:infinite-loop",
    ]);
  });

  it("finds JavaScript child_process, eval/Function, fetch/http, fs.rm, absolute writes, process.kill, for(;;)", () => {
    const code = [
      'const { execSync } = require("child_process");', // 1
      'execSync("rm -rf /")', // 2
      "new Function('return 1')()", // 3
      "await fetch('https://example.com')", // 4
      'import http from "node:http";', // 5
      'fs.rmSync("dir", { recursive: true })', // 6
      'fs.writeFileSync("/etc/hosts", "x")', // 7
      "process.kill(process.pid)", // 8
      "for (;;) {}", // 9
      "// fetch('https://ignored.example') in a comment", // 10
      "/* eval(x)", // 11
      "   still a comment */ const ok = 1;", // 12
      'fs.writeFileSync("out.txt", "inside")', // 13
      "const args = [...rest];", // 14
    ].join("\n");
    expect(kinds({ "reproduction.mjs": code })).toEqual([
      "1:subprocess",
      "2:subprocess",
      "2:file-deletion",
      "3:eval",
      "4:network",
      "5:network",
      "6:file-deletion",
      "7:write-outside-workspace",
      "8:process-kill",
      "9:infinite-loop",
    ]);
  });

  it("scans every source file, skips data files, and describes each finding on one line", () => {
    const found = scanRisks({
      "reproduction.py": "import helper\nhelper.go()\n",
      "helper.py": "import socket\ndef go():\n    socket.create_connection(('x', 1))\n",
      "data.json": '{"cmd": "os.system(1)"}',
    });
    expect(found.map((f) => `${f.file}:${f.line}:${f.kind}`)).toEqual([
      "helper.py:1:network",
      "helper.py:3:network",
    ]);
    expect(describeRisk(found[0]!)).toBe("`helper.py:1` opens a network connection (`import socket`)");
    expect(scanRisks({ "a.py": "print('hello')\n", "b.ts": "console.log(1)\n" })).toEqual([]);
  });
});
