/**
 * wdapi command line.
 *
 *   wdapi import FILE --view UUID [--method INSERT|UPDATE] [--mapping NAME|ID] [--header false]
 *                [--delimiter ,|;|tab||] [--on-conflict ERROR|IGNORE|UPDATE] [--conflict-columns a,b]
 *                [--resume JOBID] [--url URL] [--token TOKEN]
 *
 *   wdapi export ENTITY --org ORG --ws WS [--format csv|ndjson] --out FILE [--query 'filter[status.eq]=paid&sort=id']
 *   wdapi export VIEW_SLUG [--format csv|ndjson] --out FILE [--query …]
 *
 * The token comes from --token or WDAPI_TOKEN, the URL from --url, WDAPI_URL or http://127.0.0.1:8080
 * (not localhost: Node may resolve it to ::1 while the service listens on 127.0.0.1).
 */
import { parseArgs } from 'node:util';
import { runImport } from './import.ts';
import { runExport } from './export.ts';

const USAGE = `usage: wdapi import FILE --view UUID [--method INSERT|UPDATE] [--mapping NAME] [--header false]
                   [--delimiter X] [--on-conflict ERROR|IGNORE|UPDATE] [--conflict-columns a,b]
                   [--resume JOBID] [--url URL] [--token TOKEN]
       wdapi export ENTITY --org ORG --ws WS --out FILE [--format csv|ndjson] [--query QUERY] [--url URL] [--token TOKEN]
       wdapi export VIEW_SLUG --out FILE [--format csv|ndjson] [--query QUERY] [--url URL] [--token TOKEN]
  --format csv or ndjson (default: from the --out extension, else csv)
  --query  more of the list's query text: filter[...], where, sort, fields, expand, header=display
  --url    the service's base URL (default WDAPI_URL, else http://127.0.0.1:8080)
  --token  an API key or bearer token (default WDAPI_TOKEN)
From the clone: npm run wdapi -- import FILE --view UUID …`;

function baseUrl(url: string | undefined): string {
  return (url ?? process.env.WDAPI_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
}

async function exportCommand(rest: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { org: { type: 'string' }, ws: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' }, query: { type: 'string' }, url: { type: 'string' }, token: { type: 'string' } },
  });
  const target = positionals[0];
  const token = values.token ?? process.env.WDAPI_TOKEN;
  const format = values.format ?? (values.out?.endsWith('.ndjson') ? 'ndjson' : 'csv');
  if (!target || !values.out || !token || (format !== 'csv' && format !== 'ndjson') || Boolean(values.org) !== Boolean(values.ws)) {
    process.stderr.write(`${USAGE}\n${!token ? 'a token is needed: --token or WDAPI_TOKEN\n' : ''}`);
    return 2;
  }
  return runExport({
    target,
    format,
    out: values.out,
    token,
    url: baseUrl(values.url),
    ...(values.org && values.ws ? { org: values.org, ws: values.ws } : {}),
    ...(values.query ? { query: values.query } : {}),
  });
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'export') return exportCommand(rest);
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
    url: baseUrl(values.url),
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
