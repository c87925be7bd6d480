// Waiting until a condition holds: the one poll loop of every test layer (Node, the extension host, the UI).
// A wait ends on something observable; the time limit only turns a wait that never ends into a named failure.

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` every `everyMs` until it returns something other than undefined or false, and returns that; throws
 * after `timeoutMs`, naming `what` it waited for.
 */
export async function waitForValue<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await pause(everyMs);
  }
}

/** Polls `check` every `everyMs` (10 ms: in-process state) until it holds; throws after `timeoutMs`, naming `what`. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
  everyMs = 10,
): Promise<void> {
  await waitForValue(what, async () => (await check()) || undefined, timeoutMs, everyMs);
}
