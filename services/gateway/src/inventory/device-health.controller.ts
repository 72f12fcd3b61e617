import {
  apiRoutes,
  consumablesCsvFileName,
  consumablesCsvHeader,
  consumablesCsvLine,
  type Fleet,
  messages,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Controller, Res } from '@nestjs/common';
import { type Response } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { pagedCsv, streamCsv } from './csv-response';

/** A page of 200 devices, each up to 8 lamps and a filter, stays well under NATS's 1 MB reply. */
const CONSUMABLES_PAGE = 200;

/** Device health beyond ping: the consumables report and the fleet view, from inventory. */
@Controller()
export class DeviceHealthController {
  constructor(private readonly rpc: RpcClient) {}

  /** Streamed as inventory's pages arrive, like the uptime report. */
  @ApiRoute(apiRoutes.consumablesReportCsv)
  async consumablesCsv(@Res() res: Response): Promise<void> {
    const lines = await pagedCsv(consumablesCsvHeader, consumablesCsvLine, (after?: string) =>
      this.rpc.send(messages.inventory.consumables, { after, limit: CONSUMABLES_PAGE }),
    );
    await streamCsv(res, consumablesCsvFileName(new Date()), lines);
  }

  @ApiRoute(apiRoutes.fleet)
  fleet(): Promise<Fleet> {
    return this.rpc.send(messages.inventory.fleet);
  }
}
