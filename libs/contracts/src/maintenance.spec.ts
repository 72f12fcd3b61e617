import { describeZodError } from './errors';
import {
  maintenanceTimesProblem,
  maintenanceWindowCreateSchema,
  maintenanceWindowQuerySchema,
  maintenanceWindowUpdateSchema,
} from './maintenance';

const roomId = '00000000-0000-4000-8000-000000000001';
const window = {
  roomId,
  startsAt: '2026-12-01T08:00:00Z',
  endsAt: '2026-12-01T10:00:00+01:00',
  reason: ' Lamp ',
};

const messageOf = (result: { success: boolean; error?: import('zod').ZodError }) => {
  if (result.success || !result.error) throw new Error('expected a validation failure');
  return describeZodError(result.error).message;
};

describe('maintenance window contracts', () => {
  it('takes one target, two instants with their offsets and a trimmed reason', () => {
    expect(maintenanceWindowCreateSchema.parse(window)).toEqual({ ...window, reason: 'Lamp' });
  });

  it('refuses a time before 1970, which PostgreSQL may not even store (year 0)', () => {
    const early = { ...window, startsAt: '0000-01-01T00:00:00Z', endsAt: '0000-01-01T01:00:00Z' };
    expect(messageOf(maintenanceWindowCreateSchema.safeParse(early))).toBe(
      'startsAt must be in 1970 or later. endsAt must be in 1970 or later',
    );
    expect(messageOf(maintenanceWindowQuerySchema.safeParse({ from: '0000-01-01' }))).toBe(
      'from must be in 1970 or later',
    );
  });

  it('measures a window by its instants, offsets included', () => {
    // 10:00+01:00 is 09:00Z: an hour after the start.
    expect(maintenanceTimesProblem(window.startsAt, window.endsAt)).toBeNull();
    expect(maintenanceTimesProblem(window.startsAt, '2026-12-01T09:00:00+01:00')).toEqual({
      path: 'endsAt',
      message: 'The end must be later than the start',
    });
    expect(maintenanceTimesProblem('2026-01-01T00:00:00Z', '2026-04-01T00:00:00Z')).toBeNull();
    expect(maintenanceTimesProblem('2026-01-01T00:00:00Z', '2026-04-01T00:00:01Z')?.message).toMatch(
      /^A maintenance window may last at most 90 days; this one lasts 91/,
    );
  });

  it('checks an edit on its own only for what it can: one target, and its two times when both are sent', () => {
    expect(maintenanceWindowUpdateSchema.parse({ endsAt: '2026-12-01T07:00:00Z' })).toEqual({
      endsAt: '2026-12-01T07:00:00Z',
    });
    expect(messageOf(maintenanceWindowUpdateSchema.safeParse({ roomId, buildingId: roomId }))).toBe(
      'Name exactly one of buildingId, roomId or equipmentId: what the window is for',
    );
    expect(messageOf(maintenanceWindowUpdateSchema.safeParse({}))).toBe('Send at least one field to change');
  });

  it('keeps the query as text, and refuses two places or an end before the start', () => {
    expect(maintenanceWindowQuerySchema.parse({ roomId, active: 'true', from: '2026-12-01' })).toEqual({
      roomId,
      active: 'true',
      from: '2026-12-01',
    });
    expect(messageOf(maintenanceWindowQuerySchema.safeParse({ roomId, equipmentId: roomId }))).toBe(
      'Filter by one of buildingId, roomId or equipmentId, not several',
    );
    expect(messageOf(maintenanceWindowQuerySchema.safeParse({ from: '2026-12-02', to: '2026-12-01' }))).toBe(
      'to must be later than from',
    );
    expect(messageOf(maintenanceWindowQuerySchema.safeParse({ active: ['true', 'false'] }))).toBe(
      'active must be given once',
    );
  });
});
