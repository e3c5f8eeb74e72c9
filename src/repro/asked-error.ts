/**
 * A report that asks for an error ("it ought to say the IP is invalid", "parsing errors should be handled", "a
 * SyntaxError is what I would expect") while claiming the library returns something wrong: a run where the
 * library itself raises an error shows the behaviour the report asks for, not part of the bug. A maintainer reads
 * that as fixed (NOT_REPRODUCED), never as a partial reproduction. Pure: reads the report's words.
 */

/** "should raise", "ought to say … is invalid", "expected it to throw" (not "should not throw"). */
const SHOULD_FAIL =
  /\b(?:should|ought\s+to|supposed\s+to|expected?\s+(?:it\s+)?to|would\s+expect\s+(?:it\s+)?to|must)\s+((?:[\w'.-]+\s+){0,4}?)(?:raise|throw|error\s+out|fail|reject|complain|(?:be\s+)?invalid|be\s+(?:rejected|refused|an?\s+error))\b/gi;
/** "errors should be handled", "an exception should be raised", "a SyntaxError is what I would expect". */
const ERROR_SHOULD =
  /\b(?:errors?|exceptions?|[A-Z]\w*(?:Error|Exception))\s+(?:should\s+be\s+(?:handled|raised|thrown|reported)|is\s+what\s+I\s+(?:would\s+)?expect)/gi;

/** The words of the report that ask for an error, or null when it asks for none. */
export function asksForError(text: string): string | null {
  for (const re of [SHOULD_FAIL, ERROR_SHOULD]) {
    for (const m of text.matchAll(re)) {
      // "should not throw", "must never fail": the opposite.
      if (/\b(?:not|never|no\s+longer)\b/i.test(m[1] ?? "")) continue;
      return m[0].replace(/\s+/g, " ").trim();
    }
  }
  return null;
}

/**
 * The package a Python traceback's last frame is in when the sandbox installed it beside the program
 * (`/workspace/python-packages/arrow/parser.py`), or null: the error was raised by the library, not the snippet.
 */
export function raisedInInstalledPython(stderr: string): string | null {
  const frames = [...stderr.matchAll(/^[ \t]*File "([^"]+)", line \d+, in (\S+)/gm)];
  const last = frames[frames.length - 1];
  const pkg = last ? /^\/workspace\/python-packages\/([\w.-]+)\//.exec(last[1]!)?.[1] : undefined;
  return pkg ? `\`${pkg}\` (${last![1]!.split("/").pop()}, in \`${last![2]}\`)` : null;
}
