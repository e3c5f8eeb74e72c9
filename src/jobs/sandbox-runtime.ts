/**
 * The sandbox image's Node version, asked once: a `node --version` run in the sandbox itself, kept on disk
 * (`<cache>/image-runtimes.json`) by the image's id, so a rebuilt image is asked again and an unchanged one
 * never twice. The reproduction pipeline uses it to install, for a report without a version, the newest
 * release that runs on that Node (`RegistryLookup`). Any failure answers null: the version is then unknown and
 * the registry's latest is used, as before.
 */
import { readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Sandbox } from "../core/ports/sandbox.ts";
import type { RuntimeVersions } from "../repro/ports.ts";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../install/private-state.ts";

export interface SandboxRuntimeOptions {
  sandbox: Sandbox;
  /** A stable key of the image (its id); null or a failure: not cached on disk. */
  imageKey: () => Promise<string | null>;
  /** Cache directory; null: no disk cache. */
  cacheDir: string | null;
}

/** `v18.20.4` → `18.20.4`; null when the text is not one version. */
export function parseNodeVersion(text: string): string | null {
  return /^v?(\d+\.\d+\.\d+)\s*$/.exec(text.trim())?.[1] ?? null;
}

export function sandboxRuntimeProbe(options: SandboxRuntimeOptions): () => Promise<RuntimeVersions | null> {
  let answer: Promise<RuntimeVersions | null> | undefined;
  const file = options.cacheDir ? path.join(options.cacheDir, "image-runtimes.json") : null;
  const ask = async (): Promise<RuntimeVersions | null> => {
    const key = await options.imageKey().catch(() => null);
    let disk: Record<string, RuntimeVersions> = {};
    if (file && key) {
      try {
        disk = JSON.parse(readFileSync(file, "utf8")) as typeof disk;
      } catch {
        disk = {};
      }
      const known = disk[key];
      if (known?.node) return known;
    }
    const r = await options.sandbox.run({
      jobId: "retrace-runtime-probe",
      command: ["node", "--version"],
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/tmp" },
      limits: { timeoutMs: 30_000 },
    });
    const node = r.exitCode === 0 ? parseNodeVersion(r.stdout) : null;
    if (!node) return null;
    if (file && key) {
      disk[key] = { node };
      try {
        await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
        const tmp = `${file}.${process.pid}.tmp`;
        await writeFile(tmp, JSON.stringify(disk), { mode: PRIVATE_FILE_MODE });
        await rename(tmp, file);
      } catch {
        // an unwritable cache only costs one probe next time
      }
    }
    return { node };
  };
  return () => {
    answer ??= ask().catch(() => null);
    return answer;
  };
}
