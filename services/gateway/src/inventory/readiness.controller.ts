import {
  apiRoutes,
  messages,
  type ReadinessClass,
  type ReadinessSummarySettings,
  type RouteBody,
  type RouteQuery,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Query } from '@nestjs/common';
import { ApiRoute } from '../http/api-route.decorator';

/** The classes ahead and their rooms' readiness (inventory checks them before each class), the morning summary. */
@Controller()
export class ReadinessController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute(apiRoutes.listReadiness)
  list(@Query() query: RouteQuery<typeof apiRoutes.listReadiness>): Promise<ReadinessClass[]> {
    return this.rpc.send(messages.inventory.listReadiness, query);
  }

  @ApiRoute(apiRoutes.readinessSummary)
  summary(): Promise<ReadinessSummarySettings> {
    return this.rpc.send(messages.inventory.getReadinessSummary);
  }

  @ApiRoute(apiRoutes.setReadinessSummary)
  setSummary(
    @Body() settings: RouteBody<typeof apiRoutes.setReadinessSummary>,
  ): Promise<ReadinessSummarySettings> {
    return this.rpc.send(messages.inventory.setReadinessSummary, settings);
  }
}
