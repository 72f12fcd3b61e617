import {
  deleted,
  type MaintenanceWindowCreate,
  type MaintenanceWindowQuery,
  type MaintenanceWindowUpdateMessage,
  messages,
} from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { MaintenanceWindowsService } from './maintenance-windows.service';

@Controller()
export class MaintenanceWindowsMessageController {
  constructor(private readonly windows: MaintenanceWindowsService) {}

  @HandleMessage(messages.inventory.listMaintenanceWindows)
  list(query: MaintenanceWindowQuery) {
    return this.windows.list(query);
  }

  @HandleMessage(messages.inventory.getMaintenanceWindow)
  get({ id }: { id: string }) {
    return this.windows.get(id);
  }

  @HandleMessage(messages.inventory.createMaintenanceWindow)
  create(window: MaintenanceWindowCreate) {
    return this.windows.create(window);
  }

  @HandleMessage(messages.inventory.updateMaintenanceWindow)
  update({ id, changes }: MaintenanceWindowUpdateMessage) {
    return this.windows.update(id, changes);
  }

  @HandleMessage(messages.inventory.deleteMaintenanceWindow)
  async delete({ id }: { id: string }) {
    await this.windows.delete(id);
    return deleted;
  }
}
