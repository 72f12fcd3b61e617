import { type QueryFunction } from '@tanstack/react-query';

/**
 * A non-OK answer. Its message is "status: body text" (or the status text when the body is
 * empty), as spec section 8 says; `status` and `body` let a screen tell a person what went wrong.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
  }
}

export async function throwIfNotOk(res: Response): Promise<void> {
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
}

/**
 * Every call sends the session cookie; a JSON body and its content type only when there is a
 * payload.
 */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data === undefined ? {} : { 'Content-Type': 'application/json' },
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: 'include',
  });
  await throwIfNotOk(res);
  return res;
}

/** The default fetch: a GET to the query key segments joined by "/". */
export function getQueryFn<T>({ on401 }: { on401: 'returnNull' | 'throw' }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include' });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfNotOk(res);
    return (await res.json()) as T;
  };
}

/**
 * The sentence to show a person for a failed call: the server's own `message` when it answered
 * our JSON error shape, rather than "401: {"code":…}".
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    try {
      const parsed = JSON.parse(error.body) as { message?: unknown };
      if (typeof parsed.message === 'string' && parsed.message) return parsed.message;
    } catch {
      // not JSON: the raw text is the message
    }
    if (error.status === 0 || !error.body) return error.message;
    return error.body;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
