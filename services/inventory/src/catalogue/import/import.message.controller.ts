import { type MessagePayload, messages } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { ImportService } from './import.service';

@Controller()
export class ImportMessageController {
  constructor(private readonly imports: ImportService) {}

  @HandleMessage(messages.inventory.exportPage)
  exportPage({ after, limit }: MessagePayload<typeof messages.inventory.exportPage>) {
    return this.imports.exportPage(after, limit);
  }

  @HandleMessage(messages.inventory.stageImport)
  stage({ importId, seq, rows }: MessagePayload<typeof messages.inventory.stageImport>) {
    return this.imports.stage(importId, seq, rows);
  }

  @HandleMessage(messages.inventory.runImport)
  run(run: MessagePayload<typeof messages.inventory.runImport>) {
    return this.imports.run(run);
  }
}
