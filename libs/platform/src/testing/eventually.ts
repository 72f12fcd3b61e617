/**
 * Retries `check` until it stops throwing (an `expect` inside is the usual check) and answers
 * what it returned; once `timeoutMs` has passed, the last failure is thrown as it was. The default
 * guards against a hang, not a slow machine: with the other test lanes and a CPU hog beside them,
 * a replica has taken over 15 s to work through a sweep it was sent.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 30_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}
