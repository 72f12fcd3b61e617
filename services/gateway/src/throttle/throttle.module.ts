import { Module } from '@nestjs/common';
import { DeviceCookies } from './device-cookie';
import { LoginAttemptRepository } from './login-attempt.repository';
import { LOGIN_CLOCK, loginClockProvider, LoginThrottle } from './login-throttle.service';
import { ThrottledAttempts } from './throttled-attempts';

/** The brake on guessing: sign-in, two-factor codes and API tokens all count their failures here. */
@Module({
  providers: [LoginAttemptRepository, DeviceCookies, LoginThrottle, loginClockProvider, ThrottledAttempts],
  // The clock too: two-factor challenges expire by the same one the throttle counts by.
  exports: [DeviceCookies, LoginThrottle, ThrottledAttempts, LOGIN_CLOCK],
})
export class ThrottleModule {}
