import { type KV } from 'nats';
import { Membership } from './membership';

/** A bucket whose key listing delivers `keys`, then waits for a message that never comes. */
function bucketWithStalledListing(keys: string[]): KV {
  const listing = () => {
    let fail: (error: Error) => void = () => undefined;
    const stopped = new Promise<never>((_resolve, reject) => (fail = reject));
    return {
      stop: (error: Error) => fail(error),
      async *[Symbol.asyncIterator]() {
        yield* keys;
        await stopped;
      },
    };
  };
  return {
    create: () => Promise.resolve(1),
    update: () => Promise.resolve(2),
    put: () => Promise.resolve(1),
    delete: () => Promise.resolve(),
    keys: () => Promise.resolve(listing()),
  } as unknown as KV;
}

describe('Membership', () => {
  it('gives up a listing of the members that never ends, saying so, rather than waiting forever', async () => {
    const member = await Membership.claim(bucketWithStalledListing(['members.a-1', 'members.b-2']), {
      ttlMs: 60_000,
      host: 'a',
    });
    try {
      await expect(member.live(50)).rejects.toThrow('Listing the monitor replicas took over 0.05 s');
    } finally {
      await member.leave();
    }
  });
});
