import { apiRoutes, type ImportAnswer, inventoryExportFileName, type RouteQuery } from '@cm/contracts';
import { Controller, Query, Req, Res } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { streamCsv } from './csv-response';
import { InventoryExportService } from './inventory-export.service';
import { InventoryImportService } from './inventory-import.service';

@Controller()
export class InventoryCsvController {
  constructor(
    private readonly exports: InventoryExportService,
    private readonly imports: InventoryImportService,
  ) {}

  /** Streamed as inventory's pages arrive: the server never holds a campus at once. */
  @ApiRoute(apiRoutes.exportInventory)
  async export(@Res() res: Response): Promise<void> {
    await streamCsv(res, inventoryExportFileName(new Date()), await this.exports.csv());
  }

  @ApiRoute(apiRoutes.importInventory)
  import(
    @Req() req: Request,
    @Query() query: RouteQuery<typeof apiRoutes.importInventory>,
  ): Promise<ImportAnswer> {
    return this.imports.import(req, query.dryRun);
  }
}
