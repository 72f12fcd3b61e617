import { randomBytes } from 'node:crypto';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { type Config } from '../config';
import { PasswordHasher } from './password-hasher';
import { UserRepository } from './user.repository';

/** A fresh install has no users: create the first administrator so someone can sign in. */
@Injectable()
export class AdminBootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger(AdminBootstrapService.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const generated = !this.config.ADMIN_PASSWORD;
    const password = this.config.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
    const created = await this.users.createFirstAdmin(
      this.config.ADMIN_USERNAME,
      await this.hasher.hash(password),
    );
    if (!created) return;
    if (generated) {
      // Printed once, here: it is stored only as a hash.
      this.logger.warn(
        `Created administrator "${created.username}" with the generated password ${password} ` +
          '(shown only now: sign in and change it, or set ADMIN_PASSWORD before the first start)',
      );
    } else {
      this.logger.log(`Created administrator "${created.username}" from ADMIN_USERNAME and ADMIN_PASSWORD`);
    }
  }
}
