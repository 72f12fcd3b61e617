import { useState } from 'react';
import { readDraft } from '../../lib/offline/drafts';

/**
 * Why the server refused a save that was kept on the phone and came back to its form (the reason
 * is kept with the form's draft); nothing otherwise.
 */
export function RefusalNote({ draftKey }: { draftKey: string }) {
  const [reason] = useState(() => readDraft(draftKey)?.reason);
  if (!reason) return null;
  return (
    <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
      The server refused this when it was sent: {reason} Correct it and save again.
    </p>
  );
}
