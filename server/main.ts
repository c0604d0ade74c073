/** `npm start`: serve the API on the embedded database with demo data (README). */
import { startService } from './start.ts';

const port = Number(process.env.PORT ?? 8080);
const service = await startService({
  dataDir: process.env.DATA_DIR ?? './.data',
  ...(process.env.CONTROL_DATABASE_URL ? { controlDatabaseUrl: process.env.CONTROL_DATABASE_URL } : {}),
  ...(process.env.ADMIN_TOKEN ? { adminToken: process.env.ADMIN_TOKEN } : {}),
  ...(process.env.PUBLIC_URL ? { publicUrl: process.env.PUBLIC_URL } : {}),
  ...(process.env.COUNT_ESTIMATE_THRESHOLD ? { settings: { countEstimateThreshold: Number(process.env.COUNT_ESTIMATE_THRESHOLD) } } : {}),
  port,
  host: process.env.HOST ?? '127.0.0.1',
  demo: true,
});

const adminToken = service.adminToken ?? service.demo?.adminToken;
const lines = [
  `Workspace Data API listening on ${service.url}`,
  `  admin token:        ${adminToken ?? '(set at first start; see .data/demo-credentials.json or set ADMIN_TOKEN)'}`,
  `  demo API key:       ${service.demo?.apiKey ?? '(not available)'}`,
  `  try:                curl -H "Authorization: Bearer <demo API key>" "${service.url}/api/v1/demo/demo/orders?expand=customer&size=5"`,
];
process.stdout.write(`${lines.join('\n')}\n`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    service.close().then(() => process.exit(0), () => process.exit(1));
  });
}
