import { apiRoutes, messages, type RouteQuery, type SearchResult } from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Controller, Query } from '@nestjs/common';
import { ApiRoute } from '../http/api-route.decorator';

@Controller()
export class SearchController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute(apiRoutes.search)
  search(@Query() query: RouteQuery<typeof apiRoutes.search>): Promise<SearchResult> {
    return this.rpc.send(messages.inventory.search, query);
  }
}
