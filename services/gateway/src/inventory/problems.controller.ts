import { apiRoutes, messages, type Problems } from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { ApiRoute } from '../http/api-route.decorator';

@Controller()
export class ProblemsController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute(apiRoutes.listProblems)
  list(): Promise<Problems> {
    return this.rpc.send(messages.inventory.listProblems);
  }
}
