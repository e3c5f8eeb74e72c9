/**
 * The directories and files Retrace keeps its own state in on the host — the App's job database, the install cache
 * and the caches beside it (registry look-ups, Node releases, image tool versions) — belong to the user running
 * Retrace, whatever the process's umask. Under umask 000 (what some container runtimes and init systems set) the
 * job database was created 0666 in a 0777 directory and the install cache 0777 (thirty-first red team): any local
 * user could rewrite a queued job (resumed with the installation's token) or plant a tree that every later sandbox
 * receives. A umask only removes bits, so an explicit mode is what a new directory or file gets at most: directories
 * are made 0700 and files 0600. A state directory that already exists and that every user may write into is refused
 * (its content cannot be trusted); one of the operator's own making with other modes is left as it is.
 */
import { mkdirSync, statSync } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { InfrastructureError } from "../core/errors.ts";

/** The mode of a directory Retrace makes for its state (owner only). */
export const PRIVATE_DIR_MODE = 0o700;
/** The mode of a file Retrace writes for its state (owner only). */
export const PRIVATE_FILE_MODE = 0o600;

/** Whether `mode` lets every user write (the other-write bit; a sticky bit does not stop new names). */
export function writableByAll(mode: number): boolean {
  return (mode & 0o002) !== 0;
}

function refusal(dir: string, what: string, mode: number): InfrastructureError {
  return new InfrastructureError(
    `the ${what} ${dir} is writable by every user (mode ${(mode & 0o7777).toString(8).padStart(4, "0")}): another user could change what Retrace reads from it`,
    `run \`chmod o-w ${dir}\`, or point Retrace at a directory only its user writes`,
  );
}

/** `dir` and its missing parents made owner-only; the directory refused when every user may write into it. */
export function privateDirSync(dir: string, what: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const st = statSync(dir);
  if (writableByAll(st.mode)) throw refusal(dir, what, st.mode);
}

/** `privateDirSync`, asynchronous. */
export async function privateDir(dir: string, what: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const st = await stat(dir);
  if (writableByAll(st.mode)) throw refusal(dir, what, st.mode);
}
