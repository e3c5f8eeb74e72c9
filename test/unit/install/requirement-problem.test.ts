/**
 * `requirementProblem` (src/install/pip.ts): what a declared Python requirement may be before pip sees it. The
 * eighth red team found the environment marker (after `;`) unchecked: `@ http://…` and `--index-url …` rode there.
 */
import { describe, expect, it } from "vitest";
import { requirementProblem } from "../../../src/install/pip.ts";

describe("requirementProblem", () => {
  it.each([
    "requests>=2.0",
    "pytest; extra == 'test'",
    `requests>=2.0; python_version >= "3.8" and sys_platform != 'win32'`,
    "a ; (os_name == 'nt' or os_name == 'posix') and python_full_version < '3.12.1'",
    "b; platform_machine in 'x86_64 aarch64'",
    "w[a,b] (>=1.0) ; os_name == 'posix'",
  ])("accepts an index requirement with a marker: %s", (spec) => {
    expect(requirementProblem(spec)).toBeNull();
  });

  it.each([
    "x==1.0 ; python_version > '0' @ http://evil.invalid/y.whl",
    "w[a,b] (>=1.0) ; os_name == 'posix' --index-url http://evil.invalid",
    "y ; python_version > '0' --extra-index-url=http://evil.invalid",
    "z ; os_name == 'posix' -e git+file:///x",
    'v ; python_version > "3.7" ; @x',
    "u ; os_name == 'posix",
  ])("refuses a marker that carries something else: %s", (spec) => {
    expect(requirementProblem(spec)).toMatch(/environment marker/);
  });

  it("still refuses direct references and URLs before the marker", () => {
    expect(requirementProblem("x @ file:///etc/passwd")).toMatch(/direct reference/);
    expect(requirementProblem("git+https://x/y.git")).toMatch(/URL|direct/);
  });
});
