import { ErrorCode } from '@cm/contracts';
import { z } from 'zod';
import { AppError, httpStatusFor, toErrorBody } from './errors';

describe('error mapping', () => {
  it('maps codes to the statuses a client expects', () => {
    expect(httpStatusFor(ErrorCode.VALIDATION_FAILED)).toBe(400);
    expect(httpStatusFor(ErrorCode.UNAUTHENTICATED)).toBe(401);
    expect(httpStatusFor(ErrorCode.ROOM_NOT_FOUND)).toBe(404);
    expect(httpStatusFor(ErrorCode.USERNAME_TAKEN)).toBe(409);
    expect(httpStatusFor(ErrorCode.TOO_MANY_ATTEMPTS)).toBe(429);
    expect(httpStatusFor(ErrorCode.SERVICE_UNAVAILABLE)).toBe(503);
    expect(httpStatusFor('SOMETHING.UNKNOWN')).toBe(500);
  });

  it('keeps our errors, turns zod failures into field messages, and hides everything else', () => {
    expect(toErrorBody(new AppError(ErrorCode.ROOM_NOT_FOUND, 'No room with id x'))).toEqual({
      code: ErrorCode.ROOM_NOT_FOUND,
      message: 'No room with id x',
    });
    const zodError = z
      .object({ name: z.string().min(1, { message: 'Room name is required' }) })
      .safeParse({ name: '' }).error!;
    expect(toErrorBody(zodError)).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: 'Room name is required',
      errors: [{ path: 'name', message: 'Room name is required' }],
    });
    expect(toErrorBody(new Error('relation "x" does not exist'))).toEqual({
      code: ErrorCode.INTERNAL,
      message: 'Something went wrong on the server. Try again.',
    });
  });

  it('answers 503 rather than 500 when the database (or another server) cannot be reached', () => {
    const unavailable = {
      code: ErrorCode.SERVICE_UNAVAILABLE,
      message: 'The service is unavailable just now. Try again shortly.',
    };
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(toErrorBody(refused)).toEqual(unavailable);
    expect(toErrorBody(new Error('Connection terminated unexpectedly'))).toEqual(unavailable);
    // TypeORM's QueryFailedError keeps PostgreSQL's SQLSTATE on driverError: 57P01 is an administrator's shutdown.
    expect(
      toErrorBody(Object.assign(new Error('terminating connection'), { driverError: { code: '57P01' } })),
    ).toEqual(unavailable);
    expect(httpStatusFor(toErrorBody(refused).code)).toBe(503);
    // A constraint the data breaks is no outage.
    expect(toErrorBody(Object.assign(new Error('duplicate key'), { code: '23505' })).code).toBe(
      ErrorCode.INTERNAL,
    );
  });
});
