import {
  apiRoutes,
  type Channel,
  type ChannelCreate,
  type ChannelCreated,
  type ChannelTestResult,
  type DeliveryPage,
  type DeliveryQuery,
  messages,
  type BuildingQuietHours,
  type OpenAlert,
  type OpenAlertQuery,
  type PublicChannel,
  type QuietHours,
  type User,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Param, Query } from '@nestjs/common';
import { CurrentUser } from '../identity/current-user';
import { ApiRoute } from '../http/api-route.decorator';

@Controller()
export class NotificationsController {
  constructor(private readonly rpc: RpcClient) {}

  /** A webhook URL is a credential: administrators read it, everyone else the host alone. */
  @ApiRoute(apiRoutes.listChannels)
  async list(@CurrentUser() user: User): Promise<Channel[] | PublicChannel[]> {
    const channels = await this.rpc.send(messages.inventory.listChannels);
    // Left out rather than parsed: a channel from an inventory replica not yet upgraded has no host.
    return user.role === 'admin' ? channels : channels.map(({ url: _url, ...shown }) => shown);
  }

  @ApiRoute(apiRoutes.createChannel)
  create(@Body() channel: ChannelCreate): Promise<ChannelCreated> {
    return this.rpc.send(messages.inventory.createChannel, channel);
  }

  @ApiRoute(apiRoutes.updateChannel)
  update(@Param('id') id: string, @Body() changes: ChannelCreate): Promise<Channel> {
    return this.rpc.send(messages.inventory.updateChannel, { id, changes });
  }

  @ApiRoute(apiRoutes.deleteChannel)
  async delete(@Param('id') id: string): Promise<void> {
    await this.rpc.send(messages.inventory.deleteChannel, { id });
  }

  @ApiRoute(apiRoutes.testChannel)
  test(@Param('id') id: string): Promise<ChannelTestResult> {
    return this.rpc.send(messages.inventory.testChannel, { id });
  }

  @ApiRoute(apiRoutes.rotateChannelSecret)
  rotateSecret(@Param('id') id: string): Promise<ChannelCreated> {
    return this.rpc.send(messages.inventory.rotateChannelSecret, { id });
  }

  @ApiRoute(apiRoutes.listDeliveries)
  deliveries(@Query() query: DeliveryQuery): Promise<DeliveryPage> {
    return this.rpc.send(messages.inventory.listDeliveries, query);
  }

  @ApiRoute(apiRoutes.listOpenAlerts)
  openAlerts(@Query() query: OpenAlertQuery): Promise<OpenAlert[]> {
    return this.rpc.send(messages.inventory.listOpenAlerts, query);
  }

  @ApiRoute(apiRoutes.getQuietHours)
  quietHours(@Param('buildingId') buildingId: string): Promise<BuildingQuietHours> {
    return this.rpc.send(messages.inventory.getQuietHours, { buildingId });
  }

  @ApiRoute(apiRoutes.setQuietHours)
  setQuietHours(
    @Param('buildingId') buildingId: string,
    @Body() quietHours: QuietHours,
  ): Promise<BuildingQuietHours> {
    return this.rpc.send(messages.inventory.setQuietHours, { buildingId, quietHours });
  }

  @ApiRoute(apiRoutes.clearQuietHours)
  clearQuietHours(@Param('buildingId') buildingId: string): Promise<BuildingQuietHours> {
    return this.rpc.send(messages.inventory.setQuietHours, { buildingId, quietHours: null });
  }
}
