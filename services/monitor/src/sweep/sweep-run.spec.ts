import { type SweepReport } from '@cm/contracts';
import { SweepRun } from './sweep-run';

const report = (over: Partial<SweepReport> & Pick<SweepReport, 'memberId' | 'part'>): SweepReport => ({
  sweepId: 'sweep-1',
  targets: 10,
  answered: 0,
  published: 0,
  aborted: false,
  lastSequence: 0,
  ...over,
});

describe(SweepRun.name, () => {
  const members = ['r1', 'r2', 'r3'];
  let sut: SweepRun;
  let failed: string[];
  let completed: boolean | undefined;

  beforeEach(() => {
    sut = new SweepRun('sweep-1', members, 30);
    failed = [];
    sut.onFailure = (member) => failed.push(member);
    completed = undefined;
    void sut.finished.then((value) => (completed = value));
  });

  it('gives the first part to every live member, over all members', () => {
    expect(sut.nextPart([], ['r1', 'r2', 'r3'])).toEqual({
      assignment: { sweepId: 'sweep-1', part: 0, members, excluded: [], reassigned: [] },
      assignees: ['r1', 'r2', 'r3'],
    });
    expect(sut.pendingMembers()).toEqual(['r1', 'r2', 'r3']);
  });

  it('hands a lost member’s share to the live members left, in a new part that names it', () => {
    sut.nextPart([], members);
    expect(sut.nextPart(['r2'], ['r1', 'r3'])).toEqual({
      assignment: { sweepId: 'sweep-1', part: 1, members, excluded: [], reassigned: ['r2'] },
      assignees: ['r1', 'r3'],
    });
    expect(sut.activeMembers()).toEqual(['r1', 'r3']);
    // A second loss leaves the first excluded, so its share is not handed on twice.
    expect(sut.nextPart(['r3'], ['r1'])).toEqual({
      assignment: { sweepId: 'sweep-1', part: 2, members, excluded: ['r2'], reassigned: ['r3'] },
      assignees: ['r1'],
    });
    expect(sut.pendingMembers()).toEqual(['r1']);
  });

  it('gives a share to no member that is not live', () => {
    sut.nextPart([], members);
    expect(sut.nextPart(['r2'], ['r1']).assignees).toEqual(['r1']);
  });

  it('completes once every member has reported every part it was given, and adds up their totals', async () => {
    sut.nextPart([], members);
    sut.onReport(report({ memberId: 'r1', part: 0, answered: 4, published: 10, lastSequence: 7 }));
    sut.onReport(report({ memberId: 'r3', part: 0, answered: 5, published: 10, lastSequence: 31 }));
    expect(sut.pendingMembers()).toEqual(['r2']);
    expect(sut.isOver).toBe(false);
    sut.onReport(report({ memberId: 'r2', part: 0, answered: 6, published: 10, lastSequence: 20 }));
    await sut.finished;
    expect(completed).toBe(true);
    expect({ answered: sut.answered, published: sut.published, lastSequence: sut.lastSequence }).toEqual({
      answered: 15,
      published: 30,
      lastSequence: 31,
    });
  });

  it('waits for the reports of every part a member holds', () => {
    sut.nextPart([], members);
    sut.nextPart(['r2'], ['r1', 'r3']);
    sut.onReport(report({ memberId: 'r1', part: 0 }));
    expect(sut.pendingMembers()).toEqual(['r1', 'r3']);
    sut.onReport(report({ memberId: 'r1', part: 1 }));
    sut.onReport(report({ memberId: 'r3', part: 1 }));
    expect(sut.pendingMembers()).toEqual(['r3']);
    sut.onReport(report({ memberId: 'r3', part: 0 }));
    expect(sut.isOver).toBe(true);
  });

  it('counts a report of a part a member does not owe only for what it published', () => {
    sut.nextPart([], members);
    sut.nextPart(['r2'], ['r1', 'r3']);
    // r2 was given up on: its late report's events are out there, but its share is not done.
    sut.onReport(report({ memberId: 'r2', part: 0, answered: 9, published: 10 }));
    sut.onReport(report({ memberId: 'r1', part: 0, answered: 1 }));
    sut.onReport(report({ memberId: 'r1', part: 0, answered: 1 }));
    expect({ answered: sut.answered, published: sut.published }).toEqual({ answered: 1, published: 10 });
    expect(sut.pendingMembers()).toEqual(['r1', 'r3']);
  });

  it('treats a share reported aborted as a failure of that member, and not as done', () => {
    sut.nextPart([], members);
    sut.onReport(report({ memberId: 'r2', part: 0, aborted: true, answered: 3 }));
    expect(failed).toEqual(['r2']);
    expect(sut.answered).toBe(0);
    expect(sut.pendingMembers()).toEqual(['r1', 'r2', 'r3']);
  });

  it('reports a failure only for a member that still owes a report, and only while the sweep runs', () => {
    sut.nextPart([], ['r1']);
    sut.fail('r2');
    expect(failed).toEqual([]);
    sut.fail('r1');
    expect(failed).toEqual(['r1']);
    sut.end(false);
    sut.fail('r1');
    expect(failed).toEqual(['r1']);
  });

  it('ends incomplete when given up, once only', async () => {
    sut.nextPart([], members);
    sut.end(false);
    sut.end(true);
    sut.onReport(report({ memberId: 'r1', part: 0 }));
    await sut.finished;
    expect(completed).toBe(false);
    expect(sut.isOver).toBe(true);
  });

  it('says a member is handed off once it owes nothing and no hand-over is still being accepted', async () => {
    sut.nextPart([], ['r1', 'r2']);
    let accept!: () => void;
    sut.track(new Promise<void>((resolve) => (accept = resolve)));
    sut.onReport(report({ memberId: 'r1', part: 0 }));
    expect(sut.handedOff('r1')).toBe(false);
    const handedOff = sut.until(() => sut.handedOff('r1'));
    accept();
    await handedOff;
    expect(sut.handedOff('r1')).toBe(true);
    expect(sut.handedOff('r2')).toBe(false);
  });
});
