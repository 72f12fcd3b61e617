import { ApiError, apiRequest, errorMessage, getQueryFn, throwIfNotOk } from './api';

describe(throwIfNotOk.name, () => {
  it('raises "status: body text" for a non-OK answer', async () => {
    await expect(throwIfNotOk(new Response('Building name is required', { status: 400 }))).rejects.toThrow(
      '400: Building name is required',
    );
  });

  it('falls back to the status text when the body is empty', async () => {
    await expect(
      throwIfNotOk(new Response(null, { status: 503, statusText: 'Service Unavailable' })),
    ).rejects.toThrow('503: Service Unavailable');
  });
});

describe(getQueryFn.name, () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
  });

  it('GETs the query key segments joined by "/" with credentials, and may return null on 401', async () => {
    const calls: [string, RequestInit | undefined][] = [];
    global.fetch = (async (url: string, init?: RequestInit) => {
      calls.push([url, init]);
      return new Response('{"message":"Sign in first"}', { status: 401 });
    }) as typeof fetch;
    const sut = getQueryFn<unknown>({ on401: 'returnNull' });
    const result = await sut({ queryKey: ['/api/buildings', 'b1', 'rooms'] } as never);
    expect(result).toBeNull();
    expect(calls).toEqual([['/api/buildings/b1/rooms', { credentials: 'include' }]]);
  });
});

describe(apiRequest.name, () => {
  const realFetch = global.fetch;
  let calls: [string, RequestInit | undefined][];
  beforeEach(() => {
    calls = [];
    global.fetch = (async (url: string, init?: RequestInit) => {
      calls.push([url, init]);
      return new Response(null, { status: 204 });
    }) as typeof fetch;
  });
  afterEach(() => {
    global.fetch = realFetch;
  });

  it('sends a JSON body and its content type only when there is a payload', async () => {
    await apiRequest('POST', '/api/logout');
    await apiRequest('PUT', '/api/buildings/b1', { name: 'Science Hall' });
    expect(calls).toEqual([
      ['/api/logout', { method: 'POST', headers: {}, body: undefined, credentials: 'include' }],
      [
        '/api/buildings/b1',
        {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: '{"name":"Science Hall"}',
          credentials: 'include',
        },
      ],
    ]);
  });
});

describe(errorMessage.name, () => {
  it("shows the server's message from our JSON error shape", () => {
    const error = new ApiError(
      401,
      '{"code":"AUTH.INVALID_CREDENTIALS","message":"Invalid username or password"}',
      'Unauthorized',
    );
    expect(error.message).toMatch(/^401: \{/);
    expect(errorMessage(error)).toBe('Invalid username or password');
  });

  it('shows a plain-text body as it is, and the status line when the body is empty', () => {
    expect(errorMessage(new ApiError(502, 'Bad gateway upstream', 'Bad Gateway'))).toBe(
      'Bad gateway upstream',
    );
    expect(errorMessage(new ApiError(503, '', 'Service Unavailable'))).toBe('503: Service Unavailable');
  });
});
