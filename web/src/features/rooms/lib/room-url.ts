/** The address a room's QR code opens: this app's room screen, on the origin it is served from. */
export const roomUrl = (roomId: string) => new URL(`/rooms/${roomId}`, window.location.origin).href;

/** The floor as printed under a room's code. */
export const floorLabel = (floor: string | null | undefined) =>
  floor?.trim() ? `Floor ${floor.trim()}` : 'Floor not given';
