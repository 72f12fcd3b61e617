import {
  apiRoutes,
  type MaintenanceWindow,
  type MaintenanceWindowCreate,
  type MaintenanceWindowQuery,
  type MaintenanceWindowUpdate,
  messages,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiRoute } from '../http/api-route.decorator';

@Controller()
export class MaintenanceWindowsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute(apiRoutes.listMaintenanceWindows)
  list(@Query() query: MaintenanceWindowQuery): Promise<MaintenanceWindow[]> {
    return this.rpc.send(messages.inventory.listMaintenanceWindows, query);
  }

  @ApiRoute(apiRoutes.getMaintenanceWindow)
  get(@Param('id') id: string): Promise<MaintenanceWindow> {
    return this.rpc.send(messages.inventory.getMaintenanceWindow, { id });
  }

  @ApiRoute(apiRoutes.createMaintenanceWindow)
  create(@Body() window: MaintenanceWindowCreate): Promise<MaintenanceWindow> {
    return this.rpc.send(messages.inventory.createMaintenanceWindow, window);
  }

  @ApiRoute(apiRoutes.updateMaintenanceWindow)
  update(@Param('id') id: string, @Body() changes: MaintenanceWindowUpdate): Promise<MaintenanceWindow> {
    return this.rpc.send(messages.inventory.updateMaintenanceWindow, { id, changes });
  }

  @ApiRoute(apiRoutes.deleteMaintenanceWindow)
  async delete(@Param('id') id: string): Promise<void> {
    await this.rpc.send(messages.inventory.deleteMaintenanceWindow, { id });
  }
}
