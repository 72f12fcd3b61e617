import { randomUUID } from 'node:crypto';
import { type SweepAssignment } from '@cm/contracts';
import { ownsTarget } from './assignment';

const ids = Array.from({ length: 2000 }, () => randomUUID());
const owners = (a: SweepAssignment, assignees: string[]) =>
  ids.map((id) => assignees.filter((m) => ownsTarget(id, a, m)));

describe(ownsTarget.name, () => {
  const members = ['r1', 'r2', 'r3', 'r4'];
  const part0: SweepAssignment = { sweepId: 's', part: 0, members, excluded: [], reassigned: [] };

  it('gives each equipment to exactly one member in the first part', () => {
    for (const o of owners(part0, members)) expect(o).toHaveLength(1);
  });

  it('hands a failed member’s equipment, and only that, to exactly one of the others', () => {
    const part1 = { ...part0, part: 1, reassigned: ['r2'] };
    const first = owners(part0, members);
    const second = owners(part1, ['r1', 'r3', 'r4']);
    ids.forEach((_, i) => {
      if (first[i][0] === 'r2') expect(second[i]).toHaveLength(1);
      else expect(second[i]).toEqual([]);
    });
  });

  it('covers every equipment of members that fail one after another', () => {
    const part1 = { ...part0, part: 1, reassigned: ['r2'] };
    const part2 = { ...part0, part: 2, excluded: ['r2'], reassigned: ['r3'] };
    const first = owners(part0, members);
    const second = owners(part1, ['r1', 'r3', 'r4']);
    const third = owners(part2, ['r1', 'r4']);
    ids.forEach((_, i) => {
      // Who pinged it, not counting the work of r2 and r3 that was lost.
      const done = [...first[i], ...second[i], ...third[i]].filter((m) => m === 'r1' || m === 'r4');
      expect(done.length).toBeGreaterThanOrEqual(1);
    });
  });
});
