import { type Conflicted, type Queued } from './markers';
import { type NewEntry } from './outbox-store';

/**
 * A form's save through the outbox (`saveOrQueue`). Its code is fetched apart from the screens
 * that import this (the header reads the same queries): the app fetches it once signed in, to send
 * what waits, so it is there before a first save, offline too.
 */
export async function queueableSave(entry: NewEntry): Promise<unknown | Queued | Conflicted> {
  const [{ saveOrQueue }, { callEntry }] = await Promise.all([import('./outbox-store'), import('./send')]);
  return saveOrQueue(entry, () => callEntry(entry));
}
