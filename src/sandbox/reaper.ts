/**
 * The reaper: removes Retrace containers that outlived their run — past the deadline stamped on them at
 * creation, or owned by a process on this host that no longer exists. Containers of live runs are left alone,
 * so several Retrace processes can share one engine.
 */
import os from "node:os";
import type Docker from "dockerode";

export const RETRACE_LABEL = "dev.retrace.managed";

export interface ReapResult {
  removed: string[];
  kept: number;
}

export async function reapContainers(docker: Docker, now = Date.now()): Promise<ReapResult> {
  const list = await docker.listContainers({ all: true, filters: { label: [`${RETRACE_LABEL}=1`] } });
  const removed: string[] = [];
  let kept = 0;
  for (const info of list) {
    if (!isAbandoned(info.Labels ?? {}, now)) {
      kept++;
      continue;
    }
    try {
      await docker.getContainer(info.Id).remove({ force: true, v: true });
      removed.push(info.Id);
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) removed.push(info.Id);
    }
  }
  return { removed, kept };
}

function isAbandoned(labels: Record<string, string>, now: number): boolean {
  const deadline = Number(labels["dev.retrace.deadline"]);
  if (!Number.isFinite(deadline) || deadline < now) return true;
  const [host, pid] = (labels["dev.retrace.owner"] ?? "").split(":");
  if (host === os.hostname() && pid && !processAlive(Number(pid))) return true;
  return false;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
