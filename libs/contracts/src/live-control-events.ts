// Without zod: the web app's signed-in shell reads it on its first screen (issue 37's budget).

/**
 * Control events of the stream, besides the live ones: `ready` (connected; its id is the position
 * to resume from), `resync` (the id asked for is older than the stream keeps: refetch everything),
 * `ended` (the session is over: the stream closes and the client should not reconnect).
 */
export const liveControlEvents = { ready: 'ready', resync: 'resync', ended: 'ended' } as const;
