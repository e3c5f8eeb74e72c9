import { describe, expect, it } from "vitest";
import {
  chooseNodeVersion,
  detectToolchain,
  nodeRange,
  nodeVersionWithoutRegistry,
  pythonSatisfies,
  type RuntimeRequest,
  shownSpec,
  workflowNodeVersion,
} from "../../../src/fix/toolchain.ts";
import { cpuMs } from "../../support/cpu-time.ts";

const files = (f: Record<string, string>) => (p: string) => f[p] ?? null;
const AVAILABLE = ["16.20.2", "18.19.0", "18.20.4", "20.9.0", "20.18.0", "21.7.3", "22.11.0", "23.1.0"];

describe("detectToolchain", () => {
  it("reads Node from the files a CI reads, first found wins", () => {
    expect(
      detectToolchain(files({ ".nvmrc": "v20.11.1\n", "package.json": '{"engines":{"node":">=18"}}' })).node,
    ).toEqual({ spec: "v20.11.1", source: ".nvmrc", kind: "pin" });
    expect(detectToolchain(files({ ".node-version": "# pinned\n22\n" })).node).toMatchObject({
      spec: "22",
      source: ".node-version",
    });
    expect(detectToolchain(files({ ".tool-versions": "python 3.12.1\nnodejs 20.9.0\n" })).node).toMatchObject(
      {
        spec: "20.9.0",
        source: ".tool-versions",
      },
    );
    expect(detectToolchain(files({ "package.json": '{"volta":{"node":"20.18.0"}}' })).node).toMatchObject({
      source: "package.json volta.node",
      kind: "pin",
    });
    expect(detectToolchain(files({ "package.json": '{"engines":{"node":">= 20"}}' })).node).toEqual({
      spec: ">= 20",
      source: "package.json engines.node",
      kind: "range",
    });
    expect(detectToolchain(files({ "package.json": "not json" })).node).toBeNull();
  });

  it("reads Python from .python-version, .tool-versions, requires-python, python_requires", () => {
    expect(detectToolchain(files({ ".python-version": "3.12\n" })).python).toMatchObject({
      spec: "3.12",
      kind: "pin",
    });
    expect(
      detectToolchain(files({ "pyproject.toml": '[project]\nname = "x"\nrequires-python = ">=3.10"\n' }))
        .python,
    ).toEqual({
      spec: ">=3.10",
      source: "pyproject.toml requires-python",
      kind: "range",
    });
    expect(
      detectToolchain(files({ "setup.cfg": "[options]\npython_requires = >=3.8, <4\n" })).python,
    ).toMatchObject({
      spec: ">=3.8, <4",
    });
  });
});

describe("chooseNodeVersion", () => {
  const pin = (spec: string) => ({ spec, source: ".nvmrc", kind: "pin" as const });
  const range = (spec: string) => ({ spec, source: "package.json engines.node", kind: "range" as const });
  it("a pin takes the newest release of its line", () => {
    expect(chooseNodeVersion(pin("20"), AVAILABLE, "18.19.0")).toBe("20.18.0");
    expect(chooseNodeVersion(pin("v20.9.0"), AVAILABLE, "18.19.0")).toBe("20.9.0");
    expect(chooseNodeVersion(pin("lts/iron"), AVAILABLE, "18.19.0")).toBe("20.18.0");
    expect(chooseNodeVersion(pin("lts/*"), AVAILABLE, "18.19.0")).toBe("22.11.0");
    expect(chooseNodeVersion(pin("node"), AVAILABLE, "18.19.0")).toBe("23.1.0");
  });
  it("a pin the image already satisfies needs no layer", () => {
    expect(chooseNodeVersion(pin("18"), AVAILABLE, "18.19.0")).toBe("18.19.0");
  });
  it("a range keeps the image's Node when it fits, else the lowest fitting line", () => {
    expect(chooseNodeVersion(range(">=16"), AVAILABLE, "18.19.0")).toBe("18.19.0");
    expect(chooseNodeVersion(range(">=20"), AVAILABLE, "18.19.0")).toBe("20.18.0");
    expect(chooseNodeVersion(range("^20.10 || >=22"), AVAILABLE, "18.19.0")).toBe("20.18.0");
  });
  it("nothing fitting, or an unreadable request, is null", () => {
    expect(chooseNodeVersion(pin("99"), AVAILABLE, "18.19.0")).toBeNull();
    expect(chooseNodeVersion(pin("lts/unknown"), AVAILABLE, "18.19.0")).toBeNull();
    expect(chooseNodeVersion(range(">=20"), [], "18.19.0")).toBeNull();
    expect(nodeRange("banana")).toBeNull();
  });
});

