import {
  type BuildingClassesRequest,
  deleted,
  messages,
  type RoomScheduleRequest,
  type ScheduleFileMessage,
  type ScheduleLocationMapping,
  type ScheduleLocationQuery,
  type ScheduleSourceInput,
  type ScheduleSourceUpdateMessage,
} from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { ScheduleSourcesService } from './schedule-sources.service';

@Controller()
export class SchedulesMessageController {
  constructor(private readonly schedules: ScheduleSourcesService) {}

  @HandleMessage(messages.inventory.listScheduleSources)
  list() {
    return this.schedules.list();
  }

  @HandleMessage(messages.inventory.getScheduleSource)
  get({ id }: { id: string }) {
    return this.schedules.get(id);
  }

  @HandleMessage(messages.inventory.createScheduleSource)
  create(input: ScheduleSourceInput) {
    return this.schedules.create(input);
  }

  @HandleMessage(messages.inventory.updateScheduleSource)
  update({ id, changes }: ScheduleSourceUpdateMessage) {
    return this.schedules.update(id, changes);
  }

  @HandleMessage(messages.inventory.deleteScheduleSource)
  async delete({ id }: { id: string }) {
    await this.schedules.delete(id);
    return deleted;
  }

  @HandleMessage(messages.inventory.uploadScheduleFile)
  uploadFile(file: ScheduleFileMessage) {
    return this.schedules.uploadFile(file);
  }

  @HandleMessage(messages.inventory.listScheduleLocations)
  locations(query: ScheduleLocationQuery) {
    return this.schedules.locations(query);
  }

  @HandleMessage(messages.inventory.mapScheduleLocation)
  map(mapping: ScheduleLocationMapping) {
    return this.schedules.map(mapping);
  }

  @HandleMessage(messages.inventory.roomSchedule)
  roomSchedule(request: RoomScheduleRequest) {
    return this.schedules.roomSchedule(request);
  }

  @HandleMessage(messages.inventory.buildingClasses)
  buildingClasses(request: BuildingClassesRequest) {
    return this.schedules.buildingClasses(request);
  }
}
