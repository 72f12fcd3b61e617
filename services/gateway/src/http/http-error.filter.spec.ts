import { ErrorCode } from '@cm/contracts';
import { type ArgumentsHost } from '@nestjs/common';
import { HttpErrorFilter } from './http-error.filter';

/** What the filter answers a failed `GET /api/buildings` with. */
function answer(exception: unknown) {
  const sent: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
  const res = {
    headersSent: false,
    hasHeader: (name: string) => name in sent.headers,
    setHeader: (name: string, value: string) => (sent.headers[name] = value),
    status(code: number) {
      sent.status = code;
      return this;
    },
    json: (body: unknown) => (sent.body = body),
  };
  const req = { path: '/api/buildings', method: 'GET' };
  const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) };
  new HttpErrorFilter(null).catch(exception, host as unknown as ArgumentsHost);
  return sent;
}

describe('HttpErrorFilter', () => {
  it("answers 503, worth trying again, when the gateway's own database pool has no connection in time", () => {
    expect(answer(new Error('timeout exceeded when trying to connect'))).toMatchObject({
      status: 503,
      body: {
        code: ErrorCode.SERVICE_UNAVAILABLE,
        message: 'The service is unavailable just now. Try again shortly.',
      },
    });
    expect(
      answer(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))
        .status,
    ).toBe(503);
  });

  it('answers 500 without details for any other failure', () => {
    expect(answer(new TypeError("Cannot read properties of undefined (reading 'id')"))).toMatchObject({
      status: 500,
      body: { code: ErrorCode.INTERNAL, message: 'Something went wrong on the server. Try again.' },
    });
  });
});
