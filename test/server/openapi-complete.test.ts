/**
 * The OpenAPI document describes the whole API and passes the usual linters: Redocly's recommended
 * rules and Spectral's `spectral:oas`, both with no error and no warning; every route the service
 * serves and every route the README lists is in it; a client generated with openapi-typescript and
 * openapi-fetch compiles under `tsc --strict` reading `list.data.data`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';
import { routeList } from '../support/routes.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'node_modules/.bin');
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** `METHOD /path/{param}` of every operation, with this workspace's own names put back as templates. */
function documentedRoutes(doc: any, names: { org: string; ws: string; entities: string[]; viewSlugs: string[] }): Set<string> {
  const routes = new Set<string>();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    const template = path
      .replace(`/api/v1/${names.org}/${names.ws}/`, '/api/v1/{org}/{ws}/')
      .replace(`/orgs/${names.org}/workspaces/${names.ws}`, '/orgs/{org}/workspaces/{ws}')
      .replace(`/orgs/${names.org}`, '/orgs/{org}')
      .replace(new RegExp(`^/api/v1/\\{org\\}/\\{ws\\}/(${names.entities.join('|')})(?=/|$)`), '/api/v1/{org}/{ws}/{entity}')
      .replace(new RegExp(`^/api/data/(${names.viewSlugs.join('|')})(?=/|$)`), '/api/data/{viewSlug}');
    for (const method of METHODS) if (item[method]) routes.add(`${method.toUpperCase()} ${template.replace(/\{[^}]+\}/g, '{}')}`);
  }
  return routes;
}

const normal = (route: string): string => route.replace(/\{[^}]+\}/g, '{}');

describe('OpenAPI document: the whole API', () => {
  let ws: TestWorkspace;
  let doc: any;
  let dir: string;

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget);
    const res = await ws.call('GET', ws.records('/openapi.json'));
    expect(res.status).toBe(200);
    doc = res.body;
    dir = mkdtempSync(join(tmpdir(), 'wdapi-openapi-lint-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
  });
  afterAll(async () => ws?.close());

  it('refuses view slugs that would collide with the import and bulk routes', async () => {
    for (const slug of ['import', 'bulk']) {
      const res = await ws.call('POST', ws.admin('/views'), { token: ADMIN_TOKEN, body: { entity: 'orders', name: `A ${slug} view`, slug } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error.details)).toContain('slug');
    }
  });

  it('has a summary, a description, tags and an operationId on every operation', () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of METHODS.filter((m) => item[m])) {
        const op = item[method];
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        expect(op.operationId, `${method} ${path}`).toBeTruthy();
        expect(op.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
  });

  it('documents every route the service serves', () => {
    const names = {
      org: ws.org, ws: ws.ws,
      entities: Object.keys(doc.components.schemas).filter((s) => doc.paths[`/api/v1/${ws.org}/${ws.ws}/${s.toLowerCase()}`]).map((s) => s.toLowerCase()),
      viewSlugs: Object.keys(doc.paths).flatMap((p) => /^\/api\/data\/([a-z0-9-]+)$/.exec(p)?.[1] ?? []),
    };
    const documented = documentedRoutes(doc, names);
    const served = routeList().map(normal);
    expect(served.filter((route) => !documented.has(route))).toEqual([]);
  });

  it('documents every route the README lists, and the README lists every route', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Routes'));
    const listed = [...table.matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE) ([^`]+)` \|/gm)].map((m) => normal(`${m[1]} ${m[2]}`));
    expect(listed.length).toBeGreaterThan(40);
    const served = new Set(routeList().map(normal));
    expect(listed.filter((route) => !served.has(route))).toEqual([]);
    expect([...served].filter((route) => !listed.includes(route))).toEqual([]);
  });

  it('passes Redocly\'s recommended rules with no error and no warning', async () => {
    const { stdout } = await run(join(BIN, 'redocly'), ['lint', join(dir, 'openapi.json'), '--format=json'], { env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' } }).catch((error: { stdout: string }) => error);
    const problems = (JSON.parse(stdout) as { problems: { ruleId: string; message: string }[] }).problems;
    expect(problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  }, 60_000);

  it('passes Spectral\'s spectral:oas rules with no error and no warning', async () => {
    writeFileSync(join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
    const { stdout } = await run(join(BIN, 'spectral'), ['lint', 'openapi.json', '--format', 'json', '--quiet'], { cwd: dir }).catch((error: { stdout: string }) => error);
    const problems = JSON.parse(stdout || '[]') as { code: string; message: string; severity: number }[];
    expect(problems.filter((p) => p.severity <= 1).map((p) => `${p.code}: ${p.message}`)).toEqual([]);
  }, 60_000);

  // Last: type-checking blocks the event loop for seconds, which can stale pooled HTTP connections.
  it('gives a client generated with openapi-typescript and openapi-fetch that compiles strict', async () => {
    writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(doc)));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'client.ts'), `
      import createClient from 'openapi-fetch';
      import type { paths } from './api';
      const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8080' });
      export async function firstAmount(): Promise<number | undefined> {
        const list = await client.GET('/api/v1/${ws.org}/${ws.ws}/orders', { params: { query: { size: 5 } } });
        if (!list.data) return undefined;
        const first = list.data.data[0];
        return first?.amount;
      }
    `);
    const program = ts.createProgram([join(dir, 'client.ts')], { strict: true, noEmit: true, skipLibCheck: true, types: [], module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022 });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  }, 60_000);
});
