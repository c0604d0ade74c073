/**
 * The service in a process of its own, so that a test can SIGKILL it: started on the control
 * database CONTROL_DATABASE_URL with ADMIN_TOKEN; prints `{"url": …}` once it listens.
 */
import pino from 'pino';
import { startService } from '../../server/start.ts';

const service = await startService({
  controlDatabaseUrl: process.env.CONTROL_DATABASE_URL ?? '',
  secretsKey: process.env.SECRETS_KEY ?? '',
  adminToken: process.env.ADMIN_TOKEN ?? '',
  logger: pino({ level: 'silent' }),
});
process.stdout.write(`${JSON.stringify({ url: service.url })}\n`);
