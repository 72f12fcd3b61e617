import {
  apiRoutes,
  messages,
  MONITOR_CHECK_MAX_WAIT_MS,
  type MonitoringCheckResult,
  type MonitoringStatus,
  type RoomCheckResult,
  type RouteParams,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Controller, Param } from '@nestjs/common';
import { ApiRoute } from '../http/api-route.decorator';

/** The monitor holds a check up to MONITOR_CHECK_MAX_WAIT_MS, then answers that it goes on. */
const CHECK_REPLY_TIMEOUT_MS = MONITOR_CHECK_MAX_WAIT_MS + 5000;
/**
 * A room check answers within ROOM_CHECK_ANSWER_MS (2 s) whatever its devices do, the rest coming
 * later as live events; past this, something is wrong rather than slow.
 */
const ROOM_CHECK_REPLY_TIMEOUT_MS = 15_000;

@Controller()
export class MonitoringController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute(apiRoutes.monitoringStatus)
  status(): Promise<MonitoringStatus> {
    return this.rpc.send(messages.monitor.status);
  }

  @ApiRoute(apiRoutes.startMonitoring)
  start(): Promise<MonitoringStatus> {
    return this.rpc.send(messages.monitor.start);
  }

  @ApiRoute(apiRoutes.stopMonitoring)
  stop(): Promise<MonitoringStatus> {
    return this.rpc.send(messages.monitor.stop);
  }

  @ApiRoute(apiRoutes.checkMonitoring)
  check(): Promise<MonitoringCheckResult> {
    return this.rpc.send(messages.monitor.check, {}, { timeoutMs: CHECK_REPLY_TIMEOUT_MS });
  }

  /** The room's equipment as inventory has them now (404 for an unknown room), checked by the monitor. */
  @ApiRoute(apiRoutes.checkRoom)
  async checkRoom(@Param() { roomId }: RouteParams<typeof apiRoutes.checkRoom>): Promise<RoomCheckResult> {
    const equipment = await this.rpc.send(messages.inventory.listEquipment, { roomId });
    return this.rpc.send(
      messages.monitor.checkRoom,
      { roomId, equipment: equipment.map((e) => ({ equipmentId: e.id, ipAddress: e.ipAddress })) },
      { timeoutMs: ROOM_CHECK_REPLY_TIMEOUT_MS },
    );
  }
}
