import { messages, type OidcCompleteMessage } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { SingleSignOnService } from './single-sign-on.service';

@Controller()
export class SingleSignOnMessageController {
  constructor(private readonly singleSignOn: SingleSignOnService) {}

  @HandleMessage(messages.auth.signInOptions)
  options() {
    return this.singleSignOn.options();
  }

  @HandleMessage(messages.auth.oidcBegin)
  begin(dto: { redirectUri: string }) {
    return this.singleSignOn.begin(dto.redirectUri);
  }

  @HandleMessage(messages.auth.oidcComplete)
  complete(dto: OidcCompleteMessage) {
    return this.singleSignOn.complete(dto);
  }
}
