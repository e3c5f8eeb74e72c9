/**
 * Builds a command that reruns only the given test ids (the fix loop's flaky triage reruns the failing
 * tests on the base commit). Ids are the ones runTests reports (see TestCase.id).
 */
import { UsageError } from "../../core/errors.ts";
import { narrowCommand, RUNNERS } from "../command-narrow.ts";
import { shellQuote } from "./invocation.ts";
import type { TestCommand } from "./types.ts";

/** Escapes a string for use inside a JavaScript/RE2 regular expression. */
function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

/**
 * A title matched in any of its Unicode normal forms: a log can carry a test's name in NFD while the source (and so
 * the runner) has it in NFC, or the other way (f14c item 5). Each form is the same name, escaped and anchored with the
 * rest, so the pattern selects that test and no other.
 */
function anyForm(s: string): string {
  const forms = unique([s, s.normalize("NFC"), s.normalize("NFD")]).map(escapeRegex);
  return forms.length === 1 ? forms[0]! : `(?:${forms.join("|")})`;
}

/**
 * A pytest node id with its Python names in NFKC, as the interpreter stores identifiers (PEP 3131): the file part is
 * a path and kept, a parametrize id in brackets is the runner's own text and kept.
 */
function pytestId(id: string): string {
  const at = id.indexOf("::");
  if (at === -1) return id;
  const rest = id.slice(at);
  const bracket = rest.indexOf("[");
  const names = bracket === -1 ? rest : rest.slice(0, bracket);
  return `${id.slice(0, at)}${names.normalize("NFKC")}${bracket === -1 ? "" : rest.slice(bracket)}`;
}

/** Splits a JS-runner id `file > suite > name` into its file and its title path. */
export function splitJsId(id: string): { file: string | null; titles: string[] } {
  const parts = id.split(" > ");
  const first = parts[0] ?? "";
  if (parts.length > 1 && /\.[cm]?[jt]sx?$/.test(first)) return { file: first, titles: parts.slice(1) };
  return { file: null, titles: parts };
}

/** Splits a go id `import/path.TestName[/subtest]` into package and top-level test name. */
export function splitGoId(id: string): { pkg: string; test: string } {
  // Go identifiers are Unicode letters and digits (`TestCafé`), with combining marks when the log is in NFD.
  const m = /\.((?:Test|Example|Fuzz|Benchmark)[\p{L}\p{M}\p{N}_]*)(?=\/|$)/u.exec(id);
  if (!m) return { pkg: "./...", test: id };
  return { pkg: id.slice(0, m.index) || "./...", test: m[1] ?? id };
}

/** A TestCommand that runs only `testIds`. Throws a UsageError for an empty list or an unfilterable framework. */
export function filterCommand(command: TestCommand, testIds: string[]): TestCommand {
  const ids = unique(testIds.map((t) => t.trim()).filter(Boolean));
  if (ids.length === 0) throw new UsageError("no test ids to filter on", "pass at least one test id");
  const detectedBy = `${command.detectedBy}, filtered to ${ids.length} test${ids.length === 1 ? "" : "s"}`;
  const make = (text: string): TestCommand => ({
    framework: command.framework,
    command: text,
    detectedBy,
    ...(command.setup ? { setup: command.setup } : {}),
  });

  // The repository's own command, narrowed (its env prefixes, wrappers and config flags kept); the plain
  // framework command only when the runner cannot be found in it.
  const narrow = (selection: string[], plain: string, afterSeparator: string[] = []): TestCommand => {
    const fw = command.framework as keyof typeof RUNNERS;
    // vitest without `run` watches where a terminal is attached: a rerun always runs once.
    const original =
      fw === "vitest" && !/(^|[\s;&|(/])vitest\s+run(?=\s|$)/.test(command.command)
        ? command.command.replace(/(^|[\s;&|(/])vitest(?=\s|$)/, "$1vitest run")
        : command.command;
    const kept = fw in RUNNERS ? narrowCommand(original, RUNNERS[fw], selection, afterSeparator) : null;
    return make(kept ?? plain);
  };
  switch (command.framework) {
    case "pytest": {
      const sel = unique(ids.map(pytestId)).map(shellQuote);
      return narrow(sel, `python3 -m pytest ${sel.join(" ")}`);
    }
    case "node-test": {
      const split = ids.map(splitJsId);
      const files = unique(split.flatMap((s) => (s.file ? [s.file] : [])));
      // Node matches the pattern against each test's own name; suites are listed too so their children run.
      const names = unique(split.flatMap((s) => s.titles));
      const pattern = `^(?:${names.map(anyForm).join("|")})$`;
      const sel = [`--test-name-pattern=${shellQuote(pattern)}`, ...files.map(shellQuote)];
      return narrow(sel, `node --test ${sel.join(" ")}`);
    }
    case "jest":
    case "vitest":
    case "mocha": {
      const split = ids.map(splitJsId);
      const files = unique(split.flatMap((s) => (s.file ? [s.file] : [])));
      const full = unique(split.map((s) => s.titles.join(" ")));
      // vitest 1 matches `-t` against a full name that starts with a space (the file's unnamed suite joined in:
      // " splitByCase new-name-value => …"); later versions and jest/mocha have none.
      const lead = command.framework === "vitest" ? " ?" : "";
      const pattern = shellQuote(`^${lead}(?:${full.map(anyForm).join("|")})$`);
      const fileArgs = files.map(shellQuote);
      if (command.framework === "jest")
        return narrow([...fileArgs, "-t", pattern], ["jest", ...fileArgs, "-t", pattern].join(" "));
      if (command.framework === "vitest")
        return narrow([...fileArgs, "-t", pattern], ["vitest run", ...fileArgs, "-t", pattern].join(" "));
      return narrow([...fileArgs, "--grep", pattern], ["mocha", ...fileArgs, "--grep", pattern].join(" "));
    }
    case "go": {
      const split = ids.map(splitGoId);
      const pkgs = unique(split.map((s) => s.pkg));
      const tests = unique(split.map((s) => s.test));
      const sel = ["-run", shellQuote(`^(?:${tests.map(anyForm).join("|")})$`), ...pkgs.map(shellQuote)];
      return narrow(sel, `go test ${sel.join(" ")}`);
    }
    case "cargo": {
      // Rust identifiers are NFC (the compiler normalizes them): a test path is one in that form.
      const names = unique(ids.map((id) => id.normalize("NFC"))).map(shellQuote);
      return narrow([], `cargo test -- --exact ${names.join(" ")}`, ["--exact", ...names]);
    }
    case "unknown":
      throw new UsageError(
        `cannot rerun single tests of an unrecognised test command: ${command.command}`,
        "use a command Retrace recognises (pytest, node --test, jest, vitest, mocha, go test, cargo test)",
      );
  }
}
