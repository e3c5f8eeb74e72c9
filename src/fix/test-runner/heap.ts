/**
 * V8's own heap limit, reached inside the sandbox. Node sizes its default JavaScript heap from the memory it is
 * given (half of the container's limit, capped at 2 GiB by Node 18 and 4 GiB by Node 20 and later), so a build or
 * a suite that needs 1.5 GiB of heap dies with "JavaScript heap out of memory" (exit 134) in a 2 GiB sandbox and
 * passes on a CI runner with 7-16 GB. That is the sandbox's size, not a finding about the code: the run is read as
 * stopped by the memory limit (an infrastructure error naming `sandbox.limits.memoryMb`), never as REJECTED or
 * "not fixed". Not when the heap limit is the sandbox-independent one: a run with 8 GiB or more (every Node's
 * default cap then applies, as on a runner), or a command that sets `--max-old-space-size` itself.
 */

/** V8's fatal messages for an exhausted heap (Node 12-26; the trailing words vary with the allocation site). */
const HEAP_EXHAUSTED =
  /FATAL ERROR: [^\n]*JavaScript heap out of memory|Fatal JavaScript out of memory|FATAL ERROR: Reached heap limit/;

/** Memory from which Node's default heap no longer depends on the sandbox (twice the largest default cap). */
const SANDBOX_INDEPENDENT_MB = 8_192;

/**
 * Whether `output` shows V8 running out of a heap whose size the sandbox's memory (`memoryMb`) set. `command` is
 * the script that ran (with its environment assignments), so an explicit `--max-old-space-size` is seen.
 */
export function heapExhaustedBySandbox(
  output: string,
  memoryMb: number | undefined,
  command: string,
): boolean {
  if (memoryMb === undefined || memoryMb >= SANDBOX_INDEPENDENT_MB) return false;
  if (/--max[-_]old[-_]space[-_]size\b/.test(command)) return false;
  return HEAP_EXHAUSTED.test(output);
}
