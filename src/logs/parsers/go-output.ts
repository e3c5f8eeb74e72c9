/**
 * Reading what one Go test printed: `file_test.go:12: message` log lines, or a panic with its
 * goroutine trace. Shared by the plain and `-json` go parsers.
 */
import type { FailureDraft, ParserSink } from "../parser.ts";

const LOG_LINE = /^\s*([\w./-]+\.go):(\d+): (.*)$/;
const PANIC = /^\s*panic: (.*?)(?: \[recovered\])?$/;
const FRAME = /^\t((?:[A-Za-z]:)?\/\S+\.go|\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$/;

const RACE_FRAME = /^\s+((?:[A-Za-z]:)?\/\S+\.go|\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$/;

/**
 * Reads `-race` reports (`WARNING: DATA RACE` … `==================`): the first frame inside the repository
 * is where the race is. Feed every line; `location` is the last report's.
 */
export class RaceReports {
  private inReport = false;
  location: { file: string; line: number } | null = null;

  constructor(private readonly sink: ParserSink) {}

  /** True when the line belongs to a race report. */
  line(text: string): boolean {
    if (text === "WARNING: DATA RACE") {
      this.inReport = true;
      this.location = null;
      return true;
    }
    if (!this.inReport) return text === "==================";
    if (text === "==================") {
      this.inReport = false;
      return true;
    }
    const f = RACE_FRAME.exec(text);
    if (f && this.location === null) {
      const file = this.sink.path(f[1]!);
      if (!file.startsWith("/") && !/^[A-Za-z]:\//.test(file) && !file.includes("/pkg/mod/"))
        this.location = { file, line: Number(f[2]) };
    }
    return true;
  }
}

export function goFailureFromOutput(
  id: string,
  output: readonly string[],
  sink: ParserSink,
  span: { start: number; end: number },
  race: { file: string; line: number } | null = null,
): FailureDraft | null {
  // A race report printed inside the test's own output (go test -json) names the place.
  const own = new RaceReports(sink);
  for (const l of output) own.line(l.replace(/^\s*$/, ""));
  race = own.location ?? race;
  const at = id.search(/\.(?:Test|Example|Fuzz|Benchmark)/);
  const pkg = at > 0 ? id.slice(0, at) : null;
  let file: string | null = null;
  let line: number | null = null;
  let errorType: string | null = null;
  const messages: string[] = [];
  let panicMessage: string | null = null;
  /** The line before the current one: a trace's function line, above its file line. */
  let previous = "";
  for (const l of output) {
    const above = previous;
    previous = l;
    if (/^\s*(?:=== (?:RUN|PAUSE|CONT|NAME)|--- (?:FAIL|PASS|SKIP):)/.test(l)) continue;
    const p = PANIC.exec(l);
    if (p && panicMessage === null) {
      panicMessage = p[1]!;
      errorType = "panic";
      continue;
    }
    if (panicMessage !== null) {
      const f = FRAME.exec(l);
      if (f && file === null) {
        const mapped = inCheckout(gopathInPackage(sink.path(f[1]!), pkg), above, pkg);
        // The first frame inside the repository (GOROOT and module cache stay absolute; `_testmain.go` is the
        // test binary's generated main, in no repository).
        if (
          !mapped.startsWith("/") &&
          !/^[A-Za-z]:\//.test(mapped) &&
          !mapped.includes("/pkg/mod/") &&
          !/(?:^|\/)_testmain\.go$/.test(mapped)
        ) {
          file = mapped;
          line = Number(f[2]);
        }
      }
      continue;
    }
    const m = LOG_LINE.exec(l);
    if (m) {
      if (file === null) {
        file = sink.path(m[1]!);
        line = Number(m[2]);
      }
      if (messages.length < 30) messages.push(m[3]!);
    } else if (messages.length > 0 && messages.length < 30 && /^\s{8,}\S/.test(l)) {
      // Continuation of a multi-line t.Errorf message.
      messages.push(l.trim());
    }
  }
  // `testing.go:1319: race detected during execution of test`: the test raced; the report says where.
  if (messages.some((m) => m === "race detected during execution of test")) {
    errorType = "data race";
    if (race) {
      file = race.file;
      line = race.line;
    } else if (file && /(?:^|\/)testing\.go$/.test(file)) {
      file = null;
      line = null;
    }
  }
  const message = panicMessage ?? messages.join("\n");
  const stack = output.join("\n").trim();
  if (!message && !stack) return null;
  return {
    category: "test",
    test: id,
    file,
    line,
    errorType,
    message: message || "test failed",
    stack: stack || null,
    start: span.start,
    end: span.end,
  };
}

/**
 * A frame under GOPATH (`/go/src/github.com/x/y/sub/a_test.go`) in the test's own package directory: the base name,
 * which the package's directory is put before like go's own `a_test.go:12:` lines. Anything else as it was.
 */
function gopathInPackage(file: string, pkg: string | null): string {
  if (pkg === null || !/^(?:[A-Za-z]:)?\//.test(file)) return file;
  const tail = `/src/${pkg}/`;
  const at = file.lastIndexOf(tail);
  if (at < 0) return file;
  const base = file.slice(at + tail.length);
  return /^[\w.-]+\.go$/.test(base) ? base : file;
}

/** A known code host's repository part of an import path (`github.com/x/y`, Go's own `golang.org/x/text`). */
const REPO_OF =
  /^(?:(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)\/[^/]+|golang\.org\/x)\/([^/]+)/;

/**
 * A trace frame's file under a checkout the log does not name (a reporter's machine: `/Users/me/dev/text/language/
 * match.go`) whose function line above it (`golang.org/x/text/language.regionGroupDist(…)`) is in the failing test's
 * own repository: the path from the repository's directory on, when the file's directory ends with the repository's
 * name and the package's directory in it (`text/language`). A vendored or cached copy, another repository's package
 * or a directory that does not end so stays as it was (absolute, so no place).
 */
function inCheckout(file: string, fnLine: string, testPkg: string | null): string {
  if (testPkg === null || !/^(?:[A-Za-z]:)?\//.test(file) || /\/(?:vendor|pkg\/mod)\//.test(file))
    return file;
  const fn = FUNC_FRAME.exec(fnLine);
  const repo = fn ? REPO_OF.exec(fn[1]!) : null;
  if (!repo || !(testPkg === repo[0] || testPkg.startsWith(`${repo[0]}/`))) return file;
  const sub = fn![1]!.slice(repo[0].length);
  const tail = `/${repo[1]}${sub}/`;
  const at = file.lastIndexOf(tail);
  if (at < 0) return file;
  const base = file.slice(at + tail.length);
  return /^[\w.-]+\.go$/.test(base) ? `${sub.slice(1)}${sub ? "/" : ""}${base}` : file;
}

/** The module root of a set of import paths: a known host's `host/owner/repo[/vN]`, else their common prefix (two or more). */
function moduleRoot(pkgs: readonly string[]): string | null {
  if (pkgs.length === 0) return null;
  const host =
    /^(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)\/[^/]+\/[^/]+(?:\/v\d+(?=\/|$))?/.exec(
      pkgs[0]!,
    );
  if (host && pkgs.every((p) => p === host[0] || p.startsWith(`${host[0]}/`))) return host[0];
  if (pkgs.length < 2) return null;
  let common = pkgs[0]!.split("/");
  for (const p of pkgs.slice(1)) {
    const parts = p.split("/");
    let i = 0;
    while (i < common.length && i < parts.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  return common.length > 0 ? common.join("/") : null;
}

const FUNC_FRAME = /^((?:[\w.~-]+\/)*[\w~-]+)\.\S*\(/;

/**
 * A goroutine trace pairs a function (`example.org/shop/cart.Total(...)`) with its file
 * (`\tcart/cart.go:15`, repository-relative once the runner's checkout path is taken off): the package
 * `example.org/shop/cart` lives in `cart/`, so the module root is `example.org/shop`. The first pair that
 * tells it wins; null when no frame inside the repository was printed.
 */
function rootFromFrames(stacks: readonly (string | null | undefined)[]): string | null {
  for (const stack of stacks) {
    if (!stack) continue;
    const lines = stack.split("\n").filter((l) => l.trim() !== "");
    for (let i = 0; i + 1 < lines.length; i++) {
      const fn = FUNC_FRAME.exec(lines[i]!);
      const at = fn ? /^\t([\w./-]+\.go):\d+/.exec(lines[i + 1]!) : null;
      if (!fn || !at || at[1]!.startsWith("/") || at[1]!.startsWith("..")) continue;
      const pkg = fn[1]!;
      const dir = at[1]!.includes("/") ? at[1]!.slice(0, at[1]!.lastIndexOf("/")) : "";
      if (dir === "") return pkg;
      if (pkg.endsWith(`/${dir}`)) return pkg.slice(0, -dir.length - 1);
    }
  }
  return null;
}

/**
 * Go prints a test's file relative to its package directory (`money_test.go:26`). Failures are held to
 * the end of the log, when every package line has been seen, and their files named from the module root:
 * `example.com/ledger/money` in module `example.com/ledger` → `money/money_test.go`.
 */
export class GoFailures {
  private readonly packages = new Set<string>();
  private readonly held: { pkg: string | null; draft: FailureDraft }[] = [];

  see(pkg: string | null): void {
    if (pkg && this.packages.size < 10_000) this.packages.add(pkg);
  }

  hold(pkg: string | null, draft: FailureDraft, sink: ParserSink): void {
    this.see(pkg);
    if (this.held.length < 5_000) this.held.push({ pkg, draft });
    else sink.failure(draft);
  }

  flush(sink: ParserSink): void {
    const pkgs = [...this.packages];
    const learned = rootFromFrames(this.held.map((h) => h.draft.stack));
    const root =
      learned !== null && pkgs.every((p) => p === learned || p.startsWith(`${learned}/`))
        ? learned
        : moduleRoot(pkgs);
    for (const { pkg, draft } of this.held) {
      if (
        root &&
        pkg &&
        draft.file &&
        !draft.file.includes("/") &&
        (pkg === root || pkg.startsWith(`${root}/`))
      ) {
        const dir = pkg.slice(root.length + 1);
        if (dir) draft.file = `${dir}/${draft.file}`;
      }
      sink.failure(draft);
    }
    this.held.length = 0;
  }
}
