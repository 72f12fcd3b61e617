import { renderHook } from '@testing-library/react';
import { useSubmissionKey } from './submission-key';

describe(useSubmissionKey.name, () => {
  it('keeps the key while the same values are retried, and takes a new one for new values or after a save', () => {
    const { result } = renderHook(() => useSubmissionKey());
    const sut = result.current;
    const first = sut.keyFor({ name: 'Science Hall' });

    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(sut.keyFor({ name: 'Science Hall' })).toBe(first);
    const changed = sut.keyFor({ name: 'Science Hall East' });
    expect(changed).not.toBe(first);
    sut.saved();
    expect(sut.keyFor({ name: 'Science Hall East' })).not.toBe(changed);
  });
});