describe("pythonSatisfies", () => {
  it.each([
    ["3.11.2", "3.11", true],
    ["3.11.2", "3.12", false],
    ["3.11.2", ">=3.8", true],
    ["3.11.2", ">=3.12", false],
    ["3.11.2", ">=3.8, <4", true],
    ["3.11.2", "~=3.10", true],
    ["3.11.2", "~=3.12.1", false],
    ["3.11.2", "==3.11.*", true],
    ["3.11.2", "!=3.11.*", false],
    ["3.11.2", "<3.11", false],
  ])("%s against %s is %s", (version, spec, want) => {
    expect(pythonSatisfies(version, spec)).toBe(want);
  });
});

describe("the CI workflow's setup-node version", () => {
  it("takes the newest literal node-version of the workflows, after the version files and before engines", () => {
    const wf = [
      "jobs:\n  test:\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 20 # lts\n",
      "strategy:\n  matrix:\n    node-version: [18.x, '22', 20]\nsteps:\n  - uses: actions/setup-node@v4\n    with:\n      node-version: $" +
        "{{ matrix.node-version }}\n",
    ];
    expect(workflowNodeVersion(wf)).toBe("22");
    expect(workflowNodeVersion(["node-version: lts/*\n", "node-version-file: .nvmrc\n"])).toBeNull();
    const pkg = JSON.stringify({ engines: { node: ">=14" } });
    expect(detectToolchain(files({ "package.json": pkg }), wf).node).toEqual({
      spec: "22",
      source: "the CI workflow's setup-node node-version",
      kind: "pin",
    });
    expect(detectToolchain(files({ "package.json": pkg, ".nvmrc": "20\n" }), wf).node?.source).toBe(".nvmrc");
    expect(detectToolchain(files({ "package.json": pkg }), []).node?.source).toBe(
      "package.json engines.node",
    );
  });
});

describe("hostile toolchain files are read in time linear in their size (fourth red team)", () => {
  it("a run of newlines or spaces, and millions of listed versions, cost milliseconds", () => {
    const { ms } = cpuMs(() => {
      expect(workflowNodeVersion(["\n".repeat(256 * 1024)])).toBeNull();
      expect(workflowNodeVersion([`node-version: a${" ".repeat(256 * 1024)}b\n`])).toBeNull();
      expect(
        workflowNodeVersion([`-${" ".repeat(256 * 1024)}x\n`, `${" \t".repeat(128 * 1024)}\n`]),
      ).toBeNull();
      expect(workflowNodeVersion([`node-version: [${Array(60_000).fill("20").join(",")}, 22]\n`])).toBe("22");
      const t = detectToolchain(
        files({ "pyproject.toml": "\n".repeat(256 * 1024), "setup.cfg": "\n".repeat(256 * 1024) }),
      );
      expect(t.python).toBeNull();
      // 8 KiB of newlines took 522 s with the pattern spanning lines; now the whole test takes well under one.
    });
    expect(ms).toBeLessThan(2_000);
  });

  it("keeps reading values as before: comments, quotes, keys that only start alike, empty values", () => {
    expect(workflowNodeVersion(["  - node-version: 20#lts\n", "node-version:   '18.x'  # old\n"])).toBe("20");
    const py = detectToolchain(
      files({ "pyproject.toml": '[project]\nrequires-python-x = "9"\n  requires-python = ">=3.9"\n' }),
    );
    expect(py.python).toEqual({ spec: ">=3.9", source: "pyproject.toml requires-python", kind: "range" });
    // An empty value is no request (the old pattern took the next line as the value).
    const cfg = detectToolchain(files({ "setup.cfg": "[options]\npython_requires =\nzip_safe = false\n" }));
    expect(cfg.python).toBeNull();
  });

  it("quotes a long request by its start and length", () => {
    expect(shownSpec("20")).toBe("20");
    const long = shownSpec(`20.${"9".repeat(200_000)}`);
    expect(long.length).toBeLessThan(150);
    expect(long).toMatch(/… \(200003 characters\)$/);
  });
});

