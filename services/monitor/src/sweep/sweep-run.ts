import { type SweepAssignment, type SweepReport } from '@cm/contracts';

/** The bookkeeping of one sweep: parts handed out, replicas still owing a report, totals. */
export class SweepRun {
  readonly finished: Promise<boolean>;
  answered = 0;
  published = 0;
  lastSequence = 0;
  onFailure: (member: string) => void = () => undefined;
  private resolve!: (completed: boolean) => void;
  private over = false;
  private part = -1;
  private excluded: string[] = [];
  /** member → parts it still owes a report for */
  private readonly pending = new Map<string, Set<number>>();
  /** Assignments sent and not yet accepted or refused. */
  private assigning = 0;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly id: string,
    readonly members: string[],
    readonly targets: number,
  ) {
    this.finished = new Promise((resolve) => (this.resolve = resolve));
  }

  get isOver(): boolean {
    return this.over;
  }

  /** True once `member` owes nothing and every hand-over has been accepted or refused. */
  handedOff(member: string): boolean {
    return this.over || (!this.pending.has(member) && this.assigning === 0);
  }

  /** Resolves when `test` holds, checked after each change to the bookkeeping. */
  until(test: () => boolean): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = () => {
        if (!test()) return;
        this.waiters.delete(waiter);
        resolve();
      };
      this.waiters.add(waiter);
    });
  }

  track(request: Promise<void>): void {
    this.assigning++;
    void request.finally(() => {
      this.assigning--;
      this.changed();
    });
  }

  pendingMembers(): string[] {
    return [...this.pending.keys()];
  }

  /** Members whose work still counts (not yet excluded). */
  activeMembers(): string[] {
    return this.members.filter((m) => !this.excluded.includes(m));
  }

  /** The next part: the shares of `lost` go to the live members left. */
  nextPart(lost: string[], live: string[]): { assignment: SweepAssignment; assignees: string[] } {
    const assignment: SweepAssignment = {
      sweepId: this.id,
      part: ++this.part,
      members: this.members,
      excluded: [...this.excluded],
      reassigned: lost,
    };
    for (const m of lost) this.pending.delete(m);
    this.excluded.push(...lost);
    this.changed();
    const assignees = this.activeMembers().filter((m) => live.includes(m));
    for (const m of assignees) {
      const parts = this.pending.get(m) ?? new Set<number>();
      parts.add(assignment.part);
      this.pending.set(m, parts);
    }
    return { assignment, assignees };
  }

  onReport(report: SweepReport): void {
    this.published += report.published;
    this.lastSequence = Math.max(this.lastSequence, report.lastSequence);
    const parts = this.pending.get(report.memberId);
    if (!parts?.has(report.part)) return;
    if (report.aborted) {
      this.fail(report.memberId);
      return;
    }
    this.answered += report.answered;
    parts.delete(report.part);
    if (parts.size === 0) this.pending.delete(report.memberId);
    if (this.pending.size === 0) this.end(true);
    this.changed();
  }

  fail(member: string): void {
    if (!this.over && this.pending.has(member)) this.onFailure(member);
  }

  end(completed: boolean): void {
    if (this.over) return;
    this.over = true;
    this.resolve(completed);
    this.changed();
  }

  private changed(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
