import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { type ReactElement } from 'react';
import { Toaster } from '../components/ui/toaster';
import { getQueryFn } from '../lib/api';

/** Renders a screen with what the app wraps it in: a fresh query client and the toaster
 * (a screen brings its own tooltips). */
export function renderWithApp(ui: ReactElement) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { queryFn: getQueryFn({ on401: 'throw' }), retry: false, gcTime: 0 } },
  });
  return {
    queryClient,
    ...render(
      <QueryClientProvider client={queryClient}>
        {ui}
        <Toaster />
      </QueryClientProvider>,
    ),
  };
}

type FakeAnswer = { status: number; body?: unknown };

/** Stands in for the network: each call takes the next answer and is recorded. */
export function fakeFetch(...answers: FakeAnswer[]) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const pending: FakeAnswer[] = [...answers];
  const fn = jest.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    const answer = pending.shift() ?? { status: 500, body: 'no more answers' };
    const text =
      answer.body === undefined
        ? ''
        : typeof answer.body === 'string'
          ? answer.body
          : JSON.stringify(answer.body);
    return {
      ok: answer.status >= 200 && answer.status < 300,
      status: answer.status,
      statusText: '',
      text: async () => text,
      json: async () => JSON.parse(text),
    };
  });
  global.fetch = fn as unknown as typeof fetch;
  return calls;
}
