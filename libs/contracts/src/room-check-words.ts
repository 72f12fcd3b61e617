// Without schemas (no zod): the web's shell reads these when a room check's late results come.

/**
 * The person sees the room's answer within this long, whatever the devices do: what is not known
 * by then is marked `pending` and follows on the live stream (`room.checked`) as it comes.
 */
export const ROOM_CHECK_ANSWER_MS = 2000;

/**
 * "Checked 3 equipment: 2 answered", and how many are still being checked. Equipment checked are
 * those pinged or still being pinged (the skipped are not); answered, those whose ping found any
 * address alive.
 */
export function describeRoomCheck(
  equipment: readonly { status: string | null; skipped?: string; pending?: boolean }[],
): string {
  const checked = equipment.filter((e) => !e.skipped);
  if (checked.length === 0) return 'No equipment in this room has an address to check';
  const answered = checked.filter((e) => e.status === 'active' || e.status === 'partial').length;
  const pending = checked.filter((e) => e.pending).length;
  const message = `Checked ${checked.length} equipment: ${answered} answered`;
  return pending ? `${message}, ${pending} still being checked` : message;
}
