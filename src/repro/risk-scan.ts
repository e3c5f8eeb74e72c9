/**
 * Risky calls in a model-written script, found BEFORE it runs. The sandbox stays the boundary (no network,
 * no capabilities, read-only root): a finding does not stop the run, it is listed in the report so the
 * maintainer knows what the script tried to do. Pure: text in, findings out.
 */

export type RiskKind =
  | "subprocess"
  | "eval"
  | "network"
  | "file-deletion"
  | "write-outside-workspace"
  | "process-kill"
  | "infinite-loop";

export interface RiskFinding {
  kind: RiskKind;
  /** Workspace-relative file the call is in. */
  file: string;
  /** 1-based line. */
  line: number;
  /** The matched text, shortened. */
  match: string;
  /** What the call does, one phrase ("runs a shell command"). */
  what: string;
}

interface Rule {
  kind: RiskKind;
  what: string;
  re: RegExp;
}

const PYTHON_RULES: Rule[] = [
  {
    kind: "subprocess",
    what: "starts a process",
    re: /\bsubprocess\.\w+\s*\(|\bos\.(?:system|popen|exec\w*|spawn\w*|posix_spawn\w*)\s*\(|\bpty\.spawn\s*\(|\bcommands\.getoutput\s*\(/,
  },
  {
    kind: "eval",
    what: "evaluates code from a string",
    re: /(?<![\w.])(?:eval|exec|compile)\s*\(|\b__import__\s*\(/,
  },
  {
    kind: "network",
    what: "opens a network connection",
    re: /\bimport\s+(?:socket|requests|httpx|aiohttp|urllib3|ftplib|smtplib|telnetlib|paramiko)\b|\bfrom\s+(?:socket|requests|httpx|aiohttp|urllib3|urllib\.request|http\.client|ftplib|smtplib)\s+import\b|\bimport\s+(?:urllib\.request|http\.client)\b|\bsocket\.(?:socket|create_connection)\s*\(|\brequests\.\w+\s*\(|\burlopen\s*\(|\bHTTPS?Connection\s*\(/,
  },
  {
    kind: "file-deletion",
    what: "deletes files",
    re: /\bshutil\.rmtree\s*\(|\bos\.(?:remove|unlink|rmdir|removedirs)\s*\(|\.unlink\s*\(|\.rmdir\s*\(|\brm\s+-[a-zA-Z]*r[a-zA-Z]*f?\b/,
  },
  {
    kind: "write-outside-workspace",
    what: "writes outside the working directory",
    re: /\bopen\s*\(\s*(?:[rbfu]?['"])(?:\/|~|\.\.\/)[^'"]*['"]\s*,\s*[rbfu]?['"][^'"]*[wax+]|\bPath\s*\(\s*['"](?:\/|~|\.\.\/)[^'"]*['"]\s*\)\s*\.\s*(?:write_text|write_bytes|touch|mkdir)\s*\(|\bos\.(?:chmod|chown|rename|replace|makedirs|mkdir)\s*\(\s*['"](?:\/|~|\.\.\/)/,
  },
  {
    kind: "process-kill",
    what: "kills processes",
    re: /\bos\.(?:kill|killpg)\s*\(|\bsignal\.SIGKILL\b|\.kill\s*\(\s*\)|\bpkill\b|\bkillall\b/,
  },
  {
    kind: "infinite-loop",
    what: "loops forever unless something breaks out",
    re: /^\s*while\s+(?:True|1)\s*:/,
  },
];

const JS_RULES: Rule[] = [
  {
    kind: "subprocess",
    what: "starts a process",
    re: /\bchild_process\b|\b(?:execSync|execFileSync|spawnSync|execFile|spawn|fork)\s*\(|(?<![\w.])exec\s*\(/,
  },
  {
    kind: "eval",
    what: "evaluates code from a string",
    re: /(?<![\w.])eval\s*\(|\bnew\s+Function\s*\(|\bvm\.(?:runIn\w+|Script|compileFunction)\b|\bnode:vm\b/,
  },
  {
    kind: "network",
    what: "opens a network connection",
    re: /(?<![\w.])fetch\s*\(|\brequire\(\s*['"](?:node:)?(?:net|http|https|http2|dgram|tls|dns)['"]\s*\)|\bfrom\s+['"](?:node:)?(?:net|http|https|http2|dgram|tls|dns)['"]|\bnew\s+(?:WebSocket|XMLHttpRequest)\s*\(|\b(?:axios|got|undici|node-fetch)\b/,
  },
  {
    kind: "file-deletion",
    what: "deletes files",
    re: /\bfs(?:Promises)?\.(?:rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync)\s*\(|(?<![\w.])(?:rmSync|unlinkSync|rmdirSync)\s*\(|\brimraf\b|\brm\s+-[a-zA-Z]*r[a-zA-Z]*f?\b/,
  },
  {
    kind: "write-outside-workspace",
    what: "writes outside the working directory",
    re: /\b(?:writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|mkdir|mkdirSync|symlink|symlinkSync|chmod|chmodSync)\s*\(\s*['"`](?:\/|~|\.\.\/)/,
  },
  {
    kind: "process-kill",
    what: "kills processes",
    re: /\bprocess\.kill\s*\(|\bSIGKILL\b|\bpkill\b|\bkillall\b/,
  },
  {
    kind: "infinite-loop",
    what: "loops forever unless something breaks out",
    re: /\bwhile\s*\(\s*(?:true|1)\s*\)|\bfor\s*\(\s*;\s*;\s*\)/,
  },
];

/** Comments removed line by line (kept line numbers); strings are left, since paths and commands live there. */
function stripComment(line: string, python: boolean): string {
  if (python) return line.replace(/(^|\s)#.*$/, "$1");
  return line.replace(/(^|[^:])\/\/.*$/, "$1");
}

function rulesFor(path: string): { rules: Rule[]; python: boolean } | null {
  if (/\.py$/.test(path)) return { rules: PYTHON_RULES, python: true };
  if (/\.[cm]?[jt]sx?$/.test(path)) return { rules: JS_RULES, python: false };
  return null;
}

/** Every risky call of every source file, in file then line order; at most one finding per kind and line. */
export function scanRisks(files: Record<string, string>): RiskFinding[] {
  const findings: RiskFinding[] = [];
  for (const [file, code] of Object.entries(files)) {
    const spec = rulesFor(file);
    if (!spec) continue;
    const lines = code.split("\n");
    let inBlockComment = false;
    lines.forEach((raw, i) => {
      let line = raw;
      if (!spec.python) {
        if (inBlockComment) {
          const end = line.indexOf("*/");
          if (end < 0) return;
          line = line.slice(end + 2);
          inBlockComment = false;
        }
        line = line.replace(/\/\*.*?\*\//g, "");
        const open = line.indexOf("/*");
        if (open >= 0) {
          inBlockComment = true;
          line = line.slice(0, open);
        }
      }
      line = stripComment(line, spec.python);
      for (const rule of spec.rules) {
        const m = rule.re.exec(line);
        if (!m) continue;
        const match = m[0].trim();
        findings.push({
          kind: rule.kind,
          file,
          line: i + 1,
          match: match.length > 60 ? `${match.slice(0, 57)}...` : match,
          what: rule.what,
        });
      }
    });
  }
  return findings;
}

/** One line per finding, for the report's `risks`: "`reproduction.py:3` starts a process (`subprocess.run(`)". */
export function describeRisk(f: RiskFinding): string {
  return `\`${f.file}:${f.line}\` ${f.what} (\`${f.match.replace(/`/g, "'")}\`)`;
}
