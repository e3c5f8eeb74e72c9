/**
 * The rule table, in report order. Adding a rule: a file in this folder, a config section in ../config.ts,
 * an id in ../types.ts, and a line here.
 */
import type { Rule } from "../types.ts";
import { ambiguousHeaders } from "./ambiguous-headers.ts";
import { binaryFiles } from "./binary-files.ts";
import { checkTampering } from "./check-tampering.ts";
import { constantEquality } from "./constant-equality.ts";
import { dangerousCalls } from "./dangerous-calls.ts";
import { deletions } from "./deletions.ts";
import { dependencyChanges } from "./dependency-changes.ts";
import { forbiddenPaths } from "./forbidden-paths.ts";
import { modeChanges } from "./mode-changes.ts";
import { packageScripts } from "./package-scripts.ts";
import { pathEscape } from "./path-escape.ts";
import { sizeCaps } from "./size-caps.ts";
import { specialCasing } from "./special-casing.ts";
import { submodules } from "./submodules.ts";
import { suppressions } from "./suppressions.ts";
import { hiddenCharacters } from "./hidden-characters.ts";
import { symlinks } from "./symlinks.ts";
import { testAwareness } from "./test-awareness.ts";
import { testFileAccess } from "./test-file-access.ts";
import { testInfrastructure } from "./test-infrastructure.ts";
import { testBypass } from "./test-bypass.ts";
import { weakenedTests } from "./weakened-tests.ts";

export const RULES: readonly Rule[] = [
  pathEscape,
  ambiguousHeaders,
  forbiddenPaths,
  testInfrastructure,
  dependencyChanges,
  packageScripts,
  binaryFiles,
  symlinks,
  hiddenCharacters,
  submodules,
  modeChanges,
  deletions,
  sizeCaps,
  testBypass,
  suppressions,
  weakenedTests,
  dangerousCalls,
  testAwareness,
  testFileAccess,
  checkTampering,
  constantEquality,
  specialCasing,
];
