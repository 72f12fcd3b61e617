import { messages, type Room, type ScheduleSource } from '@cm/contracts';
import { DELIVERY_CLOCK } from '../../src/alerting/notifications/delivery-clock';
import { SCHEDULE_CLOCK } from '../../src/schedules/schedule-clock';
import { type Inventory, type InventoryUnderTest } from '../support';

/**
 * A room's class schedule from CSV rows ("204,PHYS 101,2026-03-02,09:00,10:15": location, title,
 * date, start, end in SCHEDULE_TIME_ZONE), added and uploaded as an administrator would.
 */
export const timetables =
  ({ send }: Pick<InventoryUnderTest, 'send'>) =>
  async (room: Room, ...rows: string[]): Promise<ScheduleSource> => {
    const { id } = await send(messages.inventory.createScheduleSource, {
      name: `Room ${room.name}`,
      roomId: room.id,
      buildingId: null,
      url: null,
    });
    return send(messages.inventory.uploadScheduleFile, {
      id,
      fileName: 'timetable.csv',
      text: ['Location,Title,Date,Start,End', ...rows, ''].join('\n'),
    });
  };

/**
 * The time as the test says: the clocks it holds (by default the outbox's and the schedules')
 * read `at`, which the test moves.
 */
export class HeldClock {
  at: number;

  constructor(start: string) {
    this.at = Date.parse(start);
  }

  set(time: string): void {
    this.at = Date.parse(time);
  }

  /** Makes the given clocks of `replica` read this one; answers how to give them back their own time. */
  hold(replica: Inventory, clocks: symbol[] = [DELIVERY_CLOCK, SCHEDULE_CLOCK]): () => void {
    const spies = clocks.map((clock) =>
      jest.spyOn(replica.app.get<{ now(): Date }>(clock), 'now').mockImplementation(() => new Date(this.at)),
    );
    return () => spies.forEach((spy) => spy.mockRestore());
  }
}
