/**
 * Settings that open a hole without saying so get a warning line (docs/security.md, "Warnings at
 * start"): TRUST_PROXY=true, /metrics without METRICS_TOKEN and a live demo key at start; an
 * identity provider saved without an audience in the answer's `meta.warnings` and in the log.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../server/start.ts';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';

type Line = Record<string, unknown>;

function capture(): { lines: Line[]; logger: pino.Logger } {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Line);
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, sink) };
}

const warningsOf = (lines: Line[]) => lines.filter((l) => l.level === 40).map((l) => String(l.setting));

describe('warnings at start', () => {
  it('TRUST_PROXY=true, /metrics without METRICS_TOKEN and the demo key each get one warning line', async () => {
    const { lines, logger } = capture();
    const service = await startService({ adminToken: ADMIN_TOKEN, logger, trustProxy: true, demo: true });
    try {
      expect(warningsOf(lines).sort()).toEqual(['DEMO', 'METRICS_TOKEN', 'TRUST_PROXY']);
      const demo = lines.find((l) => l.setting === 'DEMO');
      expect(String(demo?.msg)).toMatch(/API key.*live/);
      // The warning names the hole, never the key itself.
      expect(JSON.stringify(lines)).not.toContain(service.demo?.apiKey ?? 'no demo key');
    } finally {
      await service.close();
    }
  }, 120_000);

  it('none of them when the settings are closed', async () => {
    const { lines, logger } = capture();
    const service = await startService({ adminToken: ADMIN_TOKEN, logger, trustProxy: false, metricsToken: 'metrics-token-0123456789', demo: false });
    try {
      expect(warningsOf(lines)).toEqual([]);
    } finally {
      await service.close();
    }
  });
});

describe('an identity provider saved without an audience', () => {
  let ws: TestWorkspace;
  const { lines, logger } = capture();
  const put = (body: Record<string, unknown>) =>
    ws.call('PUT', ws.admin('/identity-provider'), { token: ADMIN_TOKEN, body: { issuerUrl: 'https://93.184.215.14/realms/x', defaultPermissions: 'READ_ONLY', enabled: true, ...body } });

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget, { logger });
  });
  afterAll(async () => ws?.close());

  it('is saved, with a warning in meta.warnings and a log line', async () => {
    lines.length = 0;
    const res = await put({});
    expect(res.status).toBe(200);
    expect(res.body.data.audience).toBeNull();
    expect(res.body.meta.warnings).toEqual([expect.stringMatching(/^no audience is configured: any token/)]);
    expect(lines.filter((l) => l.level === 40 && l.setting === 'audience')).toHaveLength(1);
  });

  it('with an audience: no warning', async () => {
    lines.length = 0;
    const res = await put({ audience: 'https://api.example.com' });
    expect(res.status).toBe(200);
    expect(res.body.meta).toBeUndefined();
    expect(lines.filter((l) => l.level === 40)).toEqual([]);
  });
});
