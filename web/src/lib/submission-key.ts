import { useRef } from 'react';

/** A random Idempotency-Key; `crypto.randomUUID` needs a secure context, which a LAN address is not. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The Idempotency-Key of a form's create: one per submission, kept while the person retries the
 * same values (so a save whose answer was lost is not made twice), a new one for changed values,
 * and a new one after a success (so adding a second record with the same values still adds it).
 */
export function useSubmissionKey() {
  const last = useRef<{ values: string; key: string } | null>(null);
  return {
    keyFor(values: unknown): string {
      const sent = JSON.stringify(values);
      if (last.current?.values !== sent) last.current = { values: sent, key: newIdempotencyKey() };
      return last.current.key;
    },
    saved(): void {
      last.current = null;
    },
  };
}
