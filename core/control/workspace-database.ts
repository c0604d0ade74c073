/**
 * A workspace's `database` settings: reading them from an admin payload, checking that they can be
 * used before anything is saved, and showing them without the password (DESIGN §10).
 */
import type { DatabaseConfig, Dialect, DialectRegistry, Driver } from '../../dialects/dialect.ts';
import { validationFailed } from '../errors.ts';
import type { PayloadReader } from '../payload.ts';
import { connectionCauseText } from '../workspace/connection-cause.ts';

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const DATABASE_KEYS = ['vendor', 'url', 'schema', 'poolSize'];
/** How long a connection check may take: a host that drops packets would otherwise hold the request for minutes. */
const PROBE_TIMEOUT_MS = 10_000;
const MASK = '***';

/** Query parameters and ADO.NET keys that carry a password. */
const SECRET_PARAM = /^(password|pwd|passwd|sslpassword)$/i;

/** The URL with its password (and password parameters) replaced by `***`; nothing else changes. */
export function maskCredentials(url: string): string {
  if (!URL.canParse(url)) return url.replace(/((?:^|;)\s*(?:password|pwd)\s*=)[^;]*/gi, `$1${MASK}`);
  const parsed = new URL(url);
  if (parsed.password) parsed.password = MASK;
  for (const key of [...parsed.searchParams.keys()]) if (SECRET_PARAM.test(key)) parsed.searchParams.set(key, MASK);
  return parsed.toString();
}

/** The settings as the admin API shows them: the URL masked. */
export function describeDatabase(database: DatabaseConfig): DatabaseConfig {
  return { ...database, ...(database.url === undefined ? {} : { url: maskCredentials(database.url) }) };
}

function readUrl(reader: PayloadReader, value: unknown, current: DatabaseConfig | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') return reader.fail('database.url', 'type', 'must be a non-empty string');
  // A record read back (URL masked) and sent again keeps the stored password.
  if (current?.url !== undefined && value === maskCredentials(current.url)) return current.url;
  return value;
}

/**
 * Reads `database` of a create payload, or of a PATCH merged onto `current`: keys not sent keep
 * their value, `null` clears `schema` or `poolSize`. Nothing is coerced; problems name the field.
 */
export function readDatabase(reader: PayloadReader, dialects: DialectRegistry, current?: DatabaseConfig): DatabaseConfig | undefined {
  const value = reader.body.database;
  if (value === undefined && current) return current;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return reader.fail('database', current ? 'type' : 'required', 'must be an object {vendor, url?, schema?, poolSize?}');
  }
  const sent = value as Record<string, unknown>;
  for (const key of Object.keys(sent)) if (!DATABASE_KEYS.includes(key)) reader.fail(`database.${key}`, 'unknown', `is not one of ${DATABASE_KEYS.join(', ')}`);
  const db: Record<string, unknown> = { ...current, ...sent, url: readUrl(reader, sent.url, current) ?? current?.url };
  if (typeof db.vendor !== 'string' || !dialects.vendors.includes(db.vendor)) {
    return reader.fail('database.vendor', 'enum', `must be one of ${dialects.vendors.join(', ')}`);
  }
  const url = typeof db.url === 'string' ? db.url : undefined;
  if (dialects.get(db.vendor).capabilities.needsUrl && url === undefined) return reader.fail('database.url', 'required', 'is required for this vendor');
  const urlProblem = url === undefined ? null : dialects.get(db.vendor).urlProblem(url);
  if (urlProblem) reader.fail('database.url', 'format', urlProblem);
  if (db.schema != null && (typeof db.schema !== 'string' || !SCHEMA_NAME.test(db.schema))) {
    return reader.fail('database.schema', 'pattern', 'must be a plain identifier');
  }
  if (db.poolSize != null && (typeof db.poolSize !== 'number' || !Number.isInteger(db.poolSize) || db.poolSize < 1 || db.poolSize > 100)) {
    return reader.fail('database.poolSize', 'type', 'must be an integer from 1 to 100');
  }
  return {
    vendor: db.vendor,
    ...(url !== undefined ? { url } : {}),
    ...(typeof db.schema === 'string' ? { schema: db.schema } : {}),
    ...(typeof db.poolSize === 'number' ? { poolSize: db.poolSize } : {}),
  };
}

class ProbeTimeout extends Error {}

function timeout(ms: number): Promise<never> {
  return new Promise((_resolve, reject) => setTimeout(() => reject(new ProbeTimeout('timed out')), ms).unref());
}

function connectProblem(dialect: Dialect, error: unknown): string {
  const cause = error instanceof ProbeTimeout ? 'timeout' : dialect.errors(error)?.connection;
  return `could not connect: ${connectionCauseText(cause, 'the database could not be reached or its catalog read; check host, port, credentials and database name')}`;
}

/**
 * Connects with a pool of its own and checks that the schema exists, so that a workspace is only
 * saved once its database can be read. The driver's text never reaches the client: a database can
 * name hosts and users the caller should not learn about.
 */
export async function probeDatabase(dialect: Dialect, database: DatabaseConfig): Promise<void> {
  let driver: Driver | undefined;
  let exists: boolean;
  try {
    const check = async (): Promise<boolean> => {
      driver = await dialect.connect(database);
      return dialect.bind(database).schemaExists(driver);
    };
    exists = await Promise.race([check(), timeout(PROBE_TIMEOUT_MS)]);
  } catch (error) {
    // The cause is for the log only (DNS, login, missing database): the error renderer never sends it.
    const problem = { field: 'database.url', rule: 'connect', message: connectProblem(dialect, error) };
    throw validationFailed([problem], error);
  } finally {
    // Not awaited: a pool still dialling an unreachable host ends when its attempt does.
    void (driver as Driver | undefined)?.close().catch(() => undefined);
  }
  if (!exists) {
    throw validationFailed([{ field: 'database.schema', rule: 'exists', message: `the schema${database.schema ? ` '${database.schema}'` : ''} does not exist in that database (on MySQL the schema is the database)` }]);
  }
}
