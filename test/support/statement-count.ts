/**
 * The statements a request sends to its workspace database, recorded at the driver: through the
 * pool and inside transactions. The seam the one-round-trip and the event-capture tests count with.
 */
import type { CompiledSql } from '../../core/sql.ts';
import type { Executor, QueryOptions } from '../../dialects/dialect.ts';
import type { ApiResponse, TestWorkspace } from './harness.ts';

export interface Counted {
  readonly res: ApiResponse;
  /** Statements sent through the pool or inside a transaction, in order. */
  readonly statements: string[];
  readonly transactions: number;
}

/** Runs `call` with the workspace driver's statements recorded, then puts the driver back. */
export async function counting(ws: TestWorkspace, call: () => Promise<ApiResponse>): Promise<Counted> {
  const runtime = await ws.service.services.workspaces.bySlug(ws.org, ws.ws);
  const driver = runtime.driver;
  const { query, transaction } = driver;
  const statements: string[] = [];
  let transactions = 0;
  const record = (inner: Executor['query']): Executor['query'] => async (statement: CompiledSql, options?: QueryOptions) => {
    statements.push(statement.text);
    return inner(statement, options);
  };
  driver.query = record(query.bind(driver));
  driver.transaction = async <T>(work: (tx: Executor) => Promise<T>): Promise<T> => {
    transactions += 1;
    return transaction.call(driver, (tx: Executor) => work({ query: record(tx.query.bind(tx)) })) as Promise<T>;
  };
  try {
    return { res: await call(), statements, transactions };
  } finally {
    driver.query = query;
    driver.transaction = transaction;
  }
}
