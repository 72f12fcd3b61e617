/**
 * Waits for `work` for at most `ms`; a rejection that comes in time is thrown. The timer does not
 * keep the process up.
 */
export async function waitAtMost(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms).unref()))]);
  } finally {
    clearTimeout(timer);
  }
}
