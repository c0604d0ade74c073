/**
 * The RLS suites' workspace: `projects(id, org_id, name)` and `tasks(id, project_id → projects,
 * owner NOT NULL, title)` created directly in the workspace database, synced, and a test IdP
 * configured READ_WRITE so external users can exercise every operation.
 */
import { expect } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../../support/harness.ts';
import type { VendorTarget } from '../../support/vendors.ts';
import { configureIdp, defaultViews } from '../../support/auth.ts';
import { nowSeconds, TestIdp } from '../../support/test-idp.ts';

export interface ProjectRow {
  id: number;
  org_id: number | null;
  name: string;
}

export interface TaskRow {
  id: number;
  project_id: number | null;
  owner: string;
  title: string | null;
  note?: string | null;
}

export interface RlsContext {
  ws: TestWorkspace;
  idp: TestIdp;
  issuer: string;
  views: Record<string, { uuid: string; slug: string }>;
  projects: string;
  tasks: string;
  /** An external user's token with these claims (sub required by the caller). */
  token(claims: Record<string, unknown>): Promise<string>;
  /** Replaces the rows of both tables (ids as given) and moves the identity sequences past them. */
  load(projects: readonly ProjectRow[], tasks: readonly TaskRow[]): Promise<void>;
  close(): Promise<void>;
}

export async function startRlsWorkspace(target: VendorTarget, issuerPath = '/rls'): Promise<RlsContext> {
  const [ws, idp] = await Promise.all([startWorkspace(target, { fixture: false }), TestIdp.start()]);
  const projects = ws.db.table('projects');
  const tasks = ws.db.table('tasks');
  const { autoId, param, resetIdentity } = ws.db.sql;
  await ws.db.query(`CREATE TABLE ${projects} (id ${autoId}, org_id integer, name text NOT NULL)`);
  await ws.db.query(
    `CREATE TABLE ${tasks} (id ${autoId}, project_id integer, owner text NOT NULL, title text, note text,
       FOREIGN KEY (project_id) REFERENCES ${projects}(id))`,
  );
  const synced = await ws.call('POST', ws.admin('/sync'), { token: ADMIN_TOKEN });
  expect(synced.status, JSON.stringify(synced.body)).toBe(200);
  const issuer = idp.registerIssuer(issuerPath);
  await configureIdp(ws, { issuerUrl: issuer, defaultPermissions: 'READ_WRITE', enabled: true });
  const views = await defaultViews(ws);
  expect(Object.keys(views).sort()).toEqual(['projects', 'tasks']);

  async function load(projectRows: readonly ProjectRow[], taskRows: readonly TaskRow[]): Promise<void> {
    await ws.db.query(`DELETE FROM ${tasks}`);
    await ws.db.query(`DELETE FROM ${projects}`);
    for (const p of projectRows) await ws.db.query(`INSERT INTO ${projects} (id, org_id, name) VALUES (${param(1)}, ${param(2)}, ${param(3)})`, [p.id, p.org_id, p.name]);
    if (taskRows.length > 0) {
      const params: unknown[] = [];
      const tuples = taskRows.map((t) => {
        params.push(t.id, t.project_id, t.owner, t.title, t.note ?? null);
        const n = params.length;
        return `(${[n - 4, n - 3, n - 2, n - 1, n].map(param).join(', ')})`;
      });
      await ws.db.query(`INSERT INTO ${tasks} (id, project_id, owner, title, note) VALUES ${tuples.join(', ')}`, params);
    }
    for (const table of [projects, tasks]) {
      const reset = resetIdentity(table);
      if (reset) await ws.db.query(reset);
    }
  }

  return {
    ws,
    idp,
    issuer,
    views,
    projects,
    tasks,
    token: (claims) => idp.sign({ iss: issuer, exp: nowSeconds() + 3600, iat: nowSeconds(), ...claims }),
    load,
    async close() {
      await ws.close();
      await idp.close();
    },
  };
}
