import { durableConsumers, events, kvBuckets, streams } from './jetstream-names';
import { type MessageDef, messages, type NoticeDef, serviceNames } from './messaging';
import { namespacedName, namespacedSubject } from './namespace';

/** Every process that connects to NATS, each with a user of its own. */
export const natsPrincipals = ['gateway', ...serviceNames] as const;
export type NatsPrincipal = (typeof natsPrincipals)[number];

/**
 * Messages that services send each other. Every other message is what a browser reaches through
 * the gateway, and only the gateway may send it.
 */
const internalCallers = new Map<MessageDef | NoticeDef, readonly NatsPrincipal[]>([
  [messages.inventory.listTargets, ['monitor']],
  [messages.inventory.listProbeTargets, ['monitor']],
  [messages.inventory.getMonitoringState, ['monitor']],
  [messages.inventory.saveMonitoringState, ['monitor']],
  [messages.monitor.assignSweep, ['monitor']],
  [messages.monitor.sweepDone, ['monitor']],
  [messages.monitor.probeNow, ['monitor']],
  // The readiness check before a class runs the room check, as "Check this room now" does.
  [messages.monitor.checkRoom, ['gateway', 'inventory']],
  [messages.auth.userChanged, ['auth']],
  [messages.auth.sessionsEnded, ['gateway']],
]);

/** Notices that others than their owner listen to (by default the owning service does). */
const noticeListeners = new Map<NoticeDef, readonly NatsPrincipal[]>([
  [messages.auth.userChanged, ['gateway']],
  [messages.auth.sessionsEnded, ['gateway']],
]);

/**
 * Subjects that end in an id: the monitor's assignment in the replica's member id, a report
 * chunk's in its stream's id.
 */
const memberSuffixed = new Set<MessageDef | NoticeDef>([
  messages.monitor.assignSweep,
  messages.monitor.probeNow,
  messages.inventory.reportChunk,
]);

/** Who publishes each JetStream event subject. */
const eventPublishers: Record<(typeof events)[keyof typeof events], NatsPrincipal> = {
  [events.statusChecked]: 'monitor',
  [events.equipmentChanged]: 'inventory',
  [events.healthProbed]: 'monitor',
  [events.liveEquipmentStatus]: 'inventory',
  [events.liveInventoryChanged]: 'inventory',
  [events.liveMonitoringState]: 'monitor',
  [events.liveRoomChecked]: 'monitor',
  [events.accountChanged]: 'auth',
};

/** Streams each principal consumes from (and ensures, as every consumer does). */
const streamConsumers: Partial<Record<NatsPrincipal, (keyof typeof streams)[]>> = {
  inventory: ['status', 'health'],
  monitor: ['equipment'],
  // Each gateway replica follows the live stream and replays it for a `Last-Event-ID`.
  // … and records auth's account changes in its audit log.
  gateway: ['live', 'accounts'],
};

/** The streams a principal publishes to or consumes from: those it ensures at start, and may. */
export function streamsOf(principal: NatsPrincipal): (typeof streams)[keyof typeof streams][] {
  return Object.entries(streams)
    .filter(
      ([key, stream]) =>
        streamConsumers[principal]?.includes(key as keyof typeof streams) ||
        stream.subjects.some((subject) => eventPublishers[subject] === principal),
    )
    .map(([, stream]) => stream);
}

/**
 * Replies come back on inboxes under a prefix of each principal's own, so that no other user can
 * read them (an `auth.user.get` reply names a user) or forge one.
 */
export function natsInboxPrefix(ns: string, principal: NatsPrincipal): string {
  return `_INBOX_${ns}_${principal}`;
}

/** The NATS user name of a principal in a namespace. */
export function natsUserName(ns: string, principal: NatsPrincipal): string {
  return `${ns}-${principal}`;
}

export interface NatsPermissions {
  publish: string[];
  subscribe: string[];
  /** May answer the requests it receives (publish to their reply subjects, once each). */
  allowResponses: boolean;
}

function wire(ns: string, def: MessageDef | NoticeDef): string {
  const subject = namespacedSubject(ns, def.subject);
  return memberSuffixed.has(def) ? `${subject}.*` : subject;
}

/** The JetStream API subjects that ensure a stream (info, create, update) and run consumers on it. */
function streamApi(stream: string, { consume }: { consume: boolean }): string[] {
  const ensure = ['INFO', 'CREATE', 'UPDATE'].map((verb) => `$JS.API.STREAM.${verb}.${stream}`);
  if (!consume) return ensure;
  return [
    ...ensure,
    `$JS.API.CONSUMER.*.${stream}`,
    `$JS.API.CONSUMER.*.${stream}.>`,
    `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.*`,
    `$JS.API.CONSUMER.MSG.NEXT.${stream}.*`,
    `$JS.ACK.${stream}.>`,
    `$JS.FC.${stream}.>`,
  ];
}