describe("a stale exact pin", () => {
  it("asks for the pin's line when package.json engines.node rules the exact version out", () => {
    const pkg = JSON.stringify({ engines: { node: "^22.11 || ^24 || >=26" } });
    expect(detectToolchain(files({ ".node-version": "v22.9.0\n", "package.json": pkg })).node).toEqual({
      spec: "22 ^22.11",
      source:
        ".node-version: v22.9.0, which package.json engines.node ^22.11 || ^24 || >=26 rules out, so the newest release of its line that engines.node allows",
      kind: "pin",
    });
    // The line's newest release that engines allows, not the line's newest: engines caps 22 at 22.12.
    const capped = JSON.stringify({ engines: { node: ">=22.11 <22.13 || >=24" } });
    const request = detectToolchain(files({ ".node-version": "22.9.0", "package.json": capped })).node;
    expect(request).not.toBeNull();
    expect(
      chooseNodeVersion(
        request as RuntimeRequest,
        ["22.9.0", "22.12.0", "22.13.1", "22.21.0", "24.11.0"],
        null,
      ),
    ).toBe("22.12.0");
    // A pin the range allows, or a line pin, is taken as written.
    expect(detectToolchain(files({ ".node-version": "22.12.0", "package.json": pkg })).node?.spec).toBe(
      "22.12.0",
    );
    expect(detectToolchain(files({ ".nvmrc": "22", "package.json": pkg })).node?.spec).toBe("22");
  });

  it("falls back to engines.node itself when engines rules out the pin's whole line", () => {
    const pkg = JSON.stringify({ engines: { node: ">=20 <22" } });
    const request = detectToolchain(files({ ".nvmrc": "v22.9.0", "package.json": pkg })).node;
    expect(request).toEqual({
      spec: ">=20 <22",
      source:
        ".nvmrc: v22.9.0, which package.json engines.node >=20 <22 rules out (and its whole line with it)",
      kind: "range",
    });
    // A range takes the newest release of its lowest major: 20, never the ruled-out 22.
    expect(chooseNodeVersion(request as RuntimeRequest, ["20.19.0", "21.7.3", "22.21.0"], null)).toBe(
      "20.19.0",
    );
  });
});

describe("nodeVersionWithoutRegistry", () => {
  const pin = (spec: string) => ({ spec, source: ".nvmrc", kind: "pin" as const });
  const range = (spec: string) => ({ spec, source: "package.json engines.node", kind: "range" as const });
  it("the image's Node when it meets the request: the registry's list could not change the choice", () => {
    for (const request of [range(">=16"), range(">=18"), pin("18"), pin("lts/hydrogen"), pin("v18.19.0")]) {
      expect(nodeVersionWithoutRegistry(request, "18.19.0")).toBe("18.19.0");
      // the same answer chooseNodeVersion gives with the list
      expect(chooseNodeVersion(request, AVAILABLE, "18.19.0")).toBe("18.19.0");
    }
  });
  it("null (ask the registry) whenever the list decides: another line, lts/*, latest, no image Node", () => {
    expect(nodeVersionWithoutRegistry(range(">=20"), "18.19.0")).toBeNull();
    expect(nodeVersionWithoutRegistry(pin("20"), "18.19.0")).toBeNull();
    expect(nodeVersionWithoutRegistry(pin("lts/*"), "22.11.0")).toBeNull();
    expect(nodeVersionWithoutRegistry(pin("node"), "23.1.0")).toBeNull();
    expect(nodeVersionWithoutRegistry(range(">=16"), null)).toBeNull();
  });
});
