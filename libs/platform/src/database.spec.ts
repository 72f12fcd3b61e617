import { type QueryRunner } from 'typeorm';
import { schemaNameOf, schemaOf, tableOf } from './database';

describe('schemaOf', () => {
  const dataSource = { options: { type: 'postgres', schema: 'cm_inventory' } };

  it('qualifies a table by the data source schema, quoted', () => {
    expect(schemaOf(dataSource)).toBe('"cm_inventory"');
    expect(tableOf(dataSource, 'buildings')).toBe('"cm_inventory".buildings');
  });

  it("reads a migration's query runner the same way", () => {
    const queryRunner = { connection: dataSource } as unknown as QueryRunner;
    expect(schemaOf(queryRunner)).toBe('"cm_inventory"');
    expect(schemaNameOf(queryRunner)).toBe('cm_inventory');
  });

  it('quotes a namespace that holds a double quote, so it cannot end the identifier', () => {
    expect(schemaOf({ options: { schema: 'odd"ns' } })).toBe('"odd""ns"');
  });

  it('refuses a data source with no schema rather than fall back to search_path', () => {
    expect(() => tableOf({ options: {} }, 'users')).toThrow('The data source has no schema set');
  });
});
