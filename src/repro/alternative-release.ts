/**
 * A release the report names as an alternative to another ("Release `3.0.0` (or `3.0.1`) appears to bring in an
 * error", "on 2.4.0 or 2.4.1", "1.2.0/1.2.1"): when the first is not on the registry (taoqf/node-html-parser#100:
 * 3.0.0 was never published), the other is the report's release too, and is installed instead. Pure.
 */
import { escapeRegExp } from "../core/regexp.ts";

/** The release written as an alternative right after `version` in `text`, or null. */
export function alternativeRelease(text: string, version: string): string | null {
  const re = new RegExp(
    `(?<![\\w.])v?${escapeRegExp(version)}\`?\\s*(?:\\(\\s*)?(?:or|/)\\s*(?:version\\s+)?\`?v?(\\d+\\.\\d+(?:\\.\\d+)?(?:-[\\w.]+)?)(?!\\w|\\.\\d)`,
    "i",
  );
  const alt = re.exec(text)?.[1];
  return alt && alt !== version ? alt : null;
}
