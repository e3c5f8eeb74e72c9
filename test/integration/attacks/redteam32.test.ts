/**
 * The thirty-second red team's inputs (issue 14, host-side steps; `redteam32-cases.json`, first try and after in
 * `redteam32-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam32-step.ts`) — diff path prefixes other than a/ and b/, creation and deletion headers that disagree with
 * the tree, integrity values npm cannot check, lockfile fields of another JSON type (real install container, local
 * registry), credentials inside the operator's registry URLs (real install container, an index on loopback), ids
 * that are not exact integers, the App's other paths and methods, caps that cut a surrogate pair or a fence, GFM
 * tables and link reference definitions in a report, YAML keys that are not strings and tags that change a type,
 * text encodings other than UTF-8, SQL metacharacters in stored text, the runner's command files and Action inputs
 * holding line breaks — with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each
 * case must be contained or refused with a reason, its step's host CPU bounded (host-wave-suite.ts). The lockfile
 * cases need the sandbox image.
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "thirty-second red team: diff prefixes, creation headers, integrity values, field types, registry userinfo, ids, App routes, caps that cut, tables, link references, YAML keys and tags, encodings, SQL text, command files, input line breaks",
  n: 32,
  // Two processes: the cases share the modules they load, and the file stays within CI's CPU. The engine's cases
  // (real install container) in one, the rest in the other; each bounded by its own CPU, the groups by a generous
  // wall time on a loaded host.
  groupOf: (id) => (/^lockfile-(fields|registry)/.test(id) ? "engine" : "host"),
  groupTimeoutMs: 600_000,
  // The report cases parse four 65,536-character reports each: 2 s a report (twice the 1 s parse limit; see the step).
  cpuMs: (id) => (id.startsWith("report-") ? 4 * 2_000 : undefined),
});
