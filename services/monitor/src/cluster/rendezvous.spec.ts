import { randomUUID } from 'node:crypto';
import { ownerOf } from './rendezvous';

const keys = Array.from({ length: 3000 }, () => randomUUID());

describe(ownerOf.name, () => {
  it('gives every key exactly one owner, spread about evenly', () => {
    const members = ['a', 'b', 'c'];
    const counts = new Map<string, number>();
    for (const key of keys) {
      const owner = ownerOf(key, members)!;
      counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(members);
    for (const n of counts.values()) expect(n).toBeGreaterThan(800);
  });

  it('answers the same owner whatever the order of the member list', () => {
    for (const key of keys.slice(0, 200)) {
      expect(ownerOf(key, ['a', 'b', 'c'])).toBe(ownerOf(key, ['c', 'a', 'b']));
    }
  });

  it('moves only the keys of a member that leaves', () => {
    for (const key of keys) {
      const before = ownerOf(key, ['a', 'b', 'c']);
      const after = ownerOf(key, ['a', 'c']);
      if (before !== 'b') expect(after).toBe(before);
    }
  });

  it('has no owner without members', () => {
    expect(ownerOf(keys[0], [])).toBeUndefined();
  });
});
