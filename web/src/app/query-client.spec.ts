import { getQueryFn, throwIfNotOk } from './query-client';

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
