import { z } from 'zod';
import { message, noArguments, notice, query } from './message-def';
import { scheduleMessages } from './messaging-schedules';
import {
  buildingCreateSchema,
  buildingIdParamsSchema,
  buildingListItemSchema,
  buildingSchema,
  buildingUpdateMessageSchema,
} from './buildings';
import { deletedSchema, idParamsSchema } from './common';
import { deleteMessageSchema } from './versions';
import {
  equipmentCreateMessageSchema,
  equipmentOptionSchema,
  equipmentSchema,
  equipmentUpdateMessageSchema,
} from './equipment';
import { consumablesPageRequestSchema, consumablesPageSchema } from './consumables';
import { fleetSchema, probeTargetsPageSchema } from './device-health';
import { healthReportSchema } from './health';
import {
  exportPageRequestSchema,
  exportPageSchema,
  importRunSchema,
  importStagedSchema,
  importStageSchema,
} from './inventory-csv';
import { importRunAnswerSchema } from './inventory-import';
import { equipmentHistorySchema, historyRequestSchema } from './history';
import {
  maintenanceWindowCreateSchema,
  maintenanceWindowQuerySchema,
  maintenanceWindowSchema,
  maintenanceWindowUpdateMessageSchema,
} from './maintenance';
import {
  objectDownloadSchema,
  objectLookupSchema,
  objectPathResultSchema,
  registeredObjectsRequestSchema,
  registeredObjectsSchema,
  roomImageRegistrationSchema,
  uploadAbortResultSchema,
  uploadAbortSchema,
  uploadCompleteSchema,
  uploadLinkSchema,
  uploadResultSchema,
  uploadSessionSchema,
  uploadStartSchema,
  uploadUrlRequestSchema,
  uploadUrlResultSchema,
} from './media';
import {
  monitoringCheckResultSchema,
  monitoringStatusSchema,
  monitoringStateSaveSchema,
  durableMonitoringStateSchema,
  sweepAcceptanceSchema,
  sweepAssignmentSchema,
  sweepReportSchema,
  targetsPageRequestSchema,
  targetsPageSchema,
} from './monitoring';
import {
  channelCreatedSchema,
  channelCreateSchema,
  channelSchema,
  channelTestResultSchema,
  channelTypeAvailabilitySchema,
  channelUpdateMessageSchema,
  deliveryPageSchema,
  deliveryQuerySchema,
  buildingQuietHoursSchema,
  openAlertQuerySchema,
  openAlertSchema,
  quietHoursMessageSchema,
} from './notifications';
import { problemsSchema } from './problems';
import {
  probeNowReplySchema,
  probeNowRequestSchema,
  roomCheckRequestSchema,
  roomCheckResultSchema,
} from './room-check';
import {
  reportChunkPullSchema,
  reportChunkSchema,
  reportPageRequestSchema,
  reportPageSchema,
  reportStreamOpenedSchema,
  reportStreamOpenSchema,
} from './reports';
import { searchQuerySchema, searchResultSchema } from './search';
import {
  oidcBeginMessageSchema,
  oidcBeginResultSchema,
  oidcCompleteMessageSchema,
  signInOptionsSchema,
} from './single-sign-on';
import {
  recoveryCodesSchema,
  totpCodeMessageSchema,
  totpProofMessageSchema,
  totpSetupSchema,
  totpStateSchema,
  totpUserMessageSchema,
} from './totp';
import {
  roomCreateMessageSchema,
  roomIdParamsSchema,
  roomListItemSchema,
  roomSchema,
  roomUpdateMessageSchema,
} from './rooms';
import {
  loginMessageSchema,
  passwordChangeMessageSchema,
  sessionUserSchema,
  userCreateMessageSchema,
  userDeleteMessageSchema,
  userIdMessageSchema,
  userSchema,
  userUpdateMessageSchema,
} from './users';

/**
 * NATS request/reply messages and core notices (events and JetStream names: jetstream-names.ts).
 * Every name here is relative: on the wire it carries the stack's namespace
 * (CM_NAMESPACE), so two stacks can share one NATS server without crossing.
 */
export {
  message,
  type MessageDef,
  type MessagePayload,
  type MessageReply,
  type MessageRequest,
  notice,
  type NoticeDef,
  query,
} from './message-def';

export const serviceNames = ['auth', 'inventory', 'media', 'monitor'] as const;
export type ServiceName = (typeof serviceNames)[number];

const health = (service: ServiceName) => query(`${service}.health`, noArguments, healthReportSchema);

