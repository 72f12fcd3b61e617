import {
  describeRoomCheck,
  type Equipment,
  type EquipmentStatusEvent,
  type InventoryChangedEvent,
  type LiveEvent,
  type RoomCheckedEvent,
  type RoomCheckResult,
} from '@cm/contracts';
import { apiRoutes } from './api-routes';
import { type QueryClient, type QueryKey } from '@tanstack/react-query';
import { queryKeyOf } from './api';
import { checkReply } from './reply-check';
import { liveEvents, nodes } from './reply-checks';

/** Events of one sweep arrive in a burst: each query is refetched once per window. */
export const COALESCE_MS = 100;

const buildingsKey = queryKeyOf(apiRoutes.listBuildings);
const problemsKey = queryKeyOf(apiRoutes.listProblems);
const searchKey = queryKeyOf(apiRoutes.search);
const reportKey = queryKeyOf(apiRoutes.uptimeReport);
const monitoringKey = queryKeyOf(apiRoutes.monitoringStatus);
const roomsKey = (buildingId: string) => queryKeyOf(apiRoutes.listRooms, { buildingId });
const equipmentKey = (roomId: string) => queryKeyOf(apiRoutes.listEquipment, { roomId });
/** Every window of one equipment's history (the query string follows in the key). */
const historyKey = (id: string) => queryKeyOf(apiRoutes.equipmentHistory, { id });
/** Every equipment's history: the first segment of their keys. */
const historiesKey = historyKey('any').slice(0, 1);
/** Every list of maintenance windows, whatever its filters. */
const windowsKey = queryKeyOf(apiRoutes.listMaintenanceWindows);
/** Every list of open alerts, whatever its filters. */
const openAlertsKey = queryKeyOf(apiRoutes.listOpenAlerts);

/**
 * The last "Check this room now" answer of a room, kept where live events reach it: the results
 * that come after the answer (`room.checked`) are written into it.
 */
export const roomCheckKey = (roomId: string): QueryKey => ['room-check', roomId];

/** A room check's answer with the results that came after it: those equipment no longer pending. */
export function withLateResults(result: RoomCheckResult, event: RoomCheckedEvent): RoomCheckResult {
  if (result.checkId !== event.checkId) return result;
  const late = new Map(event.equipment.map((e) => [e.equipmentId, e]));
  const equipment = result.equipment.map((e) => late.get(e.equipmentId) ?? e);
  return { ...result, equipment, message: describeRoomCheck(equipment) };
}

/**
 * Ends the wait of a room check's devices still "Checking..." when their `room.checked` event did
 * not come (the live stream was down, or dropped it): the room's equipment is read again, and
 * each pending device takes what the monitor recorded for it. A late event still fills in after.
 */
export async function settleRoomCheck(queryClient: QueryClient, roomId: string): Promise<void> {
  const waiting = queryClient.getQueryData<RoomCheckResult>(roomCheckKey(roomId));
  if (!waiting?.equipment.some((e) => e.pending)) return;
  await queryClient.refetchQueries({ queryKey: equipmentKey(roomId), exact: true }).catch(() => undefined);
  const recorded = new Map(
    (queryClient.getQueryData<Equipment[]>(equipmentKey(roomId)) ?? []).map((e) => [e.id, e]),
  );
  queryClient.setQueryData<RoomCheckResult>(roomCheckKey(roomId), (result) => {
    if (!result || result.checkId !== waiting.checkId) return result;
    const equipment = result.equipment.map((e) => {
      if (!e.pending) return e;
      const now = recorded.get(e.equipmentId);
      // The list's status words are the check's, with more kinds of equipment.
      const status = (now?.status ?? e.status) as typeof e.status;
      return { ...e, pending: false, status, rttMs: now?.lastRttMs ?? e.rttMs };
    });
    return { ...result, equipment, message: describeRoomCheck(equipment) };
  });
}

/** Every room check on this page still waiting for late results, settled (`settleRoomCheck`). */
function settleRoomChecks(queryClient: QueryClient): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: roomCheckKey('').slice(0, 1) })) {
    const roomId = query.queryKey[1];
    if (typeof roomId === 'string') void settleRoomCheck(queryClient, roomId);
  }
}

/** A key to refetch: `exact` for a list whose children are other queries. */
interface Stale {
  queryKey: QueryKey;
  exact?: boolean;
}

/**
 * Applies live events to the query cache: what an event carries is written into the lists that
 * show it (an equipment's status in its room's list), and the queries it makes out of date are
 * refetched once per `COALESCE_MS`, however many events named them. Only queries on screen are
 * refetched (react-query leaves the others stale), so a busy sweep costs a screen one request per
 * list it shows.
 */
