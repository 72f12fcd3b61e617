import { type AlertClass, type AlertDevice, type DeliveryContent } from '@cm/contracts';

/** Fixed ids, so that a payload's room link can be written out in a test. */
export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** The room of `openedContent`, whose screen a message links. */
export const roomId = uuid(2);

/** The class in the room while its alert is open. */
export const physics: AlertClass = {
  title: 'Physics 101',
  startsAt: '2026-11-24T20:00:00.000Z',
  endsAt: '2026-11-24T21:30:00.000Z',
};

/** Display (10.1.2.4) offline, Projector (10.1.2.3) partly answering. */
export const twoDevices: AlertDevice[] = [
  { id: uuid(4), name: 'Display', address: '10.1.2.4', status: 'inactive', since: null },
  { id: uuid(5), name: 'Projector', address: '10.1.2.3', status: 'partial', since: null },
];

/**
 * An alert message as the engine writes it, for the chat payloads' unit test and the chat
 * channels' integration test: room 204 of Science Hall, 2 of 5 devices down, a class on.
 */
export function openedContent(
  over: { building?: string; devices?: AlertDevice[]; class?: AlertClass | null } = {},
): DeliveryContent {
  const { building = 'Science Hall', devices = twoDevices, class: lesson = physics } = over;
  return {
    kind: 'alert.opened',
    subject: 'Room 204, Science Hall: 2 of 5 devices offline',
    text: 'Room 204, Science Hall: 2 of 5 devices offline — Display (10.1.2.4), Projector (10.1.2.3)',
    alert: {
      id: uuid(1),
      room: { id: roomId, name: '204' },
      building: { id: uuid(3), name: building },
      openedAt: '2026-11-24T19:59:00.000Z',
      closedAt: null,
      monitored: 5,
      devices,
    },
    ...(lesson ? { class: lesson } : {}),
  };
}
