/** Signs in through the API like the web app does; answers the Cookie header value of the session. */
export async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200)
    throw new Error(`Sign-in of "${username}" answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('cm.sid='));
  if (!cookie) throw new Error(`Sign-in of "${username}" set no session cookie`);
  return cookie;
}

/**
 * A JSON caller of the API with a session, each call within 30 s: answers the status and the
 * parsed body. `base` and `cookie` are read at each call (a test signs in after it is made).
 */
export function sessionApi(base: () => string, cookie: () => string) {
  return async <T>(method: string, route: string, body?: unknown) => {
    const res = await fetch(`${base()}${route}`, {
      method,
      headers: { cookie: cookie(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: (await res.json()) as T };
  };
}

/** Headers that carry a session (merge them into a fetch's headers). */
export const sessionHeaders = (cookie: string): Record<string, string> => ({ cookie });

/** Creates a user as an administrator; answers its id. */
export async function createUser(
  baseUrl: string,
  adminCookie: string,
  user: { username: string; password: string; role?: 'user' | 'admin' },
): Promise<string> {
  const res = await fetch(`${baseUrl}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: adminCookie },
    body: JSON.stringify(user),
  });
  if (res.status !== 201)
    throw new Error(`Creating "${user.username}" answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}
