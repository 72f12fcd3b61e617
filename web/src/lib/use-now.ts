import { useEffect, useState } from 'react';

/**
 * The time now, renewed every `everyMs`: a window begins and ends with nothing refetched, and
 * the screen should follow within that time.
 */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
