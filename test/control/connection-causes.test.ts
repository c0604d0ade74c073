/**
 * Creating a workspace on a database that cannot be used names the class of cause (host not
 * found, connection refused, user or password refused, database missing, timeout), never the
 * driver's text or the password. PostgreSQL and MariaDB servers, URLs that produce each cause.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, fetchJson } from '../support/harness.ts';
import { expectNoLeak } from '../support/http-expect.ts';
import { freePort } from '../support/free-port.ts';
import { MYSQL_ADMIN_URL, mariadbTarget } from '../support/mysql-target.ts';
import { PG_ADMIN_URL, postgresTarget } from '../support/vendors.ts';
import { startService, type RunningService } from '../../server/start.ts';
import pino from 'pino';

const SERVERS = [
  { name: 'postgres', vendor: 'postgres', admin: PG_ADMIN_URL, target: postgresTarget },
  { name: 'mariadb', vendor: 'mysql', admin: MYSQL_ADMIN_URL, target: mariadbTarget },
];

describe.each(SERVERS)('connection causes on $name', ({ vendor, admin, target }) => {
  let service: RunningService;
  let blackhole: Server;
  let blackholePort = 0;
  const sockets: Socket[] = [];
  let available = false;

  beforeAll(async () => {
    available = await target.available();
    service = await startService({ adminToken: ADMIN_TOKEN, logger: pino({ level: 'silent' }) });
    await fetchJson(`${service.url}/api/admin/v1/orgs`, 'POST', { body: { slug: 'causes', name: 'causes' } }, ADMIN_TOKEN);
    // Accepts and never answers: a server that hangs after the TCP handshake.
    blackhole = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
    const address = blackhole.address();
    blackholePort = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => blackhole?.close(resolve));
    await service?.close();
  });

  const withUrl = (change: (url: URL) => void): string => {
    const url = new URL(admin);
    change(url);
    return url.toString();
  };

  async function create(slug: string, url: string): Promise<string> {
    const res = await fetchJson(`${service.url}/api/admin/v1/orgs/causes/workspaces`, 'POST', { body: { slug, name: slug, database: { vendor, url } } }, ADMIN_TOKEN);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expectNoLeak(res.body);
    expect(JSON.stringify(res.body)).not.toMatch(/wrong-secret|ECONN|ENOTFOUND|28P01|3D000|1045|1049|Access denied|password authentication/);
    return String(res.body.error.details[0].message);
  }

  it('each cause has its own sentence', async (ctx) => {
    if (!available) ctx.skip();
    const port = await freePort();
    const messages = {
      refused: await create('refused', withUrl((u) => void (u.port = String(port)))),
      notFound: await create('not-found', withUrl((u) => void (u.hostname = 'nonexistent.invalid'))),
      auth: await create('auth', withUrl((u) => { u.username = 'nobody_here'; u.password = 'wrong-secret'; })),
      missing: await create('missing', withUrl((u) => void (u.pathname = '/wdapi_no_such_database'))),
    };
    expect(messages.refused).toContain('the connection was refused');
    expect(messages.notFound).toContain('the host name was not found');
    expect(messages.auth).toContain('the user name or password was refused');
    expect(messages.missing).toContain('the database named in the URL does not exist');
  }, 60_000);

  it('a server that never answers is a timeout', async (ctx) => {
    if (!available) ctx.skip();
    const message = await create('silent', withUrl((u) => { u.hostname = '127.0.0.1'; u.port = String(blackholePort); }));
    expect(message).toContain('the server did not answer in time');
  }, 60_000);
});
