/**
 * The CloudSlang builder (`cslang-builder`, which runs a content repository's CloudSlang test cases) at the end of a
 * failed build: `Following 4 tests failed:` (after its Maven-like `BUILD FAILURE` banner), then one entry per test,
 * `- Test case failed: NAME [C:\…\x.inputs.yaml] - description` or `- Error occurred while running test: NAME [path…`,
 * each with its expected/actual lines indented below. Its lines may carry the builder's `HH:MM:SS [ERROR] ` prefix.
 *
 * An entry counts only under that heading. The id is the test case's name as printed (the key of its test suite's
 * `.inputs.yaml` entry); the suite file is a machine's path, no place in the repository.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const PREFIX = /^(?:\d{2}:\d{2}:\d{2} )?(?:\[(?:ERROR|INFO|WARN|WARNING)\] ?)?/;
const HEADING = /^Following (\d+) tests? (?:cases? )?failed:\s*$/;
const ENTRY = /^- (?:Test case failed|Error occurred while running test): ([^\s[\]]+) \[/;

export function createCloudslangParser(sink: ParserSink) {
  let listing = false;
  let entry: { test: string; text: string[]; start: number; end: number } | null = null;
  let count = 0;

  function close(): void {
    const e = entry;
    entry = null;
    if (!e || count >= 10_000) return;
    count++;
    const test = own(e.test);
    sink.test(test, "failed");
    sink.failure({
      category: "test",
      test,
      message: own(e.text.join("\n")),
      start: e.start,
      end: e.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      const body = text.replace(PREFIX, "");
      const h = body.startsWith("Following ") ? HEADING.exec(body) : null;
      if (h) {
        close();
        listing = Number(h[1]) > 0;
        if (listing) sink.summary({ failed: Number(h[1]) });
        return true;
      }
      if (!listing) return false;
      const e = body.startsWith("- ") ? ENTRY.exec(body) : null;
      if (e) {
        close();
        entry = { test: e[1]!, text: [body], start: lineNo, end: lineNo };
        return true;
      }
      // The entry's expected/actual lines, indented under it.
      if (entry && /^\s+\S/.test(text) && entry.text.length < 30) {
        entry.text.push(text.trim());
        entry.end = lineNo;
        return true;
      }
      close();
      listing = false;
      return false;
    },
    end(): void {
      close();
    },
  };
}

export const cloudslangFormat: FormatDefinition = {
  name: "cloudslang",
  description:
    "CloudSlang builder: `Following N tests failed:` and its `- Test case failed: NAME [suite]` entries",
  create: createCloudslangParser,
};
