/** Every error kind, provoked by a real statement on a real server and mapped by the dialect. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbError, Executor } from '../../../dialects/dialect.ts';
import { mapMysqlError } from '../../../dialects/mysql/index.ts';
import { MYSQL_ADMIN_URL } from '../../support/mysql-target.ts';
import { dialect, mysqlAvailable, openTestDatabase, type TestDatabase } from './mysql-setup.ts';

const available = await mysqlAvailable();

async function failure(db: Executor, text: string, params: unknown[] = []): Promise<DbError | null> {
  try {
    await db.query({ text, params });
  } catch (error) {
    return dialect.errors(error);
  }
  throw new Error(`expected '${text}' to fail`);
}

describe.skipIf(!available)('mysql error mapping', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
    await db.query('CREATE TABLE checked (id int PRIMARY KEY, v int NULL, CONSTRAINT checked_v_positive CHECK (v > 0)) ENGINE=InnoDB');
    await db.query('CREATE TABLE locks (id int PRIMARY KEY, v int NOT NULL) ENGINE=InnoDB');
    await db.query('INSERT INTO locks VALUES (1, 0), (2, 0)');
  });
  afterAll(async () => db?.close());

  it('unique violations name the key', async () => {
    expect(await failure(db.driver, 'INSERT INTO customers (name, email) VALUES (?, ?)', ['X', 'user1@example.com'])).toEqual({ kind: 'unique_violation', constraint: 'customers_email_key' });
    expect(await failure(db.driver, "INSERT INTO regions (id, name) VALUES (1, 'Dup')")).toEqual({ kind: 'unique_violation', constraint: 'PRIMARY' });
  });

  it('foreign key violations, child and parent side, name the constraint', async () => {
    expect(await failure(db.driver, 'INSERT INTO orders (customer_id, amount, ordered_at) VALUES (?, 1, NOW())', [999])).toEqual({
      kind: 'foreign_key_violation', constraint: 'orders_customer_id_fkey', column: 'customer_id',
    });
    expect(await failure(db.driver, 'DELETE FROM customers WHERE id = ?', [1])).toMatchObject({ kind: 'foreign_key_violation', constraint: 'orders_customer_id_fkey' });
  });

  it('not-null violations name the column (explicit NULL and a missing value)', async () => {
    expect(await failure(db.driver, 'INSERT INTO regions (name) VALUES (?)', [null])).toEqual({ kind: 'not_null_violation', column: 'name' });
    expect(await failure(db.driver, 'INSERT INTO products (sku, price) VALUES (?, ?)', ['S-1', '1.00'])).toEqual({ kind: 'not_null_violation', column: 'name' });
  });

  it('bad values are invalid_value with the column: too long, out of range, bad date, bad number', async () => {
    expect(await failure(db.driver, 'INSERT INTO regions (name) VALUES (?)', ['x'.repeat(51)])).toEqual({ kind: 'invalid_value', column: 'name' });
    expect(await failure(db.driver, 'UPDATE orders SET quantity = ? WHERE id = 1', ['99999999999'])).toEqual({ kind: 'invalid_value', column: 'quantity' });
    expect(await failure(db.driver, 'UPDATE customers SET birth_date = ? WHERE id = 1', ['2020-13-45'])).toEqual({ kind: 'invalid_value', column: 'birth_date' });
    expect(await failure(db.driver, 'UPDATE orders SET quantity = ? WHERE id = 1', ['abc'])).toEqual({ kind: 'invalid_value', column: 'quantity' });
  });

  it('check violations name the constraint', async () => {
    expect(await failure(db.driver, 'INSERT INTO checked VALUES (1, ?)', [-1])).toEqual({ kind: 'check_violation', constraint: 'checked_v_positive' });
  });

  it('unknown columns and functions', async () => {
    expect(await failure(db.driver, 'SELECT nope FROM regions')).toEqual({ kind: 'undefined_column', column: 'nope' });
    expect(await failure(db.driver, 'SELECT no_such_function(1)')).toEqual({ kind: 'undefined_function' });
  });

  it('a missing column keeps its qualifier; a missing table is named with its database', async () => {
    expect(await failure(db.driver, 'SELECT t0.nope FROM regions t0')).toEqual({ kind: 'undefined_column', column: 't0.nope' });
    const missing = await failure(db.driver, 'DELETE FROM gone WHERE id = 1');
    expect(missing).toMatchObject({ kind: 'undefined_table' });
    expect(missing?.table).toMatch(/\.gone$/);
  });

  it('division by zero in a write under ERROR_FOR_DIVISION_BY_ZERO', async () => {
    const mode = String((await db.driver.query({ text: 'SELECT @@session.sql_mode AS m', params: [] })).rows[0]?.m);
    if (!mode.includes('ERROR_FOR_DIVISION_BY_ZERO')) return;
    expect(await failure(db.driver, 'UPDATE orders SET quantity = 1 / ? WHERE id = 1', [0])).toEqual({ kind: 'division_by_zero' });
  });

  it('a real deadlock between two transactions is a deadlock', async () => {
    let release!: () => void;
    const bothLocked = new Promise<void>((resolve) => (release = resolve));
    let locked = 0;
    const lockedOne = () => {
      locked += 1;
      if (locked === 2) release();
    };
    const worker = (first: number, second: number) =>
      db.driver.transaction(async (tx) => {
        await tx.query({ text: 'UPDATE locks SET v = v + 1 WHERE id = ?', params: [first] });
        lockedOne();
        await bothLocked;
        await tx.query({ text: 'UPDATE locks SET v = v + 1 WHERE id = ?', params: [second] });
      });
    const results = await Promise.allSettled([worker(1, 2), worker(2, 1)]);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(dialect.errors(rejected[0]?.reason)).toEqual({ kind: 'deadlock' });
  });

  it('a killed session and an unreachable server are connection_lost', async () => {
    const error = await db.driver
      .transaction(async (tx) => {
        const id = (await tx.query({ text: 'SELECT CONNECTION_ID() AS id', params: [] })).rows[0]?.id;
        await db.query(`KILL CONNECTION ${Number(id)}`);
        await tx.query({ text: 'SELECT 1', params: [] });
      })
      .catch((e: unknown) => e);
    expect(dialect.errors(error)).toEqual({ kind: 'connection_lost' });
    // The pool replaces the dead connection.
    await db.driver.ping();
    const url = new URL(MYSQL_ADMIN_URL);
    url.port = '1';
    const dead = await dialect.connect({ vendor: 'mysql', url: url.toString() });
    const refused = await dead.query({ text: 'SELECT 1', params: [] }).catch((e: unknown) => e);
    await dead.close();
    expect(dialect.errors(refused)).toEqual({ kind: 'connection_lost', connection: 'connection_refused' });
  });

  it('maps messages of MySQL 8 too (table-qualified key names)', () => {
    expect(mapMysqlError({ errno: 1062, code: 'ER_DUP_ENTRY', sqlMessage: "Duplicate entry 'a@b' for key 'customers.customers_email_key'" })).toEqual({
      kind: 'unique_violation', constraint: 'customers_email_key',
    });
    expect(mapMysqlError({ errno: 3819, sqlMessage: "Check constraint 'checked_v_positive' is violated." })).toEqual({ kind: 'check_violation', constraint: 'checked_v_positive' });
    expect(mapMysqlError({ errno: 1366, sqlMessage: "Incorrect integer value: 'abc' for column 'quantity' at row 1" })).toEqual({ kind: 'invalid_value', column: 'quantity' });
    expect(mapMysqlError({ code: 'PROTOCOL_CONNECTION_LOST' })).toEqual({ kind: 'connection_lost' });
    expect(mapMysqlError({ errno: 1064, sqlMessage: 'You have an error in your SQL syntax' })).toBeNull();
    expect(mapMysqlError('nope')).toBeNull();
  });
});
