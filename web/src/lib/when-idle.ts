/**
 * Runs `run` once the browser is idle, and within `timeoutMs` at the latest (after 200 ms where
 * there is no idle callback: Safari). For what comes after the first screen (a form's code, the
 * outbox's sending, tooltips): asked for at once, it would take the browser's connections and
 * time while the screen asks for its own reads (docs/benchmarks.md, the web app on a phone).
 * Answers a function that cancels it.
 */
export function whenIdle(run: () => void, timeoutMs = 2000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(run, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(run, 200);
  return () => window.clearTimeout(timer);
}
