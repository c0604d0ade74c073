/**
 * The control store's first-answer bound exists for a network host that never answers. The
 * embedded PGlite has no host: opening it is CPU work that takes longer on a loaded machine (the
 * first `npm start` needs many seconds), and refusing to start then would be wrong.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '../../server/start.ts';

describe('starting on the embedded control store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wdapi-embedded-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is not cut short by the network bound, however long PGlite takes to open', async () => {
    // 1 ms: no PGlite opens that fast, so a bound applied to the embedded store would refuse.
    const service = await startService({ dataDir: dir, port: 0, logger: pino({ level: 'silent' }), controlConnectTimeoutMs: 1 });
    try {
      const response = await fetch(`${service.url}/readyz`);
      expect(response.status).toBe(200);
    } finally {
      await service.close();
    }
  }, 120_000);
});
