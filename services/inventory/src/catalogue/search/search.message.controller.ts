import { type MessagePayload, messages } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { SearchService } from './search.service';

@Controller()
export class SearchMessageController {
  constructor(private readonly searchService: SearchService) {}

  @HandleMessage(messages.inventory.search)
  search(request: MessagePayload<typeof messages.inventory.search>) {
    return this.searchService.search(request);
  }
}
