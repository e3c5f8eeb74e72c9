import path from "node:path";
import { commitMessageOf, gateThenApply, prTitleOf, short } from "./patch-step.ts";
import { type Outcome, ok, runStepCases, writeTree } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;

const repoWith = (files: Record<string, string>): string => writeTree(path.join(dir, "repo"), files);

const escapeNonAscii = (s: string) =>
  s.replace(/[^\x20-\x7e]/gu, (c) => `U+${c.codePointAt(0)!.toString(16).padStart(4, "0")}`);

// ---- Model-written patches: the gate, then the one applier (on a copy of the repository on disk).

async function patchCase(
  patch: string,
  files: Record<string, string> = { "src/a.js": "const a = 1;\n" },
): Promise<Outcome & { allowed: boolean; appliedOk: boolean }> {
  const { gate, allowed, applied, appliedOk } = await gateThenApply(patch, repoWith(files), (p) =>
    escapeNonAscii(JSON.stringify(p.changed)),
  );
  // A name or a line that reads as another, or a path that names an existing file otherwise, must not reach a
  // verified patch: the gate or the applier refuses.
  return { ...ok(escapeNonAscii(`${gate}; ${applied}`), !allowed || !appliedOk), allowed, appliedOk };
}

const newFile = (p: string, line: string) =>
  `diff --git a/${p} b/${p}\nnew file mode 100644\n--- /dev/null\n+++ b/${p}\n@@ -0,0 +1 @@\n+${line}\n`;
const editLine = (line: string) =>
  `diff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1 +1,2 @@\n const a = 1;\n+${line}\n`;

/** A path spelled otherwise than an existing file: refused, or at least not written as a second, separate file. */
async function twinCase(spelled: string, existing = "src/a.js"): Promise<Outcome> {
  const r = await patchCase(newFile(spelled, "module.exports = () => true;"), {
    [existing]: "module.exports = () => false;\n",
  });
  return r;
}

/** A patch of legitimate-looking count but huge lines: refused with a reason, or bounded (the runner checks CPU). */
async function sizeCase(patch: string, files: Record<string, string>): Promise<Outcome> {
  const t = Date.now();
  const r = await patchCase(patch, files);
  const ms = Date.now() - t;
  const refusedWithReason = /refused: \S/.test(r.outcome);
  return ok(`${short(r.outcome, 300)}; wall ${ms} ms`, refusedWithReason || ms < 8_000);
}

// ---- What Retrace writes from a model's summary and a log's test ids: the commit message and the PR title.

/** Letters and marks that render as nothing (or as blank) in GitHub's UI and most fonts. */
const INVISIBLE = /^(?:\u00ad|\u034f|\u115f|\u1160|\u17b4|\u17b5|\u180e|\u3164|\uffa0)$/u;
const invisibleIn = (s: string) =>
  [...s].filter((c) => INVISIBLE.test(c)).map((c) => `U+${c.codePointAt(0)!.toString(16)}`);

