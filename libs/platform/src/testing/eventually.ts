/**
 * Retries `check` until it stops throwing (an `expect` inside is the usual check) and answers
 * what it returned; once `timeoutMs` has passed, the last failure is thrown as it was.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 15_000,
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
