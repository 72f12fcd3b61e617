import { messages } from './messaging';

const subjects = Object.values(messages).flatMap((service) => Object.values(service).map((m) => m.subject));

describe('messages', () => {
  it('keeps the subjects on the wire, each named once', () => {
    expect(subjects).toEqual([
      'auth.health',
      'auth.login',
      'auth.user.get',
      'auth.user.session',
      'auth.user.list',
      'auth.user.create',
      'auth.user.update',
      'auth.user.delete',
      'auth.user.change-password',
      'auth.user.changed',
      'auth.session.ended',
      'auth.totp.status',
      'auth.totp.setup',
      'auth.totp.enable',
      'auth.totp.verify',
      'auth.totp.disable',
      'auth.totp.recovery-codes',
      'auth.totp.reset',
      'auth.sign-in.options',
      'auth.oidc.begin',
      'auth.oidc.complete',
      'inventory.health',
      'inventory.building.list',
      'inventory.building.get',
      'inventory.building.create',
      'inventory.building.update',
      'inventory.building.delete',
      'inventory.room.list',
      'inventory.room.get',
      'inventory.room.create',
      'inventory.room.update',
      'inventory.room.delete',
      'inventory.equipment.list',
      'inventory.equipment.get',
      'inventory.equipment.building',
      'inventory.equipment.create',
      'inventory.equipment.update',
      'inventory.equipment.delete',
      'inventory.equipment.targets',
      'inventory.equipment.probe-targets',
      'inventory.monitoring.get',
      'inventory.monitoring.save',
      'inventory.equipment.history',
      'inventory.report',
      'inventory.report.open',
      'inventory.report.chunk',
      'inventory.problems.list',
      'inventory.reports.consumables',
      'inventory.fleet',
      'inventory.search',
      'inventory.maintenance.list',
      'inventory.maintenance.get',
      'inventory.maintenance.create',
      'inventory.maintenance.update',
      'inventory.maintenance.delete',
      'inventory.channel.list',
      'inventory.channel.types',
      'inventory.channel.create',
      'inventory.channel.update',
      'inventory.channel.delete',
      'inventory.channel.test',
      'inventory.channel.secret',
      'inventory.delivery.list',
      'inventory.export.page',
      'inventory.import.stage',
      'inventory.import.run',
      'inventory.alert.open',
      'inventory.quiet-hours.get',
      'inventory.quiet-hours.set',
      'inventory.schedule.list',
      'inventory.schedule.get',
      'inventory.schedule.create',
      'inventory.schedule.update',
      'inventory.schedule.delete',
      'inventory.schedule.file',
      'inventory.schedule.locations',
      'inventory.schedule.location.map',
      'inventory.schedule.room',
      'inventory.schedule.building',
      'inventory.readiness.list',
      'inventory.readiness.summary.get',
      'inventory.readiness.summary.set',
      'media.health',
      'media.upload.create',
      'media.upload.complete',
      'media.upload.abort',
      'media.upload-url.create',
      'media.upload-url.find',
      'media.room-image.register',
      'media.object.get',
      'media.object.registered',
      'monitor.health',
      'monitor.status',
      'monitor.start',
      'monitor.stop',
      'monitor.check',
      'monitor.room.check',
      'monitor.member.sweep',
      'monitor.member.probe',
      'monitor.sweep.done',
    ]);
    expect(new Set(subjects).size).toBe(subjects.length);
  });

  it('marks as read-only (sent again after a lost connection) only requests whose handlers write nothing', () => {
    const readOnly = Object.values(messages)
      .flatMap((service) => Object.values(service))
      .filter((m) => 'readOnly' in m && m.readOnly)
      .map((m) => m.subject);
    expect(readOnly).toEqual([
      'auth.health',
      'auth.user.get',
      'auth.user.session',
      'auth.user.list',
      'auth.totp.status',
      'auth.sign-in.options',
      'inventory.health',
      'inventory.building.list',
      'inventory.building.get',
      'inventory.room.list',
      'inventory.room.get',
      'inventory.equipment.list',
      'inventory.equipment.get',
      'inventory.equipment.building',
      'inventory.equipment.targets',
      'inventory.equipment.probe-targets',
      'inventory.monitoring.get',
      'inventory.equipment.history',
      'inventory.report',
      'inventory.problems.list',
      'inventory.reports.consumables',
      'inventory.fleet',
      'inventory.search',
      'inventory.maintenance.list',
      'inventory.maintenance.get',
      'inventory.channel.list',
      'inventory.channel.types',
      'inventory.delivery.list',
      'inventory.export.page',
      'inventory.alert.open',
      'inventory.quiet-hours.get',
      'inventory.schedule.list',
      'inventory.schedule.get',
      'inventory.schedule.locations',
      'inventory.schedule.room',
      'inventory.schedule.building',
      'inventory.readiness.list',
      'inventory.readiness.summary.get',
      'media.health',
      'media.upload-url.find',
      'media.object.get',
      'media.object.registered',
      'monitor.health',
      'monitor.status',
    ]);
  });

  it('never lets a password hash or a two-factor secret through in a user reply', () => {
    const at = '2026-11-23T10:00:00.000Z';
    const profile = { email: null, firstName: null, lastName: null, createdAt: at, updatedAt: at };
    const user = {
      id: '3f9e0a52-8a3e-4a2f-9c1e-6f1f0b2d7c11',
      username: 'admin',
      role: 'admin',
      isActive: 1,
      totpEnabled: true,
      external: false,
      ...profile,
    };
    const reply = messages.auth.getUser.reply.parse({
      ...user,
      passwordHash: '$argon2id$v=19$…',
      externalSubject: null,
      totpSecret: 'v1.sealed',
      totpRecoveryCodes: ['hash'],
    });
    expect(reply).toEqual(user);
    expect(messages.auth.listUsers.reply.parse([{ ...user, passwordHash: 'x' }])).toEqual([user]);
  });

  it('answers a delete with { deleted: true } and nothing else', () => {
    for (const m of [messages.auth.deleteUser, messages.inventory.deleteRoom]) {
      expect(m.reply.parse({ deleted: true })).toEqual({ deleted: true });
      expect(m.reply.safeParse({ deleted: false }).success).toBe(false);
    }
  });
});
