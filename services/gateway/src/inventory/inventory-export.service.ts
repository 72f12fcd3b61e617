import { inventoryCsvHeader, inventoryCsvLine, messages } from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { pagedCsv } from './csv-response';

/** A page of 500 lines stays well under NATS's 1 MB message limit, whatever the notes hold. */
const PAGE_SIZE = 500;

/** The inventory CSV (docs/csv-format.md), streamed as inventory's pages arrive. */
@Injectable()
export class InventoryExportService {
  constructor(private readonly rpc: RpcClient) {}

  csv(): Promise<AsyncIterable<string>> {
    return pagedCsv(inventoryCsvHeader, inventoryCsvLine, async (after?: string[]) => {
      const { rows, nextCursor } = await this.rpc.send(messages.inventory.exportPage, {
        after,
        limit: PAGE_SIZE,
      });
      return { items: rows, nextCursor };
    });
  }
}
