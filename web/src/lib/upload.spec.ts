import { withDeadline } from './upload';

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
