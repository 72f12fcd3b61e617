import {
  apiRoutes,
  type BuildingQuietHours,
  type Channel,
  type ChannelCreated,
  type ChannelTestResult,
  type ChannelTypeAvailability,
  type DeliveryPage,
  messages,
  type OpenAlert,
  type PublicChannel,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  type User,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Param, Query } from '@nestjs/common';
import { CurrentUser } from '../identity/current-user';
import { ApiRoute } from '../http/api-route.decorator';

@Controller()
export class NotificationsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute(apiRoutes.channelTypes)
  types(): Promise<ChannelTypeAvailability[]> {
    return this.rpc.send(messages.inventory.channelTypes);
  }

  /**
   * A webhook URL is a credential: administrators read it, everyone else the host alone; a
   * service desk's integration user likewise.
   */
  @ApiRoute(apiRoutes.listChannels)
  async list(@CurrentUser() user: User): Promise<Channel[] | PublicChannel[]> {
    const channels = await this.rpc.send(messages.inventory.listChannels);
    // Left out rather than parsed: a channel from an inventory replica not yet upgraded has no host.
    return user.role === 'admin'
      ? channels
      : channels.map(({ url: _url, username: _username, ...shown }) => shown);
  }

  @ApiRoute(apiRoutes.createChannel)
  create(@Body() channel: RouteBody<typeof apiRoutes.createChannel>): Promise<ChannelCreated> {
    return this.rpc.send(messages.inventory.createChannel, channel);
  }

  @ApiRoute(apiRoutes.updateChannel)
  update(
    @Param() { id }: RouteParams<typeof apiRoutes.updateChannel>,
    @Body() changes: RouteBody<typeof apiRoutes.updateChannel>,
  ): Promise<Channel> {
    return this.rpc.send(messages.inventory.updateChannel, { id, changes });
  }

  @ApiRoute(apiRoutes.deleteChannel)
  async delete(@Param() { id }: RouteParams<typeof apiRoutes.deleteChannel>): Promise<void> {
    await this.rpc.send(messages.inventory.deleteChannel, { id });
  }

  @ApiRoute(apiRoutes.testChannel)
  test(@Param() { id }: RouteParams<typeof apiRoutes.testChannel>): Promise<ChannelTestResult> {
    return this.rpc.send(messages.inventory.testChannel, { id });
  }

  @ApiRoute(apiRoutes.rotateChannelSecret)
  rotateSecret(@Param() { id }: RouteParams<typeof apiRoutes.rotateChannelSecret>): Promise<ChannelCreated> {
    return this.rpc.send(messages.inventory.rotateChannelSecret, { id });
  }

  @ApiRoute(apiRoutes.listDeliveries)
  deliveries(@Query() query: RouteQuery<typeof apiRoutes.listDeliveries>): Promise<DeliveryPage> {
    return this.rpc.send(messages.inventory.listDeliveries, query);
  }

  @ApiRoute(apiRoutes.listOpenAlerts)
  openAlerts(@Query() query: RouteQuery<typeof apiRoutes.listOpenAlerts>): Promise<OpenAlert[]> {
    return this.rpc.send(messages.inventory.listOpenAlerts, query);
  }

  @ApiRoute(apiRoutes.getQuietHours)
  quietHours(
    @Param() { buildingId }: RouteParams<typeof apiRoutes.getQuietHours>,
  ): Promise<BuildingQuietHours> {
    return this.rpc.send(messages.inventory.getQuietHours, { buildingId });
  }

  @ApiRoute(apiRoutes.setQuietHours)
  setQuietHours(
    @Param() { buildingId }: RouteParams<typeof apiRoutes.setQuietHours>,
    @Body() quietHours: RouteBody<typeof apiRoutes.setQuietHours>,
  ): Promise<BuildingQuietHours> {
    return this.rpc.send(messages.inventory.setQuietHours, { buildingId, quietHours });
  }

  @ApiRoute(apiRoutes.clearQuietHours)
  clearQuietHours(
    @Param() { buildingId }: RouteParams<typeof apiRoutes.clearQuietHours>,
  ): Promise<BuildingQuietHours> {
    return this.rpc.send(messages.inventory.setQuietHours, { buildingId, quietHours: null });
  }
}
