import {
  type ChannelCreate,
  type ChannelUpdateMessage,
  deleted,
  type DeliveryQuery,
  messages,
} from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { NotificationsService } from './notifications.service';

@Controller()
export class NotificationsMessageController {
  constructor(private readonly notifications: NotificationsService) {}

  @HandleMessage(messages.inventory.channelTypes)
  types() {
    return this.notifications.types();
  }

  @HandleMessage(messages.inventory.listChannels)
  list() {
    return this.notifications.list();
  }

  @HandleMessage(messages.inventory.createChannel)
  create(channel: ChannelCreate) {
    return this.notifications.create(channel);
  }

  @HandleMessage(messages.inventory.updateChannel)
  update({ id, changes }: ChannelUpdateMessage) {
    return this.notifications.update(id, changes);
  }

  @HandleMessage(messages.inventory.deleteChannel)
  async delete({ id }: { id: string }) {
    await this.notifications.delete(id);
    return deleted;
  }

  @HandleMessage(messages.inventory.testChannel)
  test({ id }: { id: string }) {
    return this.notifications.test(id);
  }

  @HandleMessage(messages.inventory.rotateChannelSecret)
  rotateSecret({ id }: { id: string }) {
    return this.notifications.rotateSecret(id);
  }

  @HandleMessage(messages.inventory.listDeliveries)
  listDeliveries(query: DeliveryQuery) {
    return this.notifications.listDeliveries(query);
  }
}
