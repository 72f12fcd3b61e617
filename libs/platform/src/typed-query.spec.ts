import { execute, poolRunner, queryChanged, queryRow, queryRows, type SqlRunner } from './typed-query';

/** A runner that answers as TypeORM's PostgreSQL driver does: rows, or [rows, count] for UPDATE/DELETE. */
const answering = (answer: unknown): SqlRunner & { calls: unknown[][] } => {
  const calls: unknown[][] = [];
  return { calls, query: async (sql, parameters) => (calls.push([sql, parameters]), answer) };
};

describe(queryRows.name, () => {
  it('answers the rows and passes the statement through', async () => {
    const db = answering([{ id: 'a' }, { id: 'b' }]);
    await expect(queryRows<{ id: string }>(db, 'SELECT id FROM t WHERE x = $1', [1])).resolves.toEqual([
      { id: 'a' },
      { id: 'b' },
    ]);
    expect(db.calls).toEqual([['SELECT id FROM t WHERE x = $1', [1]]]);
  });

  it('refuses the answer of an UPDATE or DELETE', async () => {
    await expect(queryRows(answering([[{ id: 'a' }], 1]), 'UPDATE t SET x = 1 RETURNING id')).rejects.toThrow(
      /queryChanged/,
    );
  });
});

describe(queryRow.name, () => {
  it('answers the first row, or null', async () => {
    await expect(queryRow(answering([{ n: 1 }, { n: 2 }]), 'SELECT n')).resolves.toEqual({ n: 1 });
    await expect(queryRow(answering([]), 'SELECT n')).resolves.toBeNull();
  });
});

describe(queryChanged.name, () => {
  it('answers the returned rows and the count', async () => {
    await expect(queryChanged(answering([[{ id: 'a' }], 3]), 'UPDATE t SET x = 1')).resolves.toEqual({
      rows: [{ id: 'a' }],
      count: 3,
    });
  });

  it('refuses the rows of a SELECT', async () => {
    await expect(queryChanged(answering([{ id: 'a' }]), 'SELECT id FROM t')).rejects.toThrow(/queryRows/);
  });
});

describe(execute.name, () => {
  it('runs the statement and answers nothing', async () => {
    const db = answering([[], 2]);
    await expect(execute(db, 'DELETE FROM t', [])).resolves.toBeUndefined();
    expect(db.calls).toHaveLength(1);
  });
});

describe(poolRunner.name, () => {
  const pool = (command: string) => ({
    query: async () => ({ command, rows: [{ id: 'a' }], rowCount: 1 }),
  });

  it('answers rows for a SELECT or INSERT and the changed pair for an UPDATE or DELETE', async () => {
    await expect(queryRows(poolRunner(pool('SELECT')), 'SELECT id FROM t')).resolves.toEqual([{ id: 'a' }]);
    await expect(queryRows(poolRunner(pool('INSERT')), 'INSERT INTO t … RETURNING id')).resolves.toEqual([
      { id: 'a' },
    ]);
    await expect(queryChanged(poolRunner(pool('DELETE')), 'DELETE FROM t')).resolves.toEqual({
      rows: [{ id: 'a' }],
      count: 1,
    });
  });
});
