/**
 * TeamCity service messages, which test tools print for TeamCity (and for IntelliJ's runner) on stdout:
 * `##teamcity[testStarted name='…']`, `##teamcity[testFailed name='…' message='…' details='…']`,
 * `##teamcity[testIgnored name='…']`, `##teamcity[testFinished name='…']`. Attribute values escape with `|`
 * (`|'`, `||`, `|n`, `|r`, `|[`, `|]`, `|0x0041`).
 *
 * The id is the message's `name`, as the tool wrote it (TeamCity's own test name: some tools write the full name there,
 * kotest only the test's title); a message with no name is skipped. A test started and finished with no
 * testFailed/testIgnored passed. No place: the messages carry none.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const MESSAGE = /^##teamcity\[(test(?:Started|Failed|Ignored|Finished))\s(.*)\]\s*$/;
const ATTR = /(\w+)='((?:[^'|]|\|.)*)'/g;

function unescaped(value: string): string {
  return value.replace(/\|(0x[0-9a-fA-F]{4}|.)/g, (_m, c: string) => {
    if (c.startsWith("0x")) return String.fromCharCode(Number.parseInt(c.slice(2), 16));
    return c === "n" ? "\n" : c === "r" ? "\r" : c === "l" ? "\u2028" : c === "p" ? "\u2029" : c;
  });
}

function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(ATTR)) out.set(m[1]!, unescaped(m[2]!));
  return out;
}

export function createTeamcityParser(sink: ParserSink) {
  /** Outcomes settled by testFailed/testIgnored, so that their testFinished adds no pass. */
  const settled = new Set<string>();
  return {
    line(text: string, lineNo: number): boolean {
      const m = text.startsWith("##teamcity[test") ? MESSAGE.exec(text) : null;
      if (!m) return false;
      const attrs = attributes(m[2]!);
      const name = attrs.get("name");
      if (!name) return true;
      if (m[1] === "testFailed") {
        const test = own(name);
        if (settled.size < 100_000) settled.add(test);
        const message = attrs.get("message") ?? "";
        const details = attrs.get("details") ?? "";
        sink.test(test, "failed");
        sink.failure({
          category: "test",
          test,
          message: own(message || details.split("\n", 1)[0] || "failed"),
          stack: details ? own(details) : null,
          start: lineNo,
          end: lineNo,
        });
      } else if (m[1] === "testIgnored") {
        if (settled.size < 100_000) settled.add(own(name));
        sink.test(own(name), "skipped");
      } else if (m[1] === "testFinished" && !settled.has(name)) {
        sink.test(own(name), "passed");
      }
      return true;
    },
    end(): void {},
  };
}

export const teamcityFormat: FormatDefinition = {
  name: "teamcity",
  description: "TeamCity service messages (##teamcity[testFailed name='…' message='…'])",
  create: createTeamcityParser,
  wakesOn: /^##teamcity\[test/,
};
