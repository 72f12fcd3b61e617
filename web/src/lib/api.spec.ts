import { type Building } from '@cm/contracts';
import { apiRoutes } from './api-routes';
import {
  ApiError,
  apiCreate,
  apiJson,
  apiQuery,
  errorMessage,
  fieldErrorsOf,
  getQueryFn,
  NetworkError,
  nullOn401,
  queryKeyOf,
  throwIfNotOk,
} from './api';

type Call = [string, RequestInit | undefined];

/** Stands in for the network: each call is recorded and answered by `answer`. */
function fakeFetch(answer: () => Response): Call[] {
  const calls: Call[] = [];
  global.fetch = (async (url: string, init?: RequestInit) => {
    calls.push([url, init]);
    return answer();
  }) as typeof fetch;
  return calls;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const building: Building = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Science Hall',
  description: null,
  imageUrl: null,
  version: 1,
};

const realFetch = global.fetch;
afterEach(() => {
  global.fetch = realFetch;
});

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

describe(apiJson.name, () => {
  it("builds the path from the route's parameters, each encoded", async () => {
    const calls = fakeFetch(() => json([]));
    await apiJson(apiRoutes.listRooms, { buildingId: 'b1' });
    await apiJson(apiRoutes.listEquipment, { roomId: 'a/b c?' });
    expect(calls.map(([url]) => url)).toEqual([
      '/api/buildings/b1/rooms',
      '/api/rooms/a%2Fb%20c%3F/equipment',
    ]);
  });

  it("puts a route's query parameters in the query string, each encoded, and in the query key", async () => {
    const empty = { items: [], more: false };
    const calls = fakeFetch(() => json({ query: 'a&b c', buildings: empty, rooms: empty, equipment: empty }));
    await apiJson(apiRoutes.search, { q: 'a&b c' });
    expect(calls.map(([url]) => url)).toEqual(['/api/search?q=a%26b+c']);
    expect(apiQuery(apiRoutes.search, { q: 'a&b c' }).queryKey).toEqual(['/api/search', 'q=a%26b+c']);
  });

  it('puts the query string after the path parameters of a route that has both, or leaves it out', async () => {
    const calls = fakeFetch(() => json(null, 500));
    const id = 'e/1';
    await apiJson(apiRoutes.equipmentHistory, { id }, { from: '2026-11-01', to: '2026-11-02' }).catch(
      () => {},
    );
    await apiJson(apiRoutes.equipmentHistory, { id }).catch(() => {});
    expect(calls.map(([url]) => url)).toEqual([
      '/api/equipment/e%2F1/history?from=2026-11-01&to=2026-11-02',
      '/api/equipment/e%2F1/history',
    ]);
    expect(apiQuery(apiRoutes.equipmentHistory, { id }, { from: '2026-11-01' }).queryKey).toEqual([
      '/api/equipment',
      id,
      'history',
      'from=2026-11-01',
    ]);
  });

  it('sends the method and the cookie, and a JSON body and its content type only with a payload', async () => {
    const answers = [new Response(null, { status: 204 }), json(building)];
    const calls = fakeFetch(() => answers.shift() ?? json(null, 500));
    await apiJson(apiRoutes.logout);
    await apiJson(apiRoutes.updateBuilding, { id: building.id }, { name: 'Science Hall' });
    expect(calls).toEqual([
      [
        '/api/logout',
        {
          method: 'POST',
          headers: {},
          body: undefined,
          credentials: 'include',
          signal: expect.any(AbortSignal),
        },
      ],
      [
        `/api/buildings/${building.id}`,
        {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: '{"name":"Science Hall"}',
          credentials: 'include',
          signal: expect.any(AbortSignal),
        },
      ],
    ]);
  });

  it("sends a create's Idempotency-Key with it", async () => {
    const calls = fakeFetch(() => json(building, 201));
    await apiCreate(apiRoutes.createBuilding, 'key-of-one-submission', undefined, { name: 'Science Hall' });
    expect(calls[0]?.[1]?.headers).toEqual({
      'Idempotency-Key': 'key-of-one-submission',
      'Content-Type': 'application/json',
    });
  });

  it('gives up on a call that has not answered by its deadline, saying what to do', async () => {
    jest.useFakeTimers();
    try {
      global.fetch = ((_url: string, init?: RequestInit) =>
        new Promise((_, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        )) as typeof fetch;
      const call = apiJson(apiRoutes.listBuildings);
      const failed = expect(call).rejects.toThrow(new NetworkError('timeout'));
      jest.advanceTimersByTime(15_000);
      await failed;
      await expect(call).rejects.toThrow(
        'The server did not answer in time. Check the connection and try again.',
      );
    } finally {
      jest.useRealTimers();
    }
  });

  it('says the server could not be reached when there is no network', async () => {
    global.fetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
    await expect(apiJson(apiRoutes.listBuildings)).rejects.toThrow(
      'Could not reach the server. Check the connection and try again.',
    );
  });

  it('asks a read once more when the network changed under it, and never resends a write', async () => {
    const methods: string[] = [];
    let cutOff = true;
    global.fetch = (async (_url: string, init?: RequestInit) => {
      methods.push(init?.method ?? 'GET');
      if (cutOff) {
        cutOff = false;
        throw new TypeError('Failed to fetch'); // net::ERR_NETWORK_CHANGED
      }
      return json(building);
    }) as typeof fetch;
    await expect(apiJson(apiRoutes.getBuilding, { id: building.id })).resolves.toEqual(building);
    expect(methods).toEqual(['GET', 'GET']);

    methods.length = 0;
    cutOff = true;
    await expect(apiJson(apiRoutes.createBuilding, undefined, { name: 'Hall' })).rejects.toThrow(
      'Could not reach the server. Check the connection and try again.',
    );
    expect(methods).toEqual(['POST']);
  });

  it("answers the reply as the route's response schema reads it", async () => {
    fakeFetch(() => json({ ...building, notInTheContract: true }));
    await expect(apiJson(apiRoutes.getBuilding, { id: building.id })).resolves.toEqual(building);
  });

  it('answers nothing for a route without a response', async () => {
    fakeFetch(() => new Response(null, { status: 204 }));
    await expect(apiJson(apiRoutes.deleteBuilding, { id: building.id })).resolves.toBeUndefined();
  });

  it('refuses a reply of another shape, naming the route and what is wrong', async () => {
    fakeFetch(() => json([{ ...building, roomCount: 'three' }]));
    await expect(apiJson(apiRoutes.listBuildings)).rejects.toThrow(
      /^The server's answer to listBuildings \(GET \/api\/buildings\) was not as expected: 0\.roomCount: /,
    );
  });

  it('refuses a reply that is not JSON', async () => {
    fakeFetch(() => new Response('<html>Sign in</html>', { status: 200 }));
    await expect(apiJson(apiRoutes.monitoringStatus)).rejects.toThrow(
      "The server's answer to monitoringStatus (GET /api/monitoring/status) was not as expected: it is not JSON",
    );
  });

  it('raises ApiError with "status: body" for a non-OK answer', async () => {
    const body = '{"code":"INVENTORY.BUILDING_NOT_FOUND","message":"No such building"}';
    fakeFetch(() => new Response(body, { status: 404, statusText: 'Not Found' }));
    const failure = apiJson(apiRoutes.getBuilding, { id: building.id });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 404, message: `404: ${body}` });
  });
});

