/**
 * wdapi command line.
 *
 *   wdapi import FILE --view UUID [--method INSERT|UPDATE] [--mapping NAME|ID] [--header false]
 *                [--delimiter ,|;|tab||] [--on-conflict ERROR|IGNORE|UPDATE] [--conflict-columns a,b]
 *                [--resume JOBID] [--url URL] [--token TOKEN]
 *
 * The token comes from --token or WDAPI_TOKEN, the URL from --url, WDAPI_URL or http://127.0.0.1:8080
 * (not localhost: Node may resolve it to ::1 while the service listens on 127.0.0.1).
 */
import { parseArgs } from 'node:util';
import { runImport } from './import.ts';

const USAGE = `usage: wdapi import FILE --view UUID [--method INSERT|UPDATE] [--mapping NAME] [--header false]
                   [--delimiter X] [--on-conflict ERROR|IGNORE|UPDATE] [--conflict-columns a,b]
                   [--resume JOBID] [--url URL] [--token TOKEN]
  --url    the service's base URL (default WDAPI_URL, else http://127.0.0.1:8080)
  --token  an API key or bearer token (default WDAPI_TOKEN)
From the clone: npm run wdapi -- import FILE --view UUID …`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'import') {
    process.stderr.write(`${USAGE}\n`);
    return command === undefined || command === '--help' || command === 'help' ? 0 : 2;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      view: { type: 'string' },
      method: { type: 'string' },
      mapping: { type: 'string' },
      header: { type: 'string' },
      delimiter: { type: 'string' },
      'on-conflict': { type: 'string' },
      'conflict-columns': { type: 'string' },
      resume: { type: 'string' },
      url: { type: 'string' },
      token: { type: 'string' },
    },
  });
  const file = positionals[0];
  const token = values.token ?? process.env.WDAPI_TOKEN;
  if (!file || !values.view || !token) {
    process.stderr.write(`${USAGE}\n${!token ? 'a token is needed: --token or WDAPI_TOKEN\n' : ''}`);
    return 2;
  }
  return runImport({
    file,
    view: values.view,
    token,
    url: (values.url ?? process.env.WDAPI_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, ''),
    ...(values.method ? { method: values.method.toUpperCase() } : {}),
    ...(values.mapping ? { mapping: values.mapping } : {}),
    ...(values.header ? { header: values.header } : {}),
    ...(values.delimiter ? { delimiter: values.delimiter } : {}),
    ...(values['on-conflict'] ? { onConflict: values['on-conflict'].toUpperCase() } : {}),
    ...(values['conflict-columns'] ? { conflictColumns: values['conflict-columns'] } : {}),
    ...(values.resume ? { resume: values.resume } : {}),
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`wdapi: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
