import { randomBytes } from 'node:crypto';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { type Config } from '../config';
import { passwordDestination, type PasswordDestination } from './first-admin-password';
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
    const username = this.config.ADMIN_USERNAME;
    if (this.config.ADMIN_PASSWORD) {
      const created = await this.users.createFirstAdmin(
        username,
        await this.hasher.hash(this.config.ADMIN_PASSWORD),
      );
      if (created)
        this.logger.log(`Created administrator "${created.username}" from ADMIN_USERNAME and ADMIN_PASSWORD`);
      return;
    }
    const password = randomBytes(18).toString('base64url');
    let destination: PasswordDestination | undefined;
    // Kept before the row commits: a password that could not be kept leaves no administrator
    // nobody can sign in as, and the next start tries again.
    const created = await this.users.createFirstAdmin(
      username,
      await this.hasher.hash(password),
      async () => {
        destination = passwordDestination(this.config);
        await destination.save(username, password);
      },
    );
    if (created && destination) {
      this.logger.warn(
        `Created administrator "${created.username}". The first administrator's password is in ` +
          `${destination.where}: sign in and change it`,
      );
    }
  }
}
