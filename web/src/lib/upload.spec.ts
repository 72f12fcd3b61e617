import { ApiError, NetworkError } from './api';
import { explanationOf, uploadProblem, withDeadline } from './upload';

describe(withDeadline.name, () => {
  afterEach(() => jest.useRealTimers());

  it('stops waiting for work that stalls, with a message a person can act on', async () => {
    jest.useFakeTimers();
    const stalled = new Promise<string>(() => undefined);
    const sut = withDeadline(stalled, 300_000, 'The upload took longer than 5 minutes and was stopped.');
    jest.advanceTimersByTime(300_000);
    await expect(sut).rejects.toThrow('The upload took longer than 5 minutes and was stopped.');
  });

  it('answers what the work answers in time, and leaves no timer behind', async () => {
    jest.useFakeTimers();
    await expect(withDeadline(Promise.resolve('done'), 300_000, 'late')).resolves.toBe('done');
    expect(jest.getTimerCount()).toBe(0);
    await expect(withDeadline(Promise.reject(new Error('refused')), 300_000, 'late')).rejects.toThrow(
      'refused',
    );
  });
});

describe(explanationOf.name, () => {
  it("reads the message of the gateway's refusal, and nothing from a store's XML or a stray body", () => {
    const refusal = { code: 'MEDIA.UPLOAD_LINK_REFUSED', message: 'The upload link has expired.' };
    expect(explanationOf(JSON.stringify(refusal))).toBe('The upload link has expired.');
    expect(explanationOf('<Error><Code>AccessDenied</Code></Error>')).toBeUndefined();
    expect(explanationOf('{"message":"no code"}')).toBeUndefined();
    expect(explanationOf(undefined)).toBeUndefined();
  });
});

describe(uploadProblem.name, () => {
  it('says what to do instead of showing a status and the raw answer', () => {
    const crashed = new ApiError(500, '{"code":"COMMON.INTERNAL","message":"Internal server error"}', '');
    expect(uploadProblem(crashed)).toBe(
      'The image was not uploaded: the server could not store it. Try again in a moment; if it keeps failing, tell your administrator.',
    );
    expect(uploadProblem(new Error('Non 2xx: 500 {"message":"x"}'))).toBe(
      'The image was not uploaded. Check the connection and try again.',
    );
    expect(uploadProblem(new NetworkError('offline'))).toBe(
      'The image was not uploaded. Could not reach the server. Check the connection and try again.',
    );
  });

  it("keeps a refusal's own sentence, which already says what to do", () => {
    const busy = {
      code: 'MEDIA.TOO_MANY_UPLOADS',
      message: 'You already have 3 uploads in progress. Wait for one to finish.',
    };
    expect(uploadProblem(new ApiError(429, JSON.stringify(busy), ''))).toBe(busy.message);
    expect(uploadProblem(new Error('This file exceeds the maximum allowed size of 10 MB'))).toBe(
      'This file exceeds the maximum allowed size of 10 MB',
    );
  });
});
