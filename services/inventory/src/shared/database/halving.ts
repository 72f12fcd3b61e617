import { pgCodeOf } from '@cm/platform';

/** SQLSTATE classes of errors a retry cannot cure: a value out of range, a broken constraint. */
const dataErrorClasses = ['22', '23'];

export const isDataError = (error: unknown) => dataErrorClasses.includes(pgCodeOf(error)?.slice(0, 2) ?? '');

/**
 * Records `items` in one transaction (`record`). When the database refuses them for their data
 * (not for being unreachable, which is thrown), they are halved until the item at fault is found
 * and dropped (`dropped` answers for it); the halves' results are merged. Halves already
 * committed are recognised as duplicates when the message comes again.
 */
export async function recordHalving<I, R>(
  items: I[],
  record: (items: I[]) => Promise<R>,
  merge: (a: R, b: R) => R,
  dropped: (item: I | undefined, error: unknown) => R,
): Promise<R> {
  try {
    return await record(items);
  } catch (error) {
    if (!isDataError(error)) throw error;
    if (items.length <= 1) return dropped(items[0], error);
    const half = Math.ceil(items.length / 2);
    const first = await recordHalving(items.slice(0, half), record, merge, dropped);
    return merge(first, await recordHalving(items.slice(half), record, merge, dropped));
  }
}
