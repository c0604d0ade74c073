/**
 * A private, diskless redis-server a test starts and stops itself (never the shared one on 6379),
 * for Redis outages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';

/** redis-server on `port`, resolved once it accepts commands. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let attempt = 0; attempt < 100; attempt++) {
    // A fresh client each time: one that failed to connect keeps retrying on its own.
    const client = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') return child;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      client.disconnect();
    }
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not start on port ${port}`);
}

/** Deletes every key under `prefix` (a run's own REDIS_KEY_PREFIX) from the Redis at `url`. */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 100 })) keys.push(...(batch as string[]));
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
