import {
  apiRoutes,
  type ApiToken,
  type ApiTokenCreated,
  type RouteBody,
  type RouteParams,
  type User,
} from '@cm/contracts';
import { Body, Controller, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentUser } from '../identity/current-user';
import { ApiRoute } from '../http/api-route.decorator';
import { ApiTokens } from './api-tokens.service';

/** The signed-in person's API tokens; the access guard refuses a bearer token on these routes. */
@Controller()
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokens) {}

  @ApiRoute(apiRoutes.listApiTokens)
  list(@CurrentUser() user: User): Promise<ApiToken[]> {
    return this.tokens.list(user);
  }

  @ApiRoute(apiRoutes.createApiToken)
  create(
    @Body() body: RouteBody<typeof apiRoutes.createApiToken>,
    @CurrentUser() user: User,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ApiTokenCreated> {
    return this.tokens.create(user, body, req, res);
  }

  @ApiRoute(apiRoutes.deleteApiToken)
  revoke(
    @Param() { id }: RouteParams<typeof apiRoutes.deleteApiToken>,
    @CurrentUser() user: User,
  ): Promise<void> {
    return this.tokens.revoke(user, id);
  }
}
