import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { UserEntity } from './user.entity';

@Injectable()
export class UserRepository {
  private readonly users: Repository<UserEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.users = dataSource.getRepository(UserEntity);
  }

  /**
   * Creates the first administrator only while the table is empty. The transaction-scoped
   * advisory lock keeps replicas that start together from creating two.
   */
  async createFirstAdmin(username: string, passwordHash: string): Promise<UserEntity | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('auth.first-admin'))");
      if ((await manager.count(UserEntity)) > 0) return null;
      return manager.save(manager.create(UserEntity, { username, passwordHash, role: 'admin', isActive: 1 }));
    });
  }

  count(): Promise<number> {
    return this.users.count();
  }
}
