import {
  apiRoutes,
  type MaintenanceWindow,
  messages,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiRoute } from '../http/api-route.decorator';

@Controller()
export class MaintenanceWindowsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute(apiRoutes.listMaintenanceWindows)
  list(@Query() query: RouteQuery<typeof apiRoutes.listMaintenanceWindows>): Promise<MaintenanceWindow[]> {
    return this.rpc.send(messages.inventory.listMaintenanceWindows, query);
  }

  @ApiRoute(apiRoutes.getMaintenanceWindow)
  get(@Param() { id }: RouteParams<typeof apiRoutes.getMaintenanceWindow>): Promise<MaintenanceWindow> {
    return this.rpc.send(messages.inventory.getMaintenanceWindow, { id });
  }

  @ApiRoute(apiRoutes.createMaintenanceWindow)
  create(@Body() window: RouteBody<typeof apiRoutes.createMaintenanceWindow>): Promise<MaintenanceWindow> {
    return this.rpc.send(messages.inventory.createMaintenanceWindow, window);
  }

  @ApiRoute(apiRoutes.updateMaintenanceWindow)
  update(
    @Param() { id }: RouteParams<typeof apiRoutes.updateMaintenanceWindow>,
    @Body() changes: RouteBody<typeof apiRoutes.updateMaintenanceWindow>,
  ): Promise<MaintenanceWindow> {
    return this.rpc.send(messages.inventory.updateMaintenanceWindow, { id, changes });
  }

  @ApiRoute(apiRoutes.deleteMaintenanceWindow)
  async delete(@Param() { id }: RouteParams<typeof apiRoutes.deleteMaintenanceWindow>): Promise<void> {
    await this.rpc.send(messages.inventory.deleteMaintenanceWindow, { id });
  }
}
