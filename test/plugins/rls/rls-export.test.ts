/** DESIGN §14 "Export": RLS applies to exports as to the list (rows and expanded rows alike). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vendorsToRun } from '../../support/vendors.ts';
import { addRule } from '../../support/auth.ts';
import { startRlsWorkspace, type ProjectRow, type RlsContext, type TaskRow } from './rls-fixture.ts';

const vendors = await vendorsToRun();

const PROJECTS: ProjectRow[] = [
  { id: 1, org_id: 1, name: 'Apollo' },
  { id: 2, org_id: 2, name: 'Borealis' },
];

const TASKS: TaskRow[] = [
  { id: 1, project_id: 1, owner: 'alice', title: 'a1' },
  { id: 2, project_id: 2, owner: 'alice', title: 'a2' },
  { id: 3, project_id: 1, owner: 'bob', title: 'b1' },
];

describe.each(vendors)('RLS on exports on $name', (target) => {
  let c: RlsContext;
  let alice: string;

  beforeAll(async () => {
    c = await startRlsWorkspace(target);
    alice = await c.token({ sub: 'alice', org: { id: 1 } });
    await addRule(c.ws, c.views.tasks?.uuid ?? '', { column: 'owner', claim: 'sub' });
    await addRule(c.ws, c.views.projects?.uuid ?? '', { column: 'orgId', claim: 'org.id' });
    await c.load(PROJECTS, TASKS);
  });
  afterAll(async () => c?.close());

  const exported = async (query: string): Promise<string> => {
    const response = await fetch(`${c.ws.url}${c.ws.records(`/tasks?${query}`)}`, { headers: { authorization: `Bearer ${alice}` } });
    expect(response.status).toBe(200);
    return response.text();
  };

  it('CSV and NDJSON hold only the caller\'s rows; a hidden related row is empty cells / null', async () => {
    expect(await exported('format=csv&expand=project&fields=id,title,project.name&sort=id')).toBe('id,title,project.name\r\n1,a1,Apollo\r\n2,a2,\r\n');
    const lines = (await exported('format=ndjson&expand=project&fields=id,project.name&sort=id')).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    expect(lines).toEqual([{ id: 1, project: { name: 'Apollo' } }, { id: 2, project: null }]);
  });
});