export class LiveCache {
  private readonly stale = new Map<string, Stale>();
  private timer?: ReturnType<typeof setTimeout>;

  constructor(private readonly queryClient: QueryClient) {}

  /** One SSE event by name and its `data` text; events of other names or shapes are ignored. */
  apply(type: string, data: string): void {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    // Checked as the contract's schema would, without zod (scripts/web-reply-checks.mjs): events
    // arrive from the first screen on, when zod's code would still be on its way.
    const at = liveEvents[type];
    const parsed = at === undefined ? undefined : checkReply(nodes, at, json);
    if (!parsed?.success) return;
    const event = { type, data: parsed.data } as LiveEvent;
    if (event.type === 'equipment.status') this.statusChanged(event.data);
    else if (event.type === 'inventory.changed') this.inventoryChanged(event.data);
    else if (event.type === 'room.checked') this.roomChecked(event.data);
    // Settings also polls it every 5 s (spec); this only makes a change show sooner.
    else this.queryClient.setQueryData(monitoringKey, event.data);
  }

  /** Events were missed: every query on screen is refetched. */
  refetchAll(): void {
    this.stale.clear();
    clearTimeout(this.timer);
    this.timer = undefined;
    void this.queryClient.invalidateQueries();
    // A `room.checked` among the missed events would have ended some "Checking...".
    settleRoomChecks(this.queryClient);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.stale.clear();
  }

  private statusChanged({ changes }: EquipmentStatusEvent): void {
    for (const change of changes) {
      this.queryClient.setQueryData<Equipment[]>(equipmentKey(change.roomId), (list) =>
        list?.map((item) =>
          item.id === change.equipmentId
            ? { ...item, status: change.status, lastCheckedAt: change.lastCheckedAt, lastRttMs: change.rttMs }
            : item,
        ),
      );
      this.mark(
        { queryKey: roomsKey(change.buildingId), exact: true },
        { queryKey: historyKey(change.equipmentId) },
      );
    }
    this.mark({ queryKey: buildingsKey, exact: true }, { queryKey: problemsKey }, { queryKey: reportKey });
  }

  /** Late results of a room check: its answer on screen fills in, and the cards show what was recorded. */
  private roomChecked(event: RoomCheckedEvent): void {
    this.queryClient.setQueryData<RoomCheckResult>(roomCheckKey(event.roomId), (result) =>
      result ? withLateResults(result, event) : result,
    );
    this.mark({ queryKey: equipmentKey(event.roomId), exact: true });
    for (const { equipmentId } of event.equipment) this.mark({ queryKey: historyKey(equipmentId) });
  }

  private inventoryChanged({ kind, id, roomId, buildingId }: InventoryChangedEvent): void {
    // A room's alert opened, changed or closed: only the open alerts show it.
    if (kind === 'alert') {
      this.mark({ queryKey: openAlertsKey });
      return;
    }
    // A list of windows names its targets and follows their deletes (which take their windows).
    this.mark({ queryKey: windowsKey });
    if (kind === 'maintenanceWindow') {
      // What it covers has another uptime: the report, and any timeline on screen.
      this.mark({ queryKey: reportKey }, { queryKey: historiesKey });
      return;
    }
    this.mark(
      { queryKey: buildingsKey, exact: true },
      { queryKey: problemsKey },
      { queryKey: searchKey },
      { queryKey: reportKey },
    );
    if (kind === 'building') this.mark({ queryKey: [...buildingsKey, id] });
    if (kind === 'room') {
      this.mark({ queryKey: queryKeyOf(apiRoutes.getRoom, { id }) });
      if (buildingId) this.mark({ queryKey: roomsKey(buildingId), exact: true });
    }
    if (kind === 'equipment') {
      if (roomId) this.mark({ queryKey: equipmentKey(roomId), exact: true });
      if (buildingId) this.mark({ queryKey: roomsKey(buildingId), exact: true });
      this.mark({ queryKey: historyKey(id) });
    }
  }

  private mark(...keys: Stale[]): void {
    for (const key of keys) this.stale.set(JSON.stringify(key), key);
    this.timer ??= setTimeout(() => this.flush(), COALESCE_MS);
  }

  private flush(): void {
    this.timer = undefined;
    const keys = [...this.stale.values()];
    this.stale.clear();
    for (const { queryKey, exact } of keys) void this.queryClient.invalidateQueries({ queryKey, exact });
  }
}
