/**
 * Static check before running: does the program need something the sandbox cannot have?
 * Code that reads stdin, files the report does not include, a network, or a service → NEEDS_INFO with
 * specific questions, instead of a run that hangs or fails for an unrelated reason.
 */
import type { Program } from "./complete.ts";

export interface NeedsFinding {
  /** What is missing, for the report ("reads from stdin (`input()`)"). */
  reason: string;
  /** The question for the reporter. */
  question: string;
}

function stripComments(code: string, runtime: Program["runtime"]): string {
  return runtime === "python"
    ? code.replace(/#[^\n]*/g, "")
    : code.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "");
}

export function findStaticNeeds(program: Program): NeedsFinding[] {
  const findings: NeedsFinding[] = [];
  const provided = new Set(Object.keys(program.files));
  const code = stripComments(Object.values(program.files).join("\n"), program.runtime);
  const py = program.runtime === "python";

  const stdin = py
    ? /(?<![\w.])(input\s*\(|sys\.stdin\b|fileinput\.input\s*\()/.exec(code)
    : /(\breadline\b[\s\S]*\bcreateInterface\b|process\.stdin\b|(?<![\w.])prompt\s*\()/.exec(code);
  if (stdin) {
    findings.push({
      reason: `the code reads from standard input (\`${stdin[0].replace(/\s+/g, " ").slice(0, 40)}\`)`,
      question:
        "The code waits for keyboard input. What exactly do you type (each line), so the reproduction can feed it in?",
    });
  }

  const written = new Set<string>();
  const writeRes = py
    ? [
        /open\(\s*['"]([^'"]+)['"]\s*,\s*['"][wax]/g,
        /\.to_csv\(\s*['"]([^'"]+)['"]/g,
        /Path\(\s*['"]([^'"]+)['"]\s*\)\.write_/g,
      ]
    : [/write(?:File)?(?:Sync)?\(\s*['"]([^'"]+)['"]/g, /appendFile(?:Sync)?\(\s*['"]([^'"]+)['"]/g];
  for (const re of writeRes) for (const m of code.matchAll(re)) written.add(m[1]!);
  const readRes = py
    ? [
        /(?<![\w.])open\(\s*['"]([^'"]+)['"]\s*(?:\)|,\s*['"]r)/g,
        /read_(?:csv|json|excel|parquet|table)\(\s*['"]([^'"]+)['"]/g,
        /Path\(\s*['"]([^'"]+)['"]\s*\)\.(?:read_text|read_bytes|open)\(/g,
        /load(?:txt)?\(\s*['"]([^'"]+\.\w+)['"]/g,
      ]
    : [
        /read(?:File)?(?:Sync)?\(\s*['"]([^'"]+)['"]/g,
        /createReadStream\(\s*['"]([^'"]+)['"]/g,
        /require\(\s*['"](\.[^'"]+\.json)['"]\s*\)/g,
      ];
  const missingFiles = new Set<string>();
  for (const re of readRes) {
    for (const m of code.matchAll(re)) {
      const f = m[1]!;
      if (/^(https?:|\/dev\/|\/proc\/|\/etc\/)/.test(f)) continue;
      const rel = f.replace(/^\.\//, "");
      if (!provided.has(rel) && !written.has(f)) missingFiles.add(f);
    }
  }
  for (const f of missingFiles) {
    findings.push({
      reason: `the code reads \`${f}\`, which the report does not include`,
      question: `Could you attach \`${f}\` (or a few lines with the same shape) so the reproduction can read it?`,
    });
  }

  const network = py
    ? /\b(requests\.(get|post|put|patch|delete|head|request|Session)|urlopen\s*\(|httpx\.|aiohttp\.|urllib3\.|http\.client\.HTTPS?Connection|socket\.(create_connection|socket)|smtplib\.SMTP|ftplib\.FTP)\b/.exec(
        code,
      )
    : /(\bfetch\s*\(\s*['"`]https?:|\baxios\b|\bhttps?\.(get|request)\s*\(|\bnet\.(connect|createConnection)\s*\(|\bnew\s+WebSocket\s*\(|\bgot\s*\(\s*['"`]https?:)/.exec(
        code,
      );
  if (network) {
    findings.push({
      reason: `the code needs a network connection (\`${network[0].trim()}\`), and the sandbox runs offline`,
      question:
        "The code makes a network request. Could you share the response it gets (status, headers, body), or a version that reads that response from a string?",
    });
  }
  const service =
    /\b(psycopg2?\.connect|pymysql\.connect|mysql\.connector|redis\.(Redis|StrictRedis)|MongoClient|mongoose\.connect|createPool|new\s+Pool\s*\(|boto3\.|pika\.|kafka|Sequelize\s*\(|createClient\s*\(\s*\{?\s*url)|(postgres(ql)?|mysql|mongodb(\+srv)?|redis|amqp):\/\//.exec(
      code,
    );
  if (service) {
    findings.push({
      reason: `the code connects to an external service (\`${service[0].trim()}\`), which the sandbox does not have`,
      question:
        "The code talks to a database or service. Which server and version do you use, and can the problem be shown without it (e.g. with an in-memory stand-in or the data inlined)?",
    });
  }
  return findings;
}
