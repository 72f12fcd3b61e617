import { apiRoutes } from '@cm/contracts';
import { Controller, Res } from '@nestjs/common';
import { type Response } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { buildOpenApiDocument } from './openapi';
import { referencePage, referencePagePolicy, referenceScriptPath } from './reference-page';

@Controller()
export class DocsController {
  private readonly document = buildOpenApiDocument();

  @ApiRoute(apiRoutes.docs)
  openApi() {
    return this.document;
  }

  @ApiRoute(apiRoutes.openApiDocument)
  openApiDocument() {
    return this.document;
  }

  @ApiRoute(apiRoutes.apiReference)
  reference(@Res() res: Response): void {
    res.setHeader('Content-Security-Policy', referencePagePolicy);
    res.type('html').send(referencePage);
  }

  @ApiRoute(apiRoutes.apiReferenceScript)
  referenceScript(@Res() res: Response): void {
    // The renderer changes only with the installed package: a day in the browser's cache is safe.
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.sendFile(referenceScriptPath, { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
  }
}
