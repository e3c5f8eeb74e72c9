/**
 * The directories a failing check `cd`s into, and the runner configuration the fixer reads there for the gate's
 * import roots (f14c item 1: `cd backend && pytest` reads `backend/pytest.ini`; a `cd` outside the repository or
 * through a variable names none).
 */
import { describe, expect, it } from "vitest";
import type { Workspace } from "../../../src/core/ports/workspace.ts";
import { runnerConfigs } from "../../../src/fix/manifest-change.ts";
import { checkDirectories } from "../../../src/policy/runner-configs.ts";

describe("checkDirectories", () => {
  it("lists cd and pushd targets inside the repository, a cd after a cd from both places", () => {
    expect(checkDirectories("cd backend && python -m pytest")).toEqual(["backend"]);
    expect(checkDirectories('(cd "web/app" && npx jest); pushd ./tools/')).toEqual([
      "web/app",
      "web/app/tools",
      "tools",
    ]);
    expect(checkDirectories("cd a && cd b && pytest")).toEqual(["a", "a/b", "b"]);
  });

  it("counter-examples: nothing outside or unknown, and words that only contain cd", () => {
    expect(checkDirectories("cd /tmp && cd .. && cd $HOME && cd ~ && cd - && pytest")).toEqual([]);
    expect(checkDirectories("abcd x && npm run cdk -- deploy && pytest --cd=x")).toEqual([]);
    expect(checkDirectories(undefined)).toEqual([]);
  });
});

describe("runnerConfigs", () => {
  const workspace = (files: Record<string, string>) =>
    ({
      readFile: async (p: string) => {
        if (p in files) return files[p]!;
        throw new Error("missing");
      },
    }) as unknown as Workspace;

  it("reads the root's and each cd directory's pytest and jest configuration, package.json included", async () => {
    const ws = workspace({
      "pytest.ini": "[pytest]\n",
      "backend/pytest.ini": "[pytest]\npythonpath = lib\n",
      "web/package.json": "{}",
      "web/jest.config.js": "module.exports = {};",
      "other/pytest.ini": "[pytest]\n",
    });
    expect(Object.keys(await runnerConfigs(ws, "cd backend && pytest; cd web && npx jest")).sort()).toEqual([
      "backend/pytest.ini",
      "pytest.ini",
      "web/jest.config.js",
      "web/package.json",
    ]);
    expect(Object.keys(await runnerConfigs(ws))).toEqual(["pytest.ini"]);
  });
});
