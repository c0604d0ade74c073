/**
 * The body of the thread that holds the embedded PGlite (pglite-worker.ts starts it). Opening
 * PGlite instantiates its WebAssembly and boots single-user postgres in synchronous runs of up to
 * half a second (initdb on a fresh folder: 5–15 s), and every query runs synchronously too; here
 * none of it holds the service's event loop.
 *
 * Requests are answered strictly in arrival order: the service's side keeps a transaction's
 * statements together (it holds the session until COMMIT or ROLLBACK), so order is all this side
 * must keep.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { toWireError, type ThreadReady, type ThreadReply, type ThreadRequest } from './pglite-protocol.ts';
import { postgresTextParsers } from './postgres-types.ts';

interface ThreadData {
  readonly dataDir?: string;
}

async function open(dataDir: string | undefined): Promise<PGlite> {
  const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), parsers: postgresTextParsers });
  await db.exec("SET TimeZone = 'UTC'");
  return db;
}

async function answer(db: PGlite, request: ThreadRequest): Promise<ThreadReply> {
  try {
    if (request.op === 'query') {
      const result = await db.query<Record<string, unknown>>(request.text, request.params as unknown[]);
      return { id: request.id, ok: true, rows: result.rows, affectedRows: result.affectedRows ?? 0 };
    }
    if (request.op === 'exec') await db.exec(request.text);
    else await db.close();
    return { id: request.id, ok: true, rows: [], affectedRows: 0 };
  } catch (error) {
    return { id: request.id, ok: false, error: toWireError(error) };
  }
}

/** A value that cannot be cloned must fail its own request, not stop the thread's queue. */
function reply(port: MessagePort, message: ThreadReply): void {
  try {
    port.postMessage(message);
  } catch (error) {
    port.postMessage({ id: message.id, ok: false, error: toWireError(error) } satisfies ThreadReply);
  }
}

function serve(db: PGlite): void {
  const port = parentPort!;
  let previous: Promise<void> = Promise.resolve();
  port.on('message', (request: ThreadRequest) => {
    previous = previous.then(async () => {
      reply(port, await answer(db, request));
      // After close nothing else is served: the port closes and the thread ends.
      if (request.op === 'close') port.close();
    });
  });
}

const data = workerData as ThreadData;
open(data.dataDir).then(
  (db) => {
    serve(db);
    parentPort!.postMessage({ ready: true } satisfies ThreadReady);
  },
  (error: unknown) => parentPort!.postMessage({ ready: false, error: toWireError(error) } satisfies ThreadReady),
);
