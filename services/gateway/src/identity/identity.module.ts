import { Module } from '@nestjs/common';
import { SessionUsers } from './session-users';

/** Who is calling: the signed-in users kept for their sessions and tokens, as auth last told. */
@Module({
  providers: [SessionUsers],
  exports: [SessionUsers],
})
export class IdentityModule {}