const textCase = (what: string, text: string): Outcome => {
  const raw = invisibleIn(text);
  return ok(
    raw.length
      ? `raw invisible letters in the ${what}: ${JSON.stringify(raw)}`
      : `${what}: ${short(escapeNonAscii(text), 200)}`,
    raw.length === 0,
  );
};

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // ---- Look-alike letters of scripts other than Cyrillic and Greek (the gap wave 13 named).
  "patch-path-armenian-mix-twin": () => twinCase("src/l\u0585gin.js", "src/login.js"), // Armenian oh drawn like o
  "patch-line-armenian-mixed-identifier": () =>
    patchCase(editLine('if (user.r\u0585le === "admin") grant(user);')),
  "patch-path-cherokee-whole-segment": () =>
    twinCase("config/\u13da\u13ac\u13df\u13a1\u13ac\u13a2.js", "config/SECRET.js"), // reads SECRET
  "patch-line-lisu-whole-identifier": () =>
    patchCase(
      editLine("const \ua4ee\ua4d1\ua4f2 = process.env; module.exports = { API: \ua4ee\ua4d1\ua4f2 };"),
    ), // ꓮꓑꓲ reads API
  "patch-path-coptic-mix-twin": () => twinCase("src/l\u2c9fgin.js", "src/login.js"), // Coptic o
  "patch-path-latin-alpha-twin": () => twinCase("src/\u0251dmin.js", "src/admin.js"), // Latin alpha ɑ
  "patch-line-latin-small-capitals": () =>
    patchCase(editLine('if (role === "\u1d00\u1d05\u1d0d\u026a\u0274") grant();')), // ᴀᴅᴍɪɴ reads ADMIN
  "patch-line-math-alphanumeric-identifier": () =>
    patchCase(
      editLine(
        "const \u{1d41e}\u{1d431}\u{1d41e}\u{1d41c} = () => true; module.exports = { exec: \u{1d41e}\u{1d431}\u{1d41e}\u{1d41c} };",
      ),
    ), // 𝐞𝐱𝐞𝐜

  // ---- Letters that render as nothing, and line breaks a reader does not see as one.
  "patch-line-hangul-filler-identifier": () =>
    patchCase(
      editLine("const { timeout, \u3164 } = req.query; module.exports = () => [timeout, \u3164].join(' ');"),
    ),
  "patch-line-halfwidth-hangul-filler": () => patchCase(editLine("const ok = check(user) || \uffa0;")),
  "patch-path-hangul-filler-name": () => twinCase("src/\u3164.js"),
  "patch-line-soft-hyphen-in-word": () => patchCase(editLine('if (role === "ad\u00admin") grant();')),
  "patch-line-combining-grapheme-joiner": () => patchCase(editLine('if (role === "ad\u034fmin") grant();')),
  "patch-line-khmer-inherent-vowel": () => patchCase(editLine("const ok = check(user) && \u17b4;")),
  "patch-line-mongolian-vowel-separator": () => patchCase(editLine('if (role === "ad\u180emin") grant();')),
  "patch-line-lone-carriage-return": () =>
    patchCase(editLine("module.exports = () => true;\r// module.exports = (u) => check(u);")),
  "patch-line-next-line-c1": () => patchCase(editLine("const ok = true;\u0085const checked = check(user);")),

  // ---- Path spellings another tool or OS reads as an existing file.
  "patch-path-dot-segment-twin": () => twinCase("src/./a.js"),
  "patch-path-double-slash-twin": () => twinCase("src//a.js"),
  "patch-path-backslash-twin": () => twinCase("src\\a.js"),
  "patch-path-windows-reserved-name": () => twinCase("src/con.js"),

  // ---- Hunks whose context matches the file only loosely.
  "patch-context-whitespace-differs": () =>
    patchCase(
      "diff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1,2 +1,2 @@\n const a = 1;\n-if (ok(user))  return grant();\n+return grant();\n",
      { "src/a.js": "const a = 1;\nif (ok(user)) return grant();\n" },
    ),
  "patch-context-nfd-vs-nfc-file": () =>
    patchCase(
      "diff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1,2 +1,2 @@\n const cafe\u0301 = 1;\n-check(cafe\u0301);\n+grant();\n",
      { "src/a.js": "const caf\u00e9 = 1;\ncheck(caf\u00e9);\n" },
    ),

  // ---- Patches of legitimate-looking count with huge lines.
  "patch-one-line-16mib": () =>
    sizeCase(editLine(`const blob = "${"A".repeat(16 << 20)}";`), { "src/a.js": "const a = 1;\n" }),
  "patch-300-lines-of-64kib": () => {
    const lines = Array.from({ length: 300 }, (_, i) => `+const x${i} = "${"ab".repeat(32 << 9)}";`);
    return sizeCase(
      `diff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1 +1,${lines.length + 1} @@\n const a = 1;\n${lines.join("\n")}\n`,
      { "src/a.js": "const a = 1;\n" },
    );
  },
  "patch-line-1mib-of-call-openers": () =>
    sizeCase(editLine(`x = ${"require(".repeat(1 << 17)}`), { "src/a.js": "const a = 1;\n" }),

  // ---- The commit message and PR title Retrace writes, holding letters that render as nothing.
  "commit-message-invisible-letters-in-summary": async () =>
    textCase(
      "commit message",
      await commitMessageOf("rt14job", "Adds the null check\u3164\u3164\u3164 and ad\u00admin access.", [
        "tests/test_a.py::test_x",
      ]),
    ),
  "commit-message-invisible-letters-in-test-id": async () =>
    textCase(
      "commit message",
      await commitMessageOf("rt14job", "Adds the check.", ["tests/test_a.py::test_\u115f\u1160x"]),
    ),
  "pr-title-invisible-letters-in-test-id": () =>
    textCase("PR title", prTitleOf("rt14", ["tests/test_a.py::test_\uffa0x\u034f"])),
  "commit-message-16mib-summary": async () => {
    const m = await commitMessageOf("rt14job", `Adds the check. ${"word ".repeat(16 << 18)}`, [
      "tests/test_a.py::test_x",
    ]);
    return ok(`commit message of ${m.length} characters`, m.length <= 1 << 16);
  },
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
});
