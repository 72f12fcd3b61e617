import { type ScheduleOccurrence } from '@cm/contracts';
import { nextClassOrder, nextClassText } from './next-class';

const at = (time: string) => new Date(`2026-03-02T${time}:00`).toISOString();
const lecture = (title: string, start: string, end: string, day = '2026-03-02'): ScheduleOccurrence => ({
  sourceId: '00000000-0000-4000-8000-000000000001',
  roomId: '00000000-0000-4000-8000-000000000002',
  title,
  location: null,
  start: new Date(`${day}T${start}:00`).toISOString(),
  end: new Date(`${day}T${end}:00`).toISOString(),
});
const now = (time: string) => Date.parse(at(time));

describe(nextClassText.name, () => {
  const day = [lecture('ECON 101', '10:00', '11:15'), lecture('HIST 150', '13:00', '14:15')];

  it('says the next class with its times and title', () => {
    expect(nextClassText(day, now('08:30'))).toBe('Next class 10:00–11:15, ECON 101');
    expect(nextClassText(day, now('11:15'))).toBe('Next class 13:00–14:15, HIST 150');
  });

  it('says until when the room is in use while a class is on, through back-to-back classes', () => {
    expect(nextClassText(day, now('10:30'))).toBe('In use until 11:15');
    const backToBack = [...day, lecture('CHEM 110', '11:15', '12:30')];
    expect(nextClassText(backToBack, now('10:30'))).toBe('In use until 12:30');
  });

  it('names the day of a class that is not today, and nothing when there is none', () => {
    expect(nextClassText([lecture('ECON 101', '10:00', '11:15', '2026-03-04')], now('15:00'))).toBe(
      'Next class Wed 4 Mar 10:00–11:15, ECON 101',
    );
    expect(nextClassText(day, now('15:00'))).toBeNull();
  });
});

describe(nextClassOrder.name, () => {
  it('puts a room in use before one whose class is later, and one with no class left last', () => {
    const inUse = [lecture('ECON 101', '09:00', '10:15')];
    const later = [lecture('PHYS 101', '11:00', '12:15'), lecture('PHYS 102', '10:30', '10:45')];
    const done = [lecture('HIST 100', '07:00', '08:00')];
    const order = [done, later, inUse].sort(
      (a, b) => nextClassOrder(a, now('09:30')) - nextClassOrder(b, now('09:30')),
    );
    expect(order).toEqual([inUse, later, done]);
    expect(nextClassOrder(later, now('09:30'))).toBe(Date.parse(at('10:30')));
    expect(nextClassOrder([], now('09:30'))).toBe(Infinity);
  });
});
