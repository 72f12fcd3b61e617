import { explanationOf, withDeadline } from './upload';

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
