/**
 * dangerous-calls: added code execution (eval, exec, new Function, child_process, os.system, subprocess with
 * shell=True, ...) and new network access (fetch, http.request, requests, urllib, socket, curl, ...). A fix
 * to a failing test has no reason to add either; `allowNetwork` and `allow` (ids) relax it.
 */
import { isScriptFile, languageOf } from "../lines.ts";
import { type LinePattern, scanAddedLines } from "../patterns.ts";
import type { Rule } from "../types.ts";

const lang =
  (...langs: string[]) =>
  (path: string) =>
    langs.includes(languageOf(path));
const py = lang("python");
const js = lang("js");
const script = (p: string) => isScriptFile(p) && !py(p) && !js(p);

/** Code execution patterns. */
export const EXEC_PATTERNS: LinePattern[] = [
  { id: "js-eval", what: "eval", re: /(^|[^\w.$])eval\s*\(/, applies: js },
  {
    id: "js-new-function",
    what: "new Function",
    re: /\bnew\s+Function\s*\(|(^|[^\w.$])Function\s*\(\s*['"`]/,
    applies: js,
  },
  {
    id: "js-child-process",
    what: "child_process",
    re: /\bchild_process\b|\b(execSync|spawnSync|execFileSync|execa|shelljs)\b|\bBun\.spawn|\bDeno\.(run|Command)/,
    applies: js,
  },
  {
    id: "js-vm",
    what: "vm code execution",
    re: /\bnode:vm\b|require\(\s*['"]vm['"]\s*\)|\bvm\.(runIn\w+|Script|compileFunction)\b/,
    applies: js,
  },
  {
    id: "js-string-timer",
    what: "setTimeout/setInterval with a code string",
    re: /\bset(Timeout|Interval)\s*\(\s*['"`]/,
    applies: js,
  },
  {
    id: "js-process-binding",
    what: "process.binding / dlopen",
    re: /\bprocess\.(binding|dlopen)\b/,
    applies: js,
  },
  { id: "python-eval", what: "eval/exec", re: /(^|[^\w.])(eval|exec)\s*\(/, applies: py },
  {
    id: "python-os-system",
    what: "os.system/os.popen/os.exec*/os.spawn*",
    re: /\bos\.(system|popen|exec\w*|spawn\w*|posix_spawn\w*)\s*\(/,
    applies: py,
  },
  {
    id: "python-subprocess-shell",
    what: "subprocess with shell=True",
    re: /\bshell\s*=\s*True\b/,
    applies: py,
  },
  { id: "python-pty", what: "pty.spawn", re: /\bpty\.spawn\b/, applies: py },
  {
    id: "python-dynamic-import",
    what: "__import__/compile",
    re: /\b__import__\s*\(|(^|[^\w.])compile\s*\([^)]*['"]exec['"]/,
    applies: py,
  },
  {
    id: "python-unsafe-load",
    what: "pickle/marshal load",
    re: /\b(pickle|cPickle|marshal|dill)\.loads?\s*\(/,
    applies: py,
  },
  { id: "python-ctypes", what: "ctypes", re: /\bimport\s+ctypes\b|\bctypes\.(CDLL|cdll)/, applies: py },
  {
    id: "go-exec",
    what: "os/exec",
    re: /"os\/exec"|\bexec\.Command(Context)?\s*\(|\bsyscall\.(Exec|ForkExec)\b/,
    applies: lang("go"),
  },
  {
    id: "rust-command",
    what: "std::process::Command",
    re: /\bprocess::Command\b|\bCommand::new\s*\(/,
    applies: lang("rust"),
  },
  {
    id: "java-exec",
    what: "Runtime.exec/ProcessBuilder",
    re: /\bRuntime\.getRuntime\(\)\.exec\b|\bnew\s+ProcessBuilder\b/,
    applies: lang("java"),
  },
  {
    id: "ruby-exec",
    what: "system/exec/eval",
    re: /(^|[^\w.])(system|exec|eval|spawn)\s*[( ]|%x[({[]|`[^`]+`|\bOpen3\b/,
    applies: lang("ruby"),
  },
  {
    id: "php-exec",
    what: "exec/system/eval",
    re: /(^|[^\w>:$])(eval|exec|system|shell_exec|passthru|popen|proc_open)\s*\(/,
    applies: lang("php"),
  },
  {
    id: "shell-pipe-to-shell",
    what: "downloaded code piped to a shell",
    re: /\|\s*(sudo\s+)?(ba|z|da)?sh\b|\beval\s+"?\$\(/,
    applies: script,
  },
];

/** Network access patterns. */
export const NETWORK_PATTERNS: LinePattern[] = [
  {
    id: "js-network",
    what: "network call",
    re: /(^|[^\w.$])fetch\s*\(|\b(https?|http2|net|tls|dgram)\.(request|get|connect|createConnection|Agent)\s*\(|\bnew\s+(WebSocket|XMLHttpRequest|EventSource)\b|\bnode:(https?|net|tls|dgram|http2)\b|require\(\s*['"](https?|net|tls|dgram|http2|axios|node-fetch|undici|got|ws)['"]\s*\)|from\s+['"](axios|node-fetch|undici|got|ws|superagent)['"]|\baxios(\.\w+)?\s*\(/,
    applies: js,
  },
  {
    id: "python-network",
    what: "network call",
    re: /\b(import|from)\s+(requests|httpx|aiohttp|urllib3?|urllib\.request|http\.client|socket|ssl|ftplib|smtplib|telnetlib|paramiko|websockets?|pycurl)\b|\b(requests|httpx|aiohttp|urllib3|socket|ftplib|smtplib|paramiko)\.\w+\s*\(|\burllib\.request\.|\burlopen\s*\(|\bhttp\.client\./,
    applies: py,
  },
  {
    id: "go-network",
    what: "network call",
    re: /"net(\/http)?"|\bhttp\.(Get|Post|Head|NewRequest|DefaultClient)\b|\bnet\.(Dial|Listen)\w*\s*\(/,
    applies: lang("go"),
  },
  {
    id: "rust-network",
    what: "network call",
    re: /\bstd::net\b|\b(TcpStream|UdpSocket|TcpListener)\b|\breqwest\b|\bureq\b|\bhyper::/,
    applies: lang("rust"),
  },
  {
    id: "java-network",
    what: "network call",
    re: /\bnew\s+(URL|Socket|ServerSocket)\s*\(|\bHttp(Client|URLConnection)\b|\bjava\.net\./,
    applies: lang("java"),
  },
  {
    id: "ruby-network",
    what: "network call",
    re: /\bNet::HTTP\b|\bopen-uri\b|\bTCPSocket\b|\bFaraday\b|\bHTTParty\b/,
    applies: lang("ruby"),
  },
  {
    id: "shell-network",
    what: "network command",
    re: /(^|[\s;&|("'])(curl|wget|nc|ncat|netcat|telnet|ssh|scp|rsync|ftp)\s/,
    applies: script,
  },
];

export const dangerousCalls: Rule = {
  id: "dangerous-calls",
  enabled: (c) => c.dangerousCalls.enabled,
  check({ patch, config }) {
    const cfg = config.dangerousCalls;
    const patterns = cfg.allowNetwork ? EXEC_PATTERNS : [...EXEC_PATTERNS, ...NETWORK_PATTERNS];
    return scanAddedLines(patch, "dangerous-calls", patterns, cfg.allow);
  },
};
