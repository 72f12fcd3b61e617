import { randomBytes } from 'node:crypto';
import { type Building, type Equipment, type Room } from '@cm/contracts';
import { eventually, NetnsLab } from '@cm/platform/testing';
import { startWebSystem, type WebSystem } from '../browser';

export interface AlertingRoom {
  web: WebSystem;
  room: Room;
  /** The display nobody answers for: its address is routed into the lab, where nothing owns it. */
  display: Equipment;
  /** Check Now, once the monitor holds both devices. */
  checkNow(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A whole system whose real monitor watches Science Hall 204: a projector on loopback that
 * answers and a display that stays silent, with alert timings short enough for a test.
 */
export async function startAlertingRoom(): Promise<AlertingRoom> {
  const lab = NetnsLab.create();
  let web: WebSystem | undefined;
  try {
    web = await startWebSystem({
      ALERTS_SECRET_KEY: randomBytes(32).toString('base64'),
      ALERTS_ALLOWED_TARGETS: '127.0.0.1',
      ALERTS_RELAY_INTERVAL_MS: '200',
      ALERT_GROUP_WINDOW_MS: '500',
      MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8,198.18.0.0/15',
      MONITOR_PING_TIMEOUT_MS: '300',
      MONITOR_PING_RETRIES: '1',
    });
    const system = web;
    const building = await system.api<Building>('POST', '/api/buildings', { name: 'Science Hall' });
    const room = await system.api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: '204',
      type: 'Lecture Hall',
      floor: '2',
    });
    await system.api('POST', `/api/rooms/${room.id}/equipment`, {
      name: 'Projector',
      ipAddress: '127.0.0.5',
    });
    const display = await system.api<Equipment>('POST', `/api/rooms/${room.id}/equipment`, {
      name: 'Display',
      ipAddress: `${lab.routedPrefix}.3`,
    });
    return {
      web: system,
      room,
      display,
      checkNow: () =>
        eventually(async () => {
          expect(await system.api('POST', '/api/monitoring/check')).toMatchObject({
            completed: true,
            targets: 2,
          });
        }),
      close: async () => {
        await system.close();
        lab.destroy();
      },
    };
  } catch (error) {
    await web?.close();
    lab.destroy();
    throw error;
  }
}
