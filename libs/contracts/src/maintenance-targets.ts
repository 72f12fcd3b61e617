// Without zod: the web app's room screen reads it with its first draw (issue 37's budget).

/** The kind of a window's target, from which of its ids is set. */
export function maintenanceTargetOf(window: { buildingId?: string | null; roomId?: string | null }) {
  if (window.buildingId) return 'building';
  return window.roomId ? 'room' : 'equipment';
}
