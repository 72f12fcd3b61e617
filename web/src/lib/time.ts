const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "12 min ago", "5 h ago", "3 days ago": how long before `now` the instant was. */
export function timeAgo(at: number, now: number): string {
  const ago = now - at;
  if (ago < 45_000) return 'just now';
  if (ago < 90 * MINUTE) return `${Math.max(1, Math.round(ago / MINUTE))} min ago`;
  if (ago < 36 * HOUR) return `${Math.round(ago / HOUR)} h ago`;
  const days = Math.round(ago / DAY);
  return `${days} ${days === 1 ? 'day' : 'days'} ago`;
}

/** "2 d 3 h", "5 h 10 min", "12 min", "under 1 min": a span's length, to its two largest units. */
export function duration(ms: number): string {
  if (ms < MINUTE) return 'under 1 min';
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  return `${minutes} min`;
}
