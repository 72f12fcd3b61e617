import { type ApiRouteDef, apiRoutes, type AuditAction, type AuditEntityType, messages } from '@cm/contracts';
import { type RpcClient } from '@cm/platform';
import { type ApiTokenRepository } from '../tokens/api-token.repository';

export interface AuditDeps {
  rpc: RpcClient;
  tokens: ApiTokenRepository;
}

export interface AuditedRoute {
  entityType: AuditEntityType;
  action: AuditAction;
  /** The entity as it is before an update or a delete, read from its owner just before. */
  before?: (deps: AuditDeps, id: string) => Promise<unknown>;
  /** The reply is kept as the entity after (creates, updates, monitoring start and stop). */
  keepsReply?: boolean;
  /** The path parameter naming the entity, when it is not `id`. */
  idParam?: string;
  /** The entity is the signed-in user (the Account screen's routes), named by no path parameter. */
  ofSignedInUser?: true;
  /** The entity after the change, read from its owner: for routes whose reply is not the entity. */
  after?: (deps: AuditDeps, id: string) => Promise<unknown>;
  /** Secrets the route replaces (recovery codes): shown as changed, with neither value. */
  replacesSecrets?: string[];
  /** The handler writes the entry itself: what it records is not in the reply (the import's changes). */
  writtenByHandler?: true;
}

const create = (entityType: AuditEntityType): AuditedRoute => ({
  entityType,
  action: 'create',
  keepsReply: true,
});
const change =
  (action: 'update' | 'delete') =>
  (entityType: AuditEntityType, before: AuditedRoute['before']): AuditedRoute => ({
    entityType,
    action,
    before,
    keepsReply: action === 'update',
  });
const update = change('update');
const remove = change('delete');

const building = (d: AuditDeps, id: string) => d.rpc.send(messages.inventory.getBuilding, { id });
const room = (d: AuditDeps, id: string) => d.rpc.send(messages.inventory.getRoom, { id });
const equipment = (d: AuditDeps, id: string) => d.rpc.send(messages.inventory.getEquipment, { id });
const window = (d: AuditDeps, id: string) => d.rpc.send(messages.inventory.getMaintenanceWindow, { id });
const quietHours = (d: AuditDeps, buildingId: string) =>
  d.rpc.send(messages.inventory.getQuietHours, { buildingId });
const scheduleSource = (d: AuditDeps, id: string) => d.rpc.send(messages.inventory.getScheduleSource, { id });
const user = (d: AuditDeps, id: string) => d.rpc.send(messages.auth.getUser, { id });
const channel = async (d: AuditDeps, id: string) =>
  (await d.rpc.send(messages.inventory.listChannels)).find((c) => c.id === id) ?? null;
const token = (d: AuditDeps, id: string) => d.tokens.find(id);

/**
 * Two-factor sign-in turned on or off, or new recovery codes: a change of the user, read before and
 * after (`totpEnabled`), since the reply is the codes themselves or a status.
 */
const twoFactor = (more: Partial<AuditedRoute> = {}): AuditedRoute => ({
  entityType: 'user',
  action: 'update',
  before: user,
  after: user,
  ...more,
});
const ownTwoFactor = (more: Partial<AuditedRoute> = {}) => twoFactor({ ofSignedInUser: true, ...more });

/** The user's own new password: shown as changed, with no value (nor the current one, the proof). */
const ownPassword: AuditedRoute = {
  entityType: 'user',
  action: 'update',
  before: user,
  after: user,
  ofSignedInUser: true,
  replacesSecrets: ['password'],
};

/**
 * The routes whose calls are audited, and how. Admin routes not listed here are recorded as a use
 * of the route (who looked at the user list, the delivery log, the audit log itself).
 */
export const auditedRoutes = new Map<ApiRouteDef, AuditedRoute>([
  [apiRoutes.createBuilding, create('building')],
  [apiRoutes.updateBuilding, update('building', building)],
  [apiRoutes.deleteBuilding, remove('building', building)],
  [apiRoutes.createRoom, create('room')],
  [apiRoutes.updateRoom, update('room', room)],
  [apiRoutes.deleteRoom, remove('room', room)],
  [apiRoutes.createEquipment, create('equipment')],
  [apiRoutes.updateEquipment, update('equipment', equipment)],
  [apiRoutes.deleteEquipment, remove('equipment', equipment)],
  [apiRoutes.createMaintenanceWindow, create('maintenanceWindow')],
  [apiRoutes.updateMaintenanceWindow, update('maintenanceWindow', window)],
  [apiRoutes.deleteMaintenanceWindow, remove('maintenanceWindow', window)],
  // A building's teaching hours, named by the building's id.
  [apiRoutes.setQuietHours, { ...update('quietHours', quietHours), idParam: 'buildingId' }],
  [apiRoutes.clearQuietHours, { ...remove('quietHours', quietHours), idParam: 'buildingId' }],
  [apiRoutes.createScheduleSource, create('scheduleSource')],
  [apiRoutes.updateScheduleSource, update('scheduleSource', scheduleSource)],
  [apiRoutes.deleteScheduleSource, remove('scheduleSource', scheduleSource)],
  [apiRoutes.uploadScheduleFile, update('scheduleSource', scheduleSource)],
  [apiRoutes.createUser, create('user')],
  [apiRoutes.updateUser, update('user', user)],
  [apiRoutes.deleteUser, remove('user', user)],
  [apiRoutes.createChannel, create('channel')],
  [apiRoutes.updateChannel, update('channel', channel)],
  [apiRoutes.deleteChannel, remove('channel', channel)],
  [apiRoutes.rotateChannelSecret, update('channel', channel)],
  [apiRoutes.startMonitoring, { entityType: 'monitoring', action: 'start', keepsReply: true }],
  [apiRoutes.stopMonitoring, { entityType: 'monitoring', action: 'stop', keepsReply: true }],
  [apiRoutes.checkMonitoring, { entityType: 'monitoring', action: 'check', keepsReply: true }],
  [apiRoutes.changePassword, ownPassword],
  [apiRoutes.totpEnable, ownTwoFactor({ replacesSecrets: ['recoveryCodes'] })],
  [apiRoutes.totpDisable, ownTwoFactor()],
  [apiRoutes.totpRecoveryCodes, ownTwoFactor({ replacesSecrets: ['recoveryCodes'] })],
  // An administrator's reset of a user who lost their phone.
  [apiRoutes.resetUserTotp, twoFactor()],
  // Dry run or applied, the file's name, the counts and each record created or changed.
  [apiRoutes.importInventory, { entityType: 'import', action: 'create', writtenByHandler: true }],
  [apiRoutes.createApiToken, create('apiToken')],
  [apiRoutes.deleteApiToken, remove('apiToken', token)],
]);

/** An administrator's use of an admin route that changes nothing the list above records. */
const adminUse: AuditedRoute = { entityType: 'route', action: 'use' };

/**
 * What a route writes to the audit log, if anything: the entry of the list above, a sign-in (both
 * steps: the password, and the code when the account has two-factor sign-in), or an
 * administrator's use of any other admin route. `ApiRoute` puts the interceptor on the routes
 * this answers for, and the interceptor asks it what to write.
 */
export function auditOf(route: ApiRouteDef): AuditedRoute | 'sign-in' | undefined {
  if (route === apiRoutes.login || route === apiRoutes.loginTotp) return 'sign-in';
  return auditedRoutes.get(route) ?? (route.access === 'admin' ? adminUse : undefined);
}
