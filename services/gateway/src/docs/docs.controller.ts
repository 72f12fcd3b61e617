import { apiRoutes } from '@cm/contracts';
import { Controller } from '@nestjs/common';
import { ApiRoute } from '../http/api-route.decorator';
import { buildOpenApiDocument } from './openapi';

@Controller()
export class DocsController {
  private readonly document = buildOpenApiDocument();

  @ApiRoute(apiRoutes.docs)
  openApi() {
    return this.document;
  }
}
