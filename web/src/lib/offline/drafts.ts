/**
 * What a person typed in an open form, kept as they type (in localStorage: read back at once when
 * the form opens again, before its first render), so that a reload, a closed tab or an ended
 * session loses no word. A save or a cancel forgets it.
 */
const PREFIX = 'cm.draft.';

export interface Draft {
  values: Record<string, unknown>;
  /** Why the server refused the save these values came back from (a queued create). */
  reason?: string;
  savedAt: number;
}

/** A form's draft key: the form and its record (`building:<id>`), or where a new one goes. */
export function draftKeyOf(
  kind: 'building' | 'room' | 'equipment',
  id: string | undefined,
  parent = '',
): string {
  return id ? `${kind}:${id}` : `${kind}:new@${parent}`;
}

export function readDraft(key: string): Draft | null {
  try {
    const text = localStorage.getItem(PREFIX + key);
    return text ? (JSON.parse(text) as Draft) : null;
  } catch {
    return null;
  }
}

export function writeDraft(key: string, values: Record<string, unknown>, reason?: string): void {
  try {
    const draft: Draft = { values, savedAt: Date.now(), ...(reason ? { reason } : {}) };
    localStorage.setItem(PREFIX + key, JSON.stringify(draft));
  } catch {
    // storage full or refused: the form still works, without a draft
  }
}

export function clearDraft(key: string): void {
  try {
    localStorage.removeItem(PREFIX + key);
  } catch {
    // nothing kept
  }
}
