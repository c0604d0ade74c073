/**
 * Export memory (DESIGN §14 "Export": memory stays flat whatever the row count): exports 50,000
 * and then 500,000 rows (~300 bytes each) as CSV from one vendor and prints bytes, rows/s and the
 * process's peak RSS growth during each export (service and reading client share the process).
 *
 *   node --expose-gc --import tsx bench/tools/export-memory.ts postgres|mariadb|pglite
 *
 * Figures only: nothing here asserts.
 */
import { startWorkspace } from '../../test/support/harness.ts';
import { postgresTarget, pgliteTarget } from '../../test/support/vendors.ts';
import { mariadbTarget } from '../../test/support/mysql-target.ts';
import { ADMIN_TOKEN } from '../../test/support/harness.ts';

const vendor = process.argv[2] ?? 'postgres';
const target = vendor === 'mariadb' ? mariadbTarget : vendor === 'pglite' ? pgliteTarget : postgresTarget;
const ws = await startWorkspace(target, { fixture: false });
const table = ws.db.table('big');
await ws.db.query(`CREATE TABLE ${table} (id integer PRIMARY KEY, pad varchar(400) NOT NULL, n integer NULL)`);
await ws.call('POST', ws.admin('/sync'), { token: ADMIN_TOKEN });
let loaded = 0;
for (const total of [50_000, 500_000]) {
  const source = vendor === 'mariadb' ? `SELECT seq, REPEAT('x', 300), seq % 97 FROM seq_${loaded + 1}_to_${total}` : `SELECT g, repeat('x', 300), g % 97 FROM generate_series(${loaded + 1}, ${total}) g`;
  await ws.db.query(`INSERT INTO ${table} (id, pad, n) ${source}`);
  loaded = total;
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = Date.now();
  const response = await fetch(`${ws.url}${ws.records('/big?format=csv&sort=id')}`, { headers: { authorization: `Bearer ${ws.apiKey}` } });
  let bytes = 0;
  for await (const chunk of response.body as any) bytes += chunk.length;
  clearInterval(timer);
  const seconds = (Date.now() - started) / 1000;
  console.log(`${vendor} rows=${total} bytes=${bytes} seconds=${seconds.toFixed(1)} rows/s=${Math.round(total / seconds)} rssBefore=${(base / 1e6).toFixed(0)}MB peakRss=${(peak / 1e6).toFixed(0)}MB growth=${((peak - base) / 1e6).toFixed(0)}MB`);
}
await ws.close();
process.exit(0);
