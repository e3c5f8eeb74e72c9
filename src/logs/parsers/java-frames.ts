/**
 * Java stack traces as Surefire, Failsafe and Gradle print them: the exception line, `at pkg.Class.method(File.java:23)`
 * frames (with or without a `java.base/`, `java.base@11.0.11/` or `app//` loader and module prefix), and Gradle's short
 * `org.opentest4j.AssertionFailedError at MoneyTest.java:17` form.
 */
import type { ParserSink } from "../parser.ts";

export const FRAME =
  /^\s*at (?:[\w.-]+(?:@[\w.+-]+)?\/\/?)?([\w$.]+)\.([\w$<>]+)\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)$/;
const SHORT =
  /^\s*([\w$.]+(?:Error|Exception|Failure|Throwable)\w*) at ([\w$]+\.(?:java|kt|scala|groovy)):(\d+)$/;
const EXCEPTION =
  // `[A-Z][\w$]*` already takes `$Inner`: a separate `(?:\$[\w$]+)*` split `$` runs exponentially many ways.
  /^\s*((?:[a-z_$][\w$]*\.)+[A-Z][\w$]*|[A-Z][\w$]*(?:Error|Exception))(?::\s?(.*))?$/;
const FRAMEWORK =
  /^(?:java|javax|jdk|sun|org\.junit|junit|org\.opentest4j|org\.testng|org\.apache\.maven|org\.gradle|worker\.org\.gradle|kotlin|scala|org\.assertj|org\.hamcrest|org\.mockito|com\.google\.common\.truth)\./;

export interface JavaLocation {
  file: string;
  line: number;
}

/** The Maven/Gradle standard layout: a test class lives under src/test/<lang>, any other under src/main/<lang>. */
export function sourcePath(cls: string, file: string, testClass: string | null): string {
  const outer = cls.replace(/\$.*$/, "");
  const pkg = outer.includes(".") ? outer.slice(0, outer.lastIndexOf(".")).replace(/\./g, "/") : "";
  const lang = /\.kt$/.test(file)
    ? "kotlin"
    : /\.scala$/.test(file)
      ? "scala"
      : /\.groovy$/.test(file)
        ? "groovy"
        : "java";
  const isTest =
    testClass !== null
      ? outer === testClass.replace(/\$.*$/, "")
      : /(?:Test|Tests|IT|TestCase|Spec)$/.test(outer);
  return `src/${isTest ? "test" : "main"}/${lang}/${pkg ? `${pkg}/` : ""}${file}`;
}

/**
 * The error type, message and location of a Java failure block. The location is the first frame in
 * the test's own class, else the first frame outside test frameworks and the JDK.
 */
export function summarizeJava(
  lines: readonly string[],
  testClass: string | null,
  sink: ParserSink,
): { errorType: string | null; message: string; location: JavaLocation | null } {
  let errorType: string | null = null;
  const message: string[] = [];
  let inOwn: JavaLocation | null = null;
  let outside: JavaLocation | null = null;
  for (const l of lines) {
    const f = FRAME.exec(l);
    if (f) {
      const cls = f[1]!;
      if (!inOwn && testClass && cls.replace(/\$.*$/, "") === testClass.replace(/\$.*$/, ""))
        inOwn = { file: sink.path(sourcePath(cls, f[3]!, testClass)), line: Number(f[4]) };
      if (!outside && !FRAMEWORK.test(`${cls}.`))
        outside = { file: sink.path(sourcePath(cls, f[3]!, testClass)), line: Number(f[4]) };
      continue;
    }
    const s = SHORT.exec(l);
    if (s) {
      errorType ??= s[1]!;
      // Only the file name is printed: the test's own package, when the file is the test class's.
      const simple = testClass?.split(".").pop()?.replace(/\$.*$/, "");
      const cls =
        testClass && simple && s[2]!.startsWith(`${simple}.`) ? testClass : s[2]!.replace(/\.\w+$/, "");
      outside ??= { file: sink.path(sourcePath(cls, s[2]!, testClass)), line: Number(s[3]) };
      continue;
    }
    if (/^\s*(?:\.\.\. \d+ more|Caused by:|Suppressed:)/.test(l)) {
      if (errorType) break;
      continue;
    }
    if (errorType === null) {
      const e = EXCEPTION.exec(l);
      if (e && /(?:Error|Exception|Failure|Throwable|Failed)\w*$/.test(e[1]!)) {
        errorType = e[1]!;
        if (e[2]) message.push(e[2]);
        continue;
      }
    }
    if (errorType !== null && message.length < 20 && l.trim() !== "") message.push(l.trim());
  }
  return { errorType, message: message.join("\n"), location: inOwn ?? outside };
}
