/**
 * Connecting to the Docker engine with errors a user can act on.
 */
import Docker from "dockerode";
import { InfrastructureError } from "../core/errors.ts";

/** Where this client connects, in words: its socket path or host:port (DOCKER_HOST, else the default socket). */
export function engineAddress(docker?: Docker): string {
  const modem = (
    docker as { modem?: { socketPath?: unknown; host?: string; port?: string | number } } | undefined
  )?.modem;
  if (typeof modem?.socketPath === "string") return modem.socketPath;
  if (modem?.host) return `${modem.host}${modem.port ? `:${modem.port}` : ""}`;
  return process.env.DOCKER_HOST ?? "/var/run/docker.sock";
}

export function connectDocker(): Docker {
  return new Docker();
}

/** Ping the engine within `timeoutMs`; throws an InfrastructureError that says what to do. */
export async function pingEngine(docker: Docker, timeoutMs = 5_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      docker.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    throw new InfrastructureError(
      `Docker engine not reachable at ${engineAddress(docker)} (${(error as Error).message})`,
      "start it (as root: `npm run setup` installs and starts one) or set DOCKER_HOST",
      error,
    );
  } finally {
    clearTimeout(timer);
  }
}

/** Throws when the image is missing, naming the command that builds it. */
export async function requireImage(docker: Docker, image: string): Promise<void> {
  try {
    await docker.getImage(image).inspect();
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 404) {
      throw new InfrastructureError(
        `sandbox image ${image} not found`,
        `build it: \`npm run setup\` (or \`sudo sandbox/build-offline.sh ${image}\` without a registry, or \`docker build -t ${image} sandbox/\`)`,
      );
    }
    throw new InfrastructureError(
      `could not inspect sandbox image ${image}: ${(error as Error).message}`,
      undefined,
      error,
    );
  }
}
