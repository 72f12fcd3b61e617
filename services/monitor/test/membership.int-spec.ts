import { testNatsUrl } from '@cm/platform/testing';
import { connect, type KV, type NatsConnection } from 'nats';
import { Membership } from '../src/cluster/membership';
import { dropNamespace, newNamespace } from './support';

/**
 * The member list is read through a consumer of the bucket's stream: an entry renewed while the
 * keys are read arrives again, and every replica renews its entry every third of the TTL.
 */
describe('monitor membership', () => {
  const namespace = newNamespace();
  let nc: NatsConnection;
  let kv: KV;
  const members: Membership[] = [];

  beforeAll(async () => {
    nc = await connect({ servers: testNatsUrl, name: 'membership-test' });
    kv = await nc.jetstream().views.kv(`${namespace}_members_test`, { ttl: 60_000, history: 1 });
  });
  afterAll(async () => {
    for (const member of members) await member.leave();
    await kv?.destroy();
    await nc?.close();
    await dropNamespace(namespace);
  });

  it('lists each live replica once, also while their entries are being renewed', async () => {
    for (const host of ['a', 'b']) {
      const member = await Membership.claim(kv, { ttlMs: 60_000, host });
      await member.join();
      members.push(member);
    }
    const expected = members.map((m) => m.memberId).sort();
    let renewing = true;
    const renewals = (async () => {
      // As the renewal timers do, only faster: a new revision of each entry, over and over.
      for (let i = 0; renewing; i++) {
        const member = members[i % members.length];
        await kv.put(`members.${member.memberId}`, new TextEncoder().encode('{}'));
      }
    })();
    const lists: string[][] = [];
    for (let i = 0; i < 40; i++) lists.push(await members[0].live());
    renewing = false;
    await renewals;
    expect(lists.filter((list) => list.join() !== expected.join())).toEqual([]);
  });
});
