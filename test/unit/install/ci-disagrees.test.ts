import { describe, expect, it } from "vitest";
import { ciDisagrees } from "../../../src/install/npm.ts";

// npm 9.2's own words (the install container's npm) refusing a lockfile it had just written with
// `npm install --package-lock-only` from the same package.json (issue 15, a yarn-berry repository's pins).
const OUT_OF_SYNC = `npm ERR! code EUSAGE
npm ERR! 
npm ERR! \`npm ci\` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with \`npm install\` before continuing.
npm ERR! 
npm ERR! Invalid: lock file's @types/node@12.20.55 does not satisfy @types/node@26.6.6
npm ERR! Missing: @types/node@12.20.55 from lock file
npm ERR! Missing: undici-types@8.9.0 from lock file
`;

describe("ciDisagrees: when npm ci refuses the lockfile npm just wrote", () => {
  it("is npm ci's in-sync refusal (npm 9 `npm ERR!` and npm 10+ `npm error` forms)", () => {
    expect(ciDisagrees(OUT_OF_SYNC)).toBe(true);
    expect(ciDisagrees(OUT_OF_SYNC.replaceAll("npm ERR!", "npm error"))).toBe(true);
  });

  it("is not any other failure: a fetch, a missing version, a bad tarball, a bare usage error", () => {
    expect(
      ciDisagrees("npm ERR! code ETARGET\nnpm ERR! notarget No matching version found for left-pad@9.9.9."),
    ).toBe(false);
    expect(ciDisagrees("npm ERR! code ECONNREFUSED\nnpm ERR! request to http://registry failed")).toBe(false);
    expect(ciDisagrees("npm ERR! code EINTEGRITY\nnpm ERR! sha512-abc integrity checksum failed")).toBe(
      false,
    );
    expect(
      ciDisagrees(
        "npm ERR! code EUSAGE\nnpm ERR! The `npm ci` command can only install with an existing package-lock.json",
      ),
    ).toBe(false);
  });
});
