/**
 * What providers open while a service starts, kept by the service's configuration object (one per
 * start). A start that fails inside NestFactory.create, say a DATABASE_MIGRATIONS=wait that gives
 * up, throws before there is an app whose shutdown hooks would close them: bootstrapService closes
 * them then instead, so a process hosting several services (the tests) is not left with open
 * connections.
 */
const openedDuringStart = new WeakMap<object, Array<() => Promise<void>>>();
/** Starts that failed: Nest does not wait for a provider still opening when another one throws. */
const failedStarts = new WeakSet<object>();

/** Registers `close` to run should the start of the service with this configuration fail. */
export function closeIfStartFails(config: object, close: () => Promise<void>): void {
  if (failedStarts.has(config)) {
    void close().catch(() => undefined);
    return;
  }
  const closers = openedDuringStart.get(config) ?? [];
  closers.push(close);
  openedDuringStart.set(config, closers);
}

/** Closes what the failed start opened, newest first, and whatever it opens from now on. */
export async function closeOpenedDuringStart(config: object): Promise<void> {
  failedStarts.add(config);
  const closers = openedDuringStart.get(config) ?? [];
  openedDuringStart.delete(config);
  for (const close of closers.reverse()) await close().catch(() => undefined);
}

/** The start went through: from now on the app's shutdown hooks close what it opened. */
export function startSucceeded(config: object): void {
  openedDuringStart.delete(config);
}
