import {
  apiRoutes,
  messages,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  type ScheduleLocation,
  type ScheduleOccurrence,
  type ScheduleSource,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { type Request } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { ScheduleFileService } from './schedule-file.service';

/** Class schedules: their sources, files, locations, and a room's classes (inventory owns them). */
@Controller()
export class SchedulesController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly files: ScheduleFileService,
  ) {}

  @ApiRoute(apiRoutes.listScheduleSources)
  list(): Promise<ScheduleSource[]> {
    return this.rpc.send(messages.inventory.listScheduleSources);
  }

  @ApiRoute(apiRoutes.createScheduleSource)
  create(@Body() source: RouteBody<typeof apiRoutes.createScheduleSource>): Promise<ScheduleSource> {
    return this.rpc.send(messages.inventory.createScheduleSource, source);
  }

  @ApiRoute(apiRoutes.updateScheduleSource)
  update(
    @Param() { id }: RouteParams<typeof apiRoutes.updateScheduleSource>,
    @Body() changes: RouteBody<typeof apiRoutes.updateScheduleSource>,
  ): Promise<ScheduleSource> {
    return this.rpc.send(messages.inventory.updateScheduleSource, { id, changes });
  }

  @ApiRoute(apiRoutes.deleteScheduleSource)
  async delete(@Param() { id }: RouteParams<typeof apiRoutes.deleteScheduleSource>): Promise<void> {
    await this.rpc.send(messages.inventory.deleteScheduleSource, { id });
  }

  @ApiRoute(apiRoutes.uploadScheduleFile)
  upload(
    @Req() req: Request,
    @Param() { id }: RouteParams<typeof apiRoutes.uploadScheduleFile>,
  ): Promise<ScheduleSource> {
    return this.files.upload(req, id);
  }

  @ApiRoute(apiRoutes.listScheduleLocations)
  locations(@Query() query: RouteQuery<typeof apiRoutes.listScheduleLocations>): Promise<ScheduleLocation[]> {
    return this.rpc.send(messages.inventory.listScheduleLocations, query);
  }

  @ApiRoute(apiRoutes.mapScheduleLocation)
  map(@Body() mapping: RouteBody<typeof apiRoutes.mapScheduleLocation>): Promise<ScheduleLocation> {
    return this.rpc.send(messages.inventory.mapScheduleLocation, mapping);
  }

  @ApiRoute(apiRoutes.roomSchedule)
  roomSchedule(
    @Param() { id }: RouteParams<typeof apiRoutes.roomSchedule>,
    @Query() query: RouteQuery<typeof apiRoutes.roomSchedule>,
  ): Promise<ScheduleOccurrence[]> {
    return this.rpc.send(messages.inventory.roomSchedule, { roomId: id, ...query });
  }

  @ApiRoute(apiRoutes.buildingClasses)
  buildingClasses(
    @Param() { id }: RouteParams<typeof apiRoutes.buildingClasses>,
    @Query() query: RouteQuery<typeof apiRoutes.buildingClasses>,
  ): Promise<ScheduleOccurrence[]> {
    return this.rpc.send(messages.inventory.buildingClasses, { buildingId: id, ...query });
  }
}