/** A KV bucket is a stream of its own, read directly or by consumers and written under `$KV`. */
function bucketApi(bucket: string): string[] {
  const stream = `KV_${bucket}`;
  return [
    ...streamApi(stream, { consume: true }),
    `$JS.API.STREAM.MSG.GET.${stream}`,
    `$JS.API.STREAM.PURGE.${stream}`,
    `$JS.API.DIRECT.GET.${stream}`,
    `$JS.API.DIRECT.GET.${stream}.>`,
    `$KV.${bucket}.>`,
  ];
}

/**
 * The publish and subscribe allow lists of every principal in a namespace, derived from the
 * message registry: the gateway sends what browsers reach, each service receives its own
 * messages and answers them, only the monitor publishes status, only inventory equipment changes.
 */
export function natsPermissions(ns: string): Record<NatsPrincipal, NatsPermissions> {
  const all = serviceNames.flatMap((service) =>
    Object.values(messages[service] as Record<string, MessageDef | NoticeDef>).map((def) => ({
      service,
      def,
    })),
  );
  const permissions = Object.fromEntries(
    natsPrincipals.map((principal) => [
      principal,
      {
        publish: [] as string[],
        subscribe: [`${natsInboxPrefix(ns, principal)}.>`],
        allowResponses: principal !== 'gateway',
      },
    ]),
  ) as Record<NatsPrincipal, NatsPermissions>;

  for (const { service, def } of all) {
    for (const listener of noticeListeners.get(def as NoticeDef) ?? [service]) {
      permissions[listener].subscribe.push(wire(ns, def));
    }
    for (const caller of internalCallers.get(def) ?? ['gateway']) {
      permissions[caller].publish.push(wire(ns, def));
    }
  }

  const jetStreamUsers = new Set<NatsPrincipal>();
  for (const [subject, publisher] of Object.entries(eventPublishers)) {
    const stream = Object.values(streams).find((s) => (s.subjects as readonly string[]).includes(subject))!;
    permissions[publisher].publish.push(
      namespacedSubject(ns, subject),
      ...streamApi(namespacedName(ns, stream.name), { consume: false }),
    );
    jetStreamUsers.add(publisher);
  }
  for (const [principal, consumed] of Object.entries(streamConsumers) as [NatsPrincipal, string[]][]) {
    for (const key of consumed) {
      const stream = streams[key as keyof typeof streams];
      permissions[principal].publish.push(...streamApi(namespacedName(ns, stream.name), { consume: true }));
    }
    jetStreamUsers.add(principal);
  }
  // Check Now answers once inventory's consumer has acknowledged the sweep: the monitor reads its state.
  permissions.monitor.publish.push(
    `$JS.API.CONSUMER.INFO.${namespacedName(ns, streams.status.name)}.${durableConsumers.inventoryStatus}`,
    ...Object.values(kvBuckets).flatMap((bucket) => bucketApi(namespacedName(ns, bucket))),
  );
  for (const principal of jetStreamUsers) permissions[principal].publish.push('$JS.API.INFO');

  for (const principal of natsPrincipals) {
    const p = permissions[principal];
    p.publish = [...new Set(p.publish)];
    p.subscribe = [...new Set(p.subscribe)];
    // An empty allow list would allow everything: one that only answers gets a subject nobody reads.
    if (p.publish.length === 0) p.publish.push(natsInboxPrefix(ns, principal));
  }
  return permissions;
}

/**
 * A nats-server `authorization` block with a user per principal. `password` gives each one's
 * password as the config should hold it: a quoted literal, or a `$VARIABLE` the server reads from
 * its environment.
 */
export function natsAuthorizationConfig(ns: string, password: (principal: NatsPrincipal) => string): string {
  const list = (subjects: string[]) => `[${subjects.map((s) => JSON.stringify(s)).join(', ')}]`;
  const permissions = natsPermissions(ns);
  const users = natsPrincipals.map((principal) => {
    const p = permissions[principal];
    return [
      '    {',
      `      user: ${JSON.stringify(natsUserName(ns, principal))}`,
      `      password: ${password(principal)}`,
      '      permissions: {',
      `        publish: { allow: ${list(p.publish)} }`,
      `        subscribe: { allow: ${list(p.subscribe)} }`,
      ...(p.allowResponses ? ['        allow_responses: true'] : []),
      '      }',
      '    }',
    ].join('\n');
  });
  return ['authorization {', '  users = [', ...users, '  ]', '}', ''].join('\n');
}
