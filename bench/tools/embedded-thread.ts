/**
 * What the embedded PGlite's worker thread costs per statement against PGlite on
 * the service's own thread (`npx tsx bench/tools/embedded-thread.ts`). Each way in turn, twice: a get by
 * id and a 20-row page on a 1,000-row table; wall µs per statement awaited one after another and
 * process CPU-µs per statement (every thread of the process, so the worker's share is counted).
 */
import { createEmbeddedDriver, EmbeddedDatabase, type EmbeddedThread } from '../../dialects/postgres/index.ts';

const STATEMENTS = 3_000;
const WARM_UP = 300;

interface Figures {
  readonly wallUs: number;
  readonly cpuUs: number;
}

async function measure(run: (i: number) => Promise<unknown>, count: number): Promise<Figures> {
  for (let i = 0; i < WARM_UP; i++) await run(i);
  const cpu = process.cpuUsage();
  const began = performance.now();
  for (let i = 0; i < count; i++) await run(i);
  const used = process.cpuUsage(cpu);
  return { wallUs: ((performance.now() - began) * 1000) / count, cpuUs: (used.user + used.system) / count };
}

async function measureThread(thread: EmbeddedThread): Promise<{ byId: Figures; page: Figures }> {
  const embedded = new EmbeddedDatabase(undefined, thread);
  const db = createEmbeddedDriver(embedded);
  try {
    await embedded.exec(`CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL, at timestamptz NOT NULL DEFAULT now(), price numeric NOT NULL DEFAULT 1.5);
      INSERT INTO item (id, name) SELECT g, 'item ' || g FROM generate_series(1, 1000) g;`);
    const byId = await measure((i) => db.query({ text: 'SELECT * FROM item WHERE id = $1', params: [(i % 1000) + 1] }), STATEMENTS);
    const page = await measure((i) => db.query({ text: 'SELECT * FROM item WHERE id > $1 ORDER BY id LIMIT 20', params: [i % 980] }), STATEMENTS / 3);
    return { byId, page };
  } finally {
    await embedded.close();
  }
}

const cell = (f: Figures): string => `${f.wallUs.toFixed(0).padStart(6)} wall ${f.cpuUs.toFixed(0).padStart(6)} CPU`;
process.stdout.write(`embedded PGlite per statement (µs), ${STATEMENTS} gets by id, ${STATEMENTS / 3} 20-row pages\n`);
for (const thread of ['in-process', 'worker', 'in-process', 'worker'] as const) {
  const { byId, page } = await measureThread(thread);
  process.stdout.write(`  ${thread.padEnd(11)} get by id ${cell(byId)}   page of 20 ${cell(page)}\n`);
}
