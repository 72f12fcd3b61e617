import { events } from './jetstream-names';
import { messages } from './messaging';
import { natsPermissions, natsPrincipals, streamsOf } from './nats-permissions';

describe(natsPermissions.name, () => {
  const sut = natsPermissions('cm');
  const publishers = (subject: string) => natsPrincipals.filter((p) => sut[p].publish.includes(subject));
  const subscribers = (subject: string) => natsPrincipals.filter((p) => sut[p].subscribe.includes(subject));

  it('lets only the gateway send what browsers reach, and only its owner receive it', () => {
    expect(publishers('cm.auth.login')).toEqual(['gateway']);
    expect(publishers('cm.auth.user.update')).toEqual(['gateway']);
    expect(subscribers('cm.auth.login')).toEqual(['auth']);
    expect(publishers('cm.inventory.building.create')).toEqual(['gateway']);
    expect(subscribers('cm.inventory.building.create')).toEqual(['inventory']);
    expect(publishers('cm.monitor.check')).toEqual(['gateway']);
  });

  it('keeps what services send each other among themselves', () => {
    expect(publishers(`cm.${messages.inventory.listTargets.subject}`)).toEqual(['monitor']);
    expect(publishers(`cm.${messages.inventory.saveMonitoringState.subject}`)).toEqual(['monitor']);
    expect(subscribers(`cm.${messages.inventory.saveMonitoringState.subject}`)).toEqual(['inventory']);
    expect(publishers(`cm.${messages.monitor.assignSweep.subject}.*`)).toEqual(['monitor']);
    expect(publishers(`cm.${messages.inventory.reportChunk.subject}.*`)).toEqual(['gateway']);
    expect(subscribers(`cm.${messages.inventory.reportChunk.subject}.*`)).toEqual(['inventory']);
    expect(subscribers(`cm.${messages.monitor.sweepDone.subject}`)).toEqual(['monitor']);
    expect(publishers(`cm.${messages.auth.userChanged.subject}`)).toEqual(['auth']);
    expect(subscribers(`cm.${messages.auth.userChanged.subject}`)).toEqual(['gateway']);
    expect(publishers(`cm.${messages.auth.sessionsEnded.subject}`)).toEqual(['gateway']);
    expect(subscribers(`cm.${messages.auth.sessionsEnded.subject}`)).toEqual(['gateway']);
  });

  it('lets only the monitor publish status events and only inventory equipment changes', () => {
    expect(publishers(`cm.${events.statusChecked}`)).toEqual(['monitor']);
    expect(publishers(`cm.${events.equipmentChanged}`)).toEqual(['inventory']);
  });

  it('lets inventory and the monitor publish live events and the gateway read them, not publish them', () => {
    expect(publishers(`cm.${events.liveEquipmentStatus}`)).toEqual(['inventory']);
    expect(publishers(`cm.${events.liveInventoryChanged}`)).toEqual(['inventory']);
    expect(publishers(`cm.${events.liveMonitoringState}`)).toEqual(['monitor']);
    expect(sut.gateway.publish).toEqual(
      expect.arrayContaining(['$JS.API.CONSUMER.*.cm_LIVE', '$JS.API.STREAM.INFO.cm_LIVE']),
    );
    expect(sut.gateway.publish.filter((s) => s.includes('STATUS') || s.includes('EQUIPMENT'))).toEqual([]);
  });

  it('lets only auth publish account changes, and the gateway consume them for its audit log', () => {
    expect(publishers(`cm.${events.accountChanged}`)).toEqual(['auth']);
    expect(natsPrincipals.filter((p) => sut[p].publish.includes('$JS.API.CONSUMER.*.cm_ACCOUNTS'))).toEqual([
      'gateway',
    ]);
    expect(streamsOf('auth').map((s) => s.name)).toEqual(['ACCOUNTS']);
    expect(streamsOf('inventory').map((s) => s.name)).toEqual(['STATUS', 'EQUIPMENT', 'HEALTH', 'LIVE']);
  });

  it('gives each principal inboxes of its own and never a wildcard over everything', () => {
    for (const principal of natsPrincipals) {
      expect(sut[principal].subscribe).toContain(`_INBOX_cm_${principal}.>`);
      const everything = [...sut[principal].publish, ...sut[principal].subscribe].filter(
        (s) => s === '>' || s.startsWith('_INBOX.') || s === 'cm.>' || s === '$JS.API.>',
      );
      expect(everything).toEqual([]);
    }
    expect(sut.gateway.allowResponses).toBe(false);
    // Auth only answers, tells the gateways of user changes, and publishes account changes.
    expect(sut.auth.publish).toEqual([
      `cm.${messages.auth.userChanged.subject}`,
      `cm.${events.accountChanged}`,
      '$JS.API.STREAM.INFO.cm_ACCOUNTS',
      '$JS.API.STREAM.CREATE.cm_ACCOUNTS',
      '$JS.API.STREAM.UPDATE.cm_ACCOUNTS',
      '$JS.API.INFO',
    ]);
  });
});
