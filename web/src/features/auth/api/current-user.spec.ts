import { type User } from '@cm/contracts';
import { QueryClient } from '@tanstack/react-query';
import { currentUserQuery } from './current-user';

const user: User = {
  id: '00000000-0000-4000-8000-000000000001',
  username: 'admin',
  email: null,
  firstName: null,
  lastName: null,
  role: 'admin',
  isActive: 1,
  totpEnabled: false,
  external: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

describe('currentUserQuery', () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
  });

  const ask = (answer: Response) => {
    global.fetch = (async () => answer) as typeof fetch;
    return new QueryClient().fetchQuery(currentUserQuery);
  };

  it('is keyed by the path the default fetch would ask', () => {
    expect(currentUserQuery.queryKey).toEqual(['/api/auth/user']);
  });

  it('answers the signed-in user, and null when signed out (401)', async () => {
    await expect(ask(Response.json(user))).resolves.toEqual(user);
    await expect(ask(new Response('{"code":"AUTH.UNAUTHENTICATED"}', { status: 401 }))).resolves.toBeNull();
  });

  it('raises any other failure', async () => {
    await expect(ask(new Response('down', { status: 503 }))).rejects.toThrow('503: down');
  });
});
