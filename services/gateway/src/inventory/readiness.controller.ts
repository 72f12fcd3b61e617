import { apiRoutes, messages, type ReadinessClass, type RouteQuery } from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Controller, Query } from '@nestjs/common';
import { ApiRoute } from '../http/api-route.decorator';

/** The classes ahead and their rooms' readiness (inventory checks them before each class). */
@Controller()
export class ReadinessController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute(apiRoutes.listReadiness)
  list(@Query() query: RouteQuery<typeof apiRoutes.listReadiness>): Promise<ReadinessClass[]> {
    return this.rpc.send(messages.inventory.listReadiness, query);
  }
}
