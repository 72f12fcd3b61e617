import {
  apiRoutes,
  messages,
  MONITOR_CHECK_MAX_WAIT_MS,
  type MonitoringCheckResult,
  type MonitoringStatus,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { ApiRoute } from '../http/api-route.decorator';

/** The monitor holds a check up to MONITOR_CHECK_MAX_WAIT_MS, then answers that it goes on. */
const CHECK_REPLY_TIMEOUT_MS = MONITOR_CHECK_MAX_WAIT_MS + 5000;

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
}
