/**
 * A reported output that only another operating system prints (issue 12, hold22 upath-35): a Windows path with a
 * drive letter (`"C:\Code\ncp\reports"`, `C:\\Users\\x`) as the value a call gave. The sandbox is Linux: a run that
 * does not print it says nothing about the report, since the value depends on the platform the code ran on (its
 * working directory, `__dirname`, the path separator). Not a NOT_REPRODUCED: NEEDS_INFO, saying the run was on
 * Linux and asking for input that does not depend on the platform. Only ever replaces NOT_REPRODUCED: a run that
 * prints the value itself is judged as usual.
 */
const WINDOWS_PATH = /(?<![\w/\\])[A-Za-z]:\\{1,2}(?:[^\\\s"'`<>|]+\\{1,2})*[^\\\s"'`<>|]*/;

/** The first reported output line holding a Windows drive path, when no line the run printed holds one. */
export function windowsOnlyOutput(reported: readonly string[], stdout: string): string | null {
  if (WINDOWS_PATH.test(stdout)) return null;
  return reported.find((l) => WINDOWS_PATH.test(l)) ?? null;
}
