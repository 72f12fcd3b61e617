import { type User } from '@cm/contracts';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** `apiTokenId`: the request came with that API token instead of a session. */
export type SignedInRequest = Request & { user?: User; apiTokenId?: string };

/** The signed-in user, as the access guard read it for this request. */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): User => {
  const user = context.switchToHttp().getRequest<SignedInRequest>().user;
  if (!user) throw new Error('CurrentUser used on a route the access guard lets anyone call');
  return user;
});
