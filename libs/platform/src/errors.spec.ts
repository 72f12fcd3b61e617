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
});
