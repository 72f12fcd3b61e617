import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The delivery log once kept up to 200 characters of what a receiver answered with an error
 * status: whatever a URL pointed at (an inside service, a metadata endpoint) could be read back
 * through it. Those errors keep their status alone, as new ones are written.
 */
export class DeliveryErrorsWithoutAnswers1764610000000 implements MigrationInterface {
  name = 'DeliveryErrorsWithoutAnswers1764610000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    // The earliest match is the sender's own words: the answer came after them.
    await queryRunner.query(`
      UPDATE ${s}.deliveries
         SET last_error = substring(last_error from '^(.+? answered HTTP [0-9]{3})')
       WHERE last_error ~ '^.+? answered HTTP [0-9]{3}.'`);
  }

  async down(): Promise<void> {
    // What was removed is gone, as it should be.
  }
}