export const messages = {
  auth: {
    health: health('auth'),
    login: message('auth.login', loginMessageSchema, sessionUserSchema),
    getUser: query('auth.user.get', userIdMessageSchema, userSchema),
    getSessionUser: query('auth.user.session', userIdMessageSchema, sessionUserSchema),
    listUsers: query('auth.user.list', noArguments, z.array(userSchema)),
    createUser: message('auth.user.create', userCreateMessageSchema, userSchema),
    updateUser: message('auth.user.update', userUpdateMessageSchema, sessionUserSchema),
    deleteUser: message('auth.user.delete', userDeleteMessageSchema, deletedSchema),
    /** A user changes their own password: answers the user with their sessions' new version. */
    changePassword: message('auth.user.change-password', passwordChangeMessageSchema, sessionUserSchema),
    /**
     * Auth → every gateway replica: this user was changed or deleted, so what a gateway keeps of
     * them (rights, session version) is out of date. Core NATS: a gateway that was not connected
     * misses it, and so trusts nothing it kept from before it reconnected.
     */
    userChanged: notice('auth.user.changed', userIdMessageSchema),
    /**
     * A gateway replica → every replica: sessions of this user were deleted (signed out, or ended
     * by an account change), so session rows a replica keeps of that user are out of date. Core
     * NATS, like `userChanged`: a replica that was not connected trusts nothing it kept.
     */
    sessionsEnded: notice('auth.session.ended', userIdMessageSchema),
    totpStatus: query('auth.totp.status', totpUserMessageSchema, totpStateSchema),
    totpSetup: message('auth.totp.setup', totpUserMessageSchema, totpSetupSchema),
    totpEnable: message('auth.totp.enable', totpCodeMessageSchema, recoveryCodesSchema),
    /** The second step of sign-in: the user as `login` answers it, when the code is right and unused. */
    totpVerify: message('auth.totp.verify', totpCodeMessageSchema, sessionUserSchema),
    totpDisable: message('auth.totp.disable', totpProofMessageSchema, totpStateSchema),
    totpRecoveryCodes: message('auth.totp.recovery-codes', totpProofMessageSchema, recoveryCodesSchema),
    /** An administrator turns a user's two-factor sign-in off, without a proof. */
    totpReset: message('auth.totp.reset', totpUserMessageSchema, totpStateSchema),
    /** Whether OpenID Connect sign-in is set up, and the provider's name for the button. */
    signInOptions: query('auth.sign-in.options', noArguments, signInOptionsSchema),
    /** The provider's authorization URL for a new sign-in, and what its answer must match. */
    oidcBegin: message('auth.oidc.begin', oidcBeginMessageSchema, oidcBeginResultSchema),
    /**
     * The provider's answer: auth redeems the code, checks the ID token, and creates or updates the
     * external user; answers the user as `login` does.
     */
    oidcComplete: message('auth.oidc.complete', oidcCompleteMessageSchema, sessionUserSchema),
  },
  inventory: {
    health: health('inventory'),
    listBuildings: query('inventory.building.list', noArguments, z.array(buildingListItemSchema)),
    getBuilding: query('inventory.building.get', idParamsSchema, buildingSchema),
    createBuilding: message('inventory.building.create', buildingCreateSchema, buildingSchema),
    updateBuilding: message('inventory.building.update', buildingUpdateMessageSchema, buildingSchema),
    deleteBuilding: message('inventory.building.delete', deleteMessageSchema, deletedSchema),
    listRooms: query('inventory.room.list', buildingIdParamsSchema, z.array(roomListItemSchema)),
    getRoom: query('inventory.room.get', idParamsSchema, roomSchema),
    createRoom: message('inventory.room.create', roomCreateMessageSchema, roomSchema),
    updateRoom: message('inventory.room.update', roomUpdateMessageSchema, roomSchema),
    deleteRoom: message('inventory.room.delete', deleteMessageSchema, deletedSchema),
    listEquipment: query('inventory.equipment.list', roomIdParamsSchema, z.array(equipmentSchema)),
    getEquipment: query('inventory.equipment.get', idParamsSchema, equipmentSchema),
    listBuildingEquipment: query(
      'inventory.equipment.building',
      buildingIdParamsSchema,
      z.array(equipmentOptionSchema),
    ),
    createEquipment: message('inventory.equipment.create', equipmentCreateMessageSchema, equipmentSchema),
    updateEquipment: message('inventory.equipment.update', equipmentUpdateMessageSchema, equipmentSchema),
    deleteEquipment: message('inventory.equipment.delete', deleteMessageSchema, deletedSchema),
    /** For the monitor: equipment with an address, a page at a time. */
    listTargets: query('inventory.equipment.targets', targetsPageRequestSchema, targetsPageSchema),
    /** For the monitor: equipment probed beyond ping, with their secrets unsealed, a page at a time. */
    listProbeTargets: query(
      'inventory.equipment.probe-targets',
      targetsPageRequestSchema,
      probeTargetsPageSchema,
    ),
    /** For the monitor: monitoring's running state, durable (null before it was ever started or stopped). */
    getMonitoringState: query(
      'inventory.monitoring.get',
      noArguments,
      durableMonitoringStateSchema.nullable(),
    ),
    saveMonitoringState: message(
      'inventory.monitoring.save',
      monitoringStateSaveSchema,
      durableMonitoringStateSchema,
    ),
    equipmentHistory: query('inventory.equipment.history', historyRequestSchema, equipmentHistorySchema),
    report: query('inventory.report', reportPageRequestSchema, reportPageSchema),
    /** The uptime CSV as one query behind a cursor: opened once, then pulled (`reportChunk`). */
    openReport: message('inventory.report.open', reportStreamOpenSchema, reportStreamOpenedSchema),
    /** One chunk of an open report; the subject ends in the stream's id. */
    reportChunk: message('inventory.report.chunk', reportChunkPullSchema, reportChunkSchema),
    listProblems: query('inventory.problems.list', noArguments, problemsSchema),
    consumables: query('inventory.reports.consumables', consumablesPageRequestSchema, consumablesPageSchema),
    fleet: query('inventory.fleet', noArguments, fleetSchema),
    search: query('inventory.search', searchQuerySchema, searchResultSchema),
    listMaintenanceWindows: query(
      'inventory.maintenance.list',
      maintenanceWindowQuerySchema,
      z.array(maintenanceWindowSchema),
    ),
    getMaintenanceWindow: query('inventory.maintenance.get', idParamsSchema, maintenanceWindowSchema),
    createMaintenanceWindow: message(
      'inventory.maintenance.create',
      maintenanceWindowCreateSchema,
      maintenanceWindowSchema,
    ),
    updateMaintenanceWindow: message(
      'inventory.maintenance.update',
      maintenanceWindowUpdateMessageSchema,
      maintenanceWindowSchema,
    ),
    deleteMaintenanceWindow: message('inventory.maintenance.delete', idParamsSchema, deletedSchema),
    listChannels: query('inventory.channel.list', noArguments, z.array(channelSchema)),
    channelTypes: query('inventory.channel.types', noArguments, z.array(channelTypeAvailabilitySchema)),
    createChannel: message('inventory.channel.create', channelCreateSchema, channelCreatedSchema),
    updateChannel: message('inventory.channel.update', channelUpdateMessageSchema, channelSchema),
    deleteChannel: message('inventory.channel.delete', idParamsSchema, deletedSchema),
    testChannel: message('inventory.channel.test', idParamsSchema, channelTestResultSchema),
    rotateChannelSecret: message('inventory.channel.secret', idParamsSchema, channelCreatedSchema),
    listDeliveries: query('inventory.delivery.list', deliveryQuerySchema, deliveryPageSchema),
    /** The inventory CSV, a page at a time. */
    exportPage: query('inventory.export.page', exportPageRequestSchema, exportPageSchema),
    /** An import's checked lines, a batch at a time, kept until it runs. */
    stageImport: message('inventory.import.stage', importStageSchema, importStagedSchema),
    /** Plans the staged lines against the inventory; applies the plan unless it is a dry run. */
    runImport: message('inventory.import.run', importRunSchema, importRunAnswerSchema),
    listOpenAlerts: query('inventory.alert.open', openAlertQuerySchema, z.array(openAlertSchema)),
    getQuietHours: query('inventory.quiet-hours.get', buildingIdParamsSchema, buildingQuietHoursSchema),
    setQuietHours: message('inventory.quiet-hours.set', quietHoursMessageSchema, buildingQuietHoursSchema),
    ...scheduleMessages,
  },
  media: {
    health: health('media'),
    createUpload: message('media.upload.create', uploadStartSchema, uploadSessionSchema),
    completeUpload: message('media.upload.complete', uploadCompleteSchema, uploadResultSchema),
    abortUpload: message('media.upload.abort', uploadAbortSchema, uploadAbortResultSchema),
    createUploadUrl: message('media.upload-url.create', uploadUrlRequestSchema, uploadUrlResultSchema),
    /** Before the gateway forwards a PUT to an upload link: may it still write that key? */
    findUploadLink: query('media.upload-url.find', objectLookupSchema, uploadLinkSchema),
    registerRoomImage: message(
      'media.room-image.register',
      roomImageRegistrationSchema,
      objectPathResultSchema,
    ),
    getObject: query('media.object.get', objectLookupSchema, objectDownloadSchema),
    /** Before a picture path is stored: is it an object media registered? */
    findRegistered: query('media.object.registered', registeredObjectsRequestSchema, registeredObjectsSchema),
  },
  monitor: {
    health: health('monitor'),
    status: query('monitor.status', noArguments, monitoringStatusSchema),
    start: message('monitor.start', noArguments, monitoringStatusSchema),
    stop: message('monitor.stop', noArguments, monitoringStatusSchema),
    check: message('monitor.check', noArguments, monitoringCheckResultSchema),
    /** Ping and probe one room's equipment now, on the replica that takes the request. */
    checkRoom: message('monitor.room.check', roomCheckRequestSchema, roomCheckResultSchema),
    /**
     * Coordinator → one replica: ping your share of a sweep. Sent on the subject suffixed with
     * the replica's member id, outside the service's queue group.
     */
    assignSweep: message('monitor.member.sweep', sweepAssignmentSchema, sweepAcceptanceSchema),
    /** Room check → the device's owner (suffixed with its member id): probe it now, joining one in flight. */
    probeNow: message('monitor.member.probe', probeNowRequestSchema, probeNowReplySchema),
    /** Replica → coordinator: a share of a sweep is finished (or given up). */
    sweepDone: notice('monitor.sweep.done', sweepReportSchema),
  },
} as const;
