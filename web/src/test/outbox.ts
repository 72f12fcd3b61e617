import { act } from '@testing-library/react';
import { currentEntries } from '../lib/offline/outbox-entries';
import { discard, saveOrQueue } from '../lib/offline/outbox-store';

/** A save made offline, as a form makes it: kept on the phone, nothing sent. */
export async function savedOffline(entry: Parameters<typeof saveOrQueue>[0]): Promise<void> {
  const offline = jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  try {
    await act(() => saveOrQueue(entry, () => Promise.reject(new Error('sent while offline'))));
  } finally {
    offline.mockRestore();
  }
}

/** Takes every waiting change off the phone, as a fresh browser starts. */
export async function emptyOutbox(): Promise<void> {
  for (const entry of currentEntries()) await act(() => discard(entry.key));
}
