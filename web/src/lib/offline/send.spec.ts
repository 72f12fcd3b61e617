import { ApiError, NetworkError } from '../api';
import { outcomeOf } from './send';

const answered = (status: number, body: unknown) => new ApiError(status, JSON.stringify(body), '');

describe('how a queued change fared', () => {
  it('tries again later when nothing answered, the server is busy or failing', () => {
    expect(outcomeOf(new NetworkError('offline'))).toEqual({ kind: 'unreachable' });
    expect(outcomeOf(new NetworkError('timeout'))).toEqual({ kind: 'unreachable' });
    expect(outcomeOf(answered(503, { code: 'COMMON.SERVICE_UNAVAILABLE', message: 'Busy' }))).toEqual({
      kind: 'unreachable',
    });
    expect(outcomeOf(answered(429, { code: 'AUTH.TOO_MANY_ATTEMPTS', message: 'Slow down' }))).toEqual({
      kind: 'unreachable',
    });
  });

  it('waits for the person to sign in again after a 401', () => {
    expect(outcomeOf(answered(401, { code: 'AUTH.UNAUTHENTICATED', message: 'Sign in' }))).toEqual({
      kind: 'signed-out',
    });
  });

  it('reads a 412 as a conflict with the record as the server has it', () => {
    const current = { id: 'b1', name: 'Theirs', version: 2 };
    expect(
      outcomeOf(answered(412, { code: 'COMMON.STALE_VERSION', message: 'Changed by someone else', current })),
    ).toEqual({ kind: 'conflict', reason: 'Changed by someone else', current });
  });

  it('reads any other 4xx as a refusal, in the server’s words', () => {
    expect(
      outcomeOf(
        answered(400, { code: 'COMMON.VALIDATION_FAILED', message: '10.0.0.5 is outside the networks' }),
      ),
    ).toEqual({ kind: 'refused', reason: '10.0.0.5 is outside the networks' });
    expect(outcomeOf(answered(404, { code: 'INVENTORY.ROOM_NOT_FOUND', message: 'No room' }))).toEqual({
      kind: 'refused',
      reason: 'No room',
    });
  });
});
