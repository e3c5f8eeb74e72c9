/**
 * The Maven Invoker Plugin (`maven-invoker-plugin`'s `invoker:run`/`invoker:integration-test`), which runs each
 * integration-test project under `src/it/` as a build of its own and closes with its report:
 *
 *     [INFO] Build Summary:
 *     [INFO]   Passed: 4, Failed: 1, Errors: 0, Skipped: 0
 *     [INFO] -------------------------------------------------
 *     [ERROR] The following builds failed:
 *     [ERROR] *  all-correct/pom.xml
 *
 * Each `*  ` entry under that heading is a failed integration build. The id is the project as printed (its pom,
 * relative to the invoker's projects directory, which the log does not name): what `-Dinvoker.test=` selects by its
 * directory. No place (the project's directory is not given relative to the repository). The counts come from the
 * `Passed: …, Failed: …` line right under `Build Summary:`.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

/** Maven's level prefix (`[ERROR] `), behind Actions' `Error: ` rewrite of it or a clock. */
const PREFIX = /^(?:\d{2}:\d{2}:\d{2}(?:[.,]\d+)? )?(?:\[(?:ERROR|INFO|WARN|WARNING)\] ?|Error: {1,2})?/;
const COUNTS = /^ {2}Passed: (\d+), Failed: (\d+), Errors: (\d+), Skipped: (\d+)\s*$/;
const HEADING = /^The following builds failed:\s*$/;
const ENTRY = /^\*\s+(\S.*?)\s*$/;

export function createMavenInvokerParser(sink: ParserSink) {
  /** The line after `Build Summary:` is its counts. */
  let summaryNext = false;
  let listing = false;
  let count = 0;

  return {
    line(text: string, lineNo: number): boolean {
      if (
        !text.includes("Build Summary:") &&
        !summaryNext &&
        !listing &&
        !text.includes("The following builds")
      )
        return false;
      const body = text.replace(PREFIX, "");
      if (summaryNext) {
        summaryNext = false;
        const c = COUNTS.exec(body);
        if (c) {
          sink.summary({
            passed: Number(c[1]),
            failed: Number(c[2]),
            error: Number(c[3]),
            skipped: Number(c[4]),
          });
          return true;
        }
      }
      if (body.trimEnd() === "Build Summary:") {
        summaryNext = true;
        return true;
      }
      if (HEADING.test(body)) {
        listing = true;
        return true;
      }
      if (!listing) return false;
      const e = body.startsWith("*") ? ENTRY.exec(body) : null;
      if (!e) {
        listing = false;
        return false;
      }
      if (count++ >= 10_000) return true;
      const test = own(e[1]!);
      sink.test(test, "failed");
      sink.failure({
        category: "test",
        test,
        message: `integration build ${test} failed`,
        start: lineNo,
        end: lineNo,
      });
      return true;
    },
    end(): void {},
  };
}

export const mavenInvokerFormat: FormatDefinition = {
  name: "maven-invoker",
  description: "Maven Invoker Plugin: `Build Summary:` counts and `The following builds failed:` entries",
  create: createMavenInvokerParser,
};
