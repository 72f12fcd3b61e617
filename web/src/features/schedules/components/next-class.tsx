import { useQuery } from '@tanstack/react-query';
import { CalendarClock } from 'lucide-react';
import { useState } from 'react';
import { useNow } from '../../../lib/use-now';
import { roomScheduleQuery } from '../api/schedules';
import { nextClassText } from '../../../lib/next-class';

/**
 * "Next class 10:00–11:15, ECON 101" or "In use until 11:15" under the room's name, from its class
 * schedule (Settings → Class schedules); nothing when the room has no classes known.
 */
export function NextClass({ roomId }: { roomId: string }) {
  // The week from when the screen opened, the hour it began: one query however long it stays open.
  const [from] = useState(() => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString());
  const classes = useQuery(roomScheduleQuery(roomId, from));
  const now = useNow(30_000);
  const text = classes.data ? nextClassText(classes.data, now) : null;
  if (!text) return null;
  return (
    <p className="flex items-center gap-2 text-sm text-slate-700" data-testid="next-class">
      <CalendarClock aria-hidden className="h-4 w-4 shrink-0 text-brand-700" />
      {text}
    </p>
  );
}
