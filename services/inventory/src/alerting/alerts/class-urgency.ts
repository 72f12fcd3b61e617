import { type AlertClass } from '@cm/contracts';
import { type AlertMessage } from './alert-rules';

/** A class starting within this much time (or in progress) makes a room's alert urgent. */
export const URGENT_LEAD_MS = 30 * 60_000;

/**
 * A message about a room with a class in progress or about to start: marked urgent and carrying
 * the class, which the chat cards, the e-mail and the webhook show. A recovery carries the class
 * too (the room is fine again for it) but is not urgent: nothing needs doing.
 */
export function withClass(content: AlertMessage, lesson: AlertClass | null): AlertMessage {
  if (!lesson) return content;
  const urgent = content.kind !== 'alert.recovered' && content.kind !== 'fault.recovered';
  return { ...content, class: lesson, ...(urgent ? { urgent: true } : {}) };
}
