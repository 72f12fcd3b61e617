/*
 * Raw SQL with typed answers. TypeORM's `query` answers `any`, shaped by the statement: rows for a
 * SELECT or INSERT, a `[rows, count]` pair for an UPDATE or DELETE. These functions name the shape
 * and the row type once, where the SQL is written: `R` is an interface of the row as the SQL's
 * column list spells it. The rows are not checked at run time (the status batch reads tens of
 * thousands per sweep); the integration tests run every statement against PostgreSQL. Only the
 * shape is checked, which costs nothing per row and catches a statement passed to the wrong one.
 * See docs/architecture.md, "Data access".
 */

/** What runs SQL: a data source, or the manager of a transaction under way. */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

const isChangedPair = (answer: unknown): answer is [unknown[], number] =>
  Array.isArray(answer) && answer.length === 2 && Array.isArray(answer[0]) && typeof answer[1] === 'number';

/** The rows of a statement that answers rows: a SELECT, an INSERT (… RETURNING), a WITH ending in one. */
export async function queryRows<R>(
  db: SqlRunner,
  sql: string,
  parameters?: readonly unknown[],
): Promise<R[]> {
  const answer = await db.query(sql, parameters as unknown[]);
  if (!Array.isArray(answer) || isChangedPair(answer)) {
    throw new Error('queryRows() answers rows; an UPDATE or DELETE goes through queryChanged()');
  }
  return answer as R[];
}

/** The first row of `queryRows`, or null when there is none. */
export async function queryRow<R>(
  db: SqlRunner,
  sql: string,
  parameters?: readonly unknown[],
): Promise<R | null> {
  return (await queryRows<R>(db, sql, parameters))[0] ?? null;
}

/** An UPDATE or DELETE (a WITH ending in one): the rows it returns and how many rows it touched. */
export async function queryChanged<R = never>(
  db: SqlRunner,
  sql: string,
  parameters?: readonly unknown[],
): Promise<{ rows: R[]; count: number }> {
  const answer = await db.query(sql, parameters as unknown[]);
  if (!isChangedPair(answer)) {
    throw new Error('queryChanged() is for an UPDATE or DELETE; rows go through queryRows()');
  }
  return { rows: answer[0] as R[], count: answer[1] };
}

/** A statement whose answer is not read (an INSERT without RETURNING, a write of a batch). */
export async function execute(db: SqlRunner, sql: string, parameters?: readonly unknown[]): Promise<void> {
  await db.query(sql, parameters as unknown[]);
}

/** What node-postgres answers a statement with (a `Pool` or a `PoolClient`). */
interface PgQueryable {
  query(
    sql: string,
    parameters?: unknown[],
  ): Promise<{ command: string; rows: unknown[]; rowCount: number | null }>;
}

/**
 * A node-postgres pool as a runner answering as TypeORM does, for what keeps a pool of its own
 * beside the data source (the gateway's sessions): the same functions then type its rows.
 */
export const poolRunner = (pool: PgQueryable): SqlRunner => ({
  async query(sql, parameters) {
    const result = await pool.query(sql, parameters);
    const changed = result.command === 'UPDATE' || result.command === 'DELETE';
    return changed ? [result.rows, result.rowCount ?? 0] : result.rows;
  },
});