describe(queryKeyOf.name, () => {
  it('cuts the path at its parameters, so the key joined by "/" is the path', () => {
    expect(queryKeyOf(apiRoutes.listBuildings)).toEqual(['/api/buildings']);
    expect(queryKeyOf(apiRoutes.getRoom, { id: 'r1' })).toEqual(['/api/rooms', 'r1']);
    expect(queryKeyOf(apiRoutes.listRooms, { buildingId: 'b1' })).toEqual(['/api/buildings', 'b1', 'rooms']);
  });

  it('says which parameter is missing', () => {
    expect(() => queryKeyOf(apiRoutes.getRoom, {})).toThrow(
      'getRoom (GET /api/rooms/:id) needs the id parameter',
    );
  });
});

describe(nullOn401.name, () => {
  it('answers null for a 401 and passes any other failure on', async () => {
    await expect(nullOn401(Promise.reject(new ApiError(401, '', 'Unauthorized')))).resolves.toBeNull();
    await expect(nullOn401(Promise.reject(new ApiError(500, 'boom', '')))).rejects.toThrow('500: boom');
    await expect(nullOn401(Promise.resolve('user'))).resolves.toBe('user');
  });
});

describe(getQueryFn.name, () => {
  it('GETs the query key segments joined by "/" with credentials, and may return null on 401', async () => {
    const calls = fakeFetch(() => new Response('{"message":"Sign in first"}', { status: 401 }));
    const sut = getQueryFn({ on401: 'returnNull' });
    const result = await sut({ queryKey: ['/api/buildings', 'b1', 'rooms'] } as never);
    expect(result).toBeNull();
    expect(calls).toEqual([
      ['/api/buildings/b1/rooms', { credentials: 'include', signal: expect.any(AbortSignal) }],
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

describe(fieldErrorsOf.name, () => {
  const refused = (body: unknown) => new ApiError(400, JSON.stringify(body), 'Bad Request');

  it("answers the field messages of our JSON error shape, each under its field's path", () => {
    const body = {
      code: 'COMMON.VALIDATION',
      message: 'Name is required',
      errors: [{ path: 'name', message: 'Required' }],
    };
    expect(fieldErrorsOf(refused(body))).toEqual([{ path: 'name', message: 'Required' }]);
  });

  it('answers none for another shape, a body that is not JSON, or another error', () => {
    expect(
      fieldErrorsOf(refused({ code: 'X', message: 'No', errors: [{ path: 1, message: 'Required' }] })),
    ).toEqual([]);
    expect(
      fieldErrorsOf(refused({ message: 'No', errors: [{ path: 'name', message: 'Required' }] })),
    ).toEqual([]);
    expect(fieldErrorsOf(refused({ code: 'X', message: 'No' }))).toEqual([]);
    expect(fieldErrorsOf(new ApiError(400, 'Bad input', 'Bad Request'))).toEqual([]);
    expect(fieldErrorsOf(new Error('boom'))).toEqual([]);
  });
});
