/**
 * Error mapping with the driver's own error classes: mssql's RequestError built the way its
 * tedious driver builds one (an Error carrying tedious' `info` with the SQL Server number and
 * message), ConnectionError with its client codes, and the `precedingErrors` of a batch.
 * Messages are SQL Server's (sys.messages, English).
 */
import sql from 'mssql';
import { describe, expect, it } from 'vitest';
import { mapMssqlError } from '../../../dialects/mssql/index.ts';
import { missingObject, schemaOutOfSync } from '../../../core/workspace/schema-drift.ts';
import { dialect, fixtureModel } from './mssql-model.ts';

function serverError(number: number, message: string): sql.RequestError {
  return new sql.RequestError(Object.assign(new Error(message), { info: { number, message, state: 1, class: 16 } }) as never, 'EREQUEST');
}

const CASES: readonly (readonly [number, string, ReturnType<typeof mapMssqlError>])[] = [
  [2627, "Violation of UNIQUE KEY constraint 'customers_email_key'. Cannot insert duplicate key in object 'dbo.customers'. The duplicate key value is (user1@example.com).", { kind: 'unique_violation', constraint: 'customers_email_key' }],
  [2627, "Violation of PRIMARY KEY constraint 'regions_pkey'. Cannot insert duplicate key in object 'dbo.regions'. The duplicate key value is (1).", { kind: 'unique_violation', constraint: 'regions_pkey' }],
  [2601, "Cannot insert duplicate key row in object 'dbo.products' with unique index 'products_sku_idx'. The duplicate key value is (KB-01).", { kind: 'unique_violation', constraint: 'products_sku_idx' }],
  [547, 'The INSERT statement conflicted with the FOREIGN KEY constraint "orders_customer_id_fkey". The conflict occurred in database "shop", table "dbo.customers", column \'id\'.', { kind: 'foreign_key_violation', constraint: 'orders_customer_id_fkey' }],
  [547, 'The DELETE statement conflicted with the REFERENCE constraint "orders_customer_id_fkey". The conflict occurred in database "shop", table "dbo.orders", column \'customer_id\'.', { kind: 'foreign_key_violation', constraint: 'orders_customer_id_fkey' }],
  [547, 'The UPDATE statement conflicted with the CHECK constraint "products_price_check". The conflict occurred in database "shop", table "dbo.products", column \'price\'.', { kind: 'check_violation', constraint: 'products_price_check' }],
  [515, "Cannot insert the value NULL into column 'amount', table 'shop.dbo.orders'; column does not allow nulls. INSERT fails.", { kind: 'not_null_violation', column: 'amount' }],
  [2628, "String or binary data would be truncated in table 'shop.dbo.regions', column 'name'. Truncated value: 'xxxx'.", { kind: 'invalid_value', column: 'name' }],
  [8152, 'String or binary data would be truncated.', { kind: 'invalid_value' }],
  [245, "Conversion failed when converting the nvarchar value 'abc' to data type int.", { kind: 'invalid_value' }],
  [241, 'Conversion failed when converting date and/or time from character string.', { kind: 'invalid_value' }],
  [8114, 'Error converting data type nvarchar to numeric.', { kind: 'invalid_value' }],
  [8115, 'Arithmetic overflow error converting float to data type numeric.', { kind: 'invalid_value' }],
  [8134, 'Divide by zero error encountered.', { kind: 'division_by_zero' }],
  [207, "Invalid column name 'nope'.", { kind: 'undefined_column', column: 'nope' }],
  [208, "Invalid object name 'dbo.orders'.", { kind: 'undefined_table', table: 'dbo.orders' }],
  [195, "'GREATEST' is not a recognized built-in function name.", { kind: 'undefined_function' }],
  [1205, 'Transaction (Process ID 57) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.', { kind: 'deadlock' }],
  [1222, 'Lock request time out period exceeded.', { kind: 'deadlock' }],
  [6005, 'SHUTDOWN is in progress.', { kind: 'connection_lost' }],
];

describe('SQL Server error numbers', () => {
  it.each(CASES)('%i %s', (number, message, expected) => {
    const error = serverError(number, message);
    expect(error.number).toBe(number);
    expect(mapMssqlError(error)).toEqual(expected);
    expect(dialect.errors(error)).toEqual(expected);
  });

  it('reads the first of several server errors (precedingErrors)', () => {
    const last = serverError(3621, 'The statement has been terminated.');
    Object.assign(last, { precedingErrors: [serverError(2627, "Violation of UNIQUE KEY constraint 'k'. Cannot insert duplicate key in object 'dbo.t'.")] });
    expect(mapMssqlError(last)).toEqual({ kind: 'unique_violation', constraint: 'k' });
  });

  it('leaves errors that mean nothing to clients unmapped', () => {
    expect(mapMssqlError(serverError(102, "Incorrect syntax near 'x'."))).toBeNull();
    expect(mapMssqlError(serverError(8672, 'The MERGE statement attempted to UPDATE or DELETE the same row more than once.'))).toBeNull();
    expect(mapMssqlError(new Error('plain'))).toBeNull();
    expect(mapMssqlError('text')).toBeNull();
    expect(mapMssqlError(null)).toBeNull();
  });
});

describe('client-side failures', () => {
  it.each(['ESOCKET', 'ECONNRESET', 'ECONNCLOSED', 'ETIMEOUT', 'ENOTOPEN', 'EINSTLOOKUP'])('%s is connection_lost', (code) => {
    expect(mapMssqlError(new sql.ConnectionError(`failed: ${code}`, code as sql.MSSQL_ERROR_CODE))).toEqual({ kind: 'connection_lost' });
  });

  it('a request timeout (RequestError ETIMEOUT) is the statement time limit (DESIGN §11)', () => {
    expect(mapMssqlError(new sql.RequestError('Timeout: Request failed to complete in 15000ms', 'ETIMEOUT'))).toEqual({ kind: 'statement_timeout' });
  });

  it('a wrapped socket error is read through originalError', () => {
    const wrapped = new sql.ConnectionError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) as never);
    expect(wrapped.code).toBe('ECONNRESET');
    expect(mapMssqlError(wrapped)).toEqual({ kind: 'connection_lost' });
  });

  it('login failures and cancellations are not connection losses', () => {
    expect(mapMssqlError(new sql.ConnectionError("Login failed for user 'sa'.", 'ELOGIN'))).toBeNull();
    expect(mapMssqlError(new sql.RequestError('Canceled.', 'ECANCEL'))).toBeNull();
  });
});

describe('SQL Server: a table or column gone behind the service', () => {
  const missingIn = async (number: number, message: string) => {
    const orders = (await fixtureModel()).entities.get('orders');
    const mapped = mapMssqlError(serverError(number, message));
    if (!orders || !mapped) throw new Error('fixture or mapping missing');
    return schemaOutOfSync(orders, missingObject(orders, mapped), undefined);
  };

  it('names the missing table or column from the schema the service holds', async () => {
    const table = await missingIn(208, "Invalid object name 'dbo.orders'.");
    expect(table.code).toBe('SCHEMA_OUT_OF_SYNC');
    expect(table.details).toEqual({ entity: 'orders', missing: { kind: 'table', name: 'orders' } });
    expect((await missingIn(207, "Invalid column name 'note'.")).details).toEqual({ entity: 'orders', missing: { kind: 'column', name: 'note' } });
  });

  it('a name the entity does not know is left out, never echoed', async () => {
    const error = await missingIn(207, "Invalid column name 'secret_internal'.");
    expect(error.details).toEqual({ entity: 'orders', missing: { kind: 'column' } });
    expect(error.message).not.toContain('secret_internal');
  });
});
