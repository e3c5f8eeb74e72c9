/**
 * The thirty-first red team's inputs (issue 14, host-side steps; `redteam31-cases.json`, first try and after in
 * `redteam31-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam31-step.ts`) — patch headers that name two files, duplicate keys in build files, a second lockfile npm
 * prefers (real install container, local registry), git-directory indirection files naming a host repository,
 * overlapping and lying zip entries, non-finite numbers in the configuration, runtime version files as names,
 * payload fields GitHub sends as null, job rows the code does not know, the modes of what the host writes under
 * umask 000, caps before escaping, character references in a title, list markers and footnotes in a report, and
 * Actions group markers in a log — with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's
 * directories. Each case must be contained or refused with a reason, its step's host CPU bounded
 * (host-wave-suite.ts). The lockfile and runtime cases need the sandbox image.
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "thirty-first red team: patch headers, duplicate build keys, second lockfiles, git indirection files, zip overlaps, config numbers, null payload fields, state file modes, escaping caps",
  n: 31,
  // Two processes, not fifteen (one per first word): the cases share the modules they load, and the file stays
  // within CI's CPU. The engine's cases (real install container, runtime images, host git) in one, the rest in the
  // other; each bounded by its own CPU, the groups by a generous wall time on a loaded host.
  groupOf: (id) => (/^(lockfile|runtime|git)-/.test(id) ? "engine" : "host"),
  groupTimeoutMs: 600_000,
});
