// The layering of the product code: every import points to its own room or a
// lower one, in the order written in .dependency-cruiser.cjs. Violations known today sit in
// test/ops/layering-baseline.json (empty since the last folder cycles went); the list only shrinks.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderCycleArrows } from './layering-folders.ts';
import { checkLayering, compareWithBaseline, describeDiff, readBaseline, type LayeringReport } from './layering.ts';

describe('layering of the product code', () => {
  it('breaks no rule beyond the baseline, and the baseline holds no entry that was fixed', async () => {
    const report = await checkLayering();
    const diff = compareWithBaseline(report, await readBaseline());
    expect(diff.added.length + diff.stale.length, describeDiff(diff, report)).toBe(0);
  });
});

describe('the rules catch each kind of wrong import', () => {
  // A small tree shaped like the product folders, one wrong import per rule, cruised with the
  // project's own config: if a rule stops matching, its line goes missing here.
  const files: Record<string, string> = {
    'core/errors.ts': "import type { Route } from '../server/route.ts';\nexport type E = Route;\n",
    'core/schema/model.ts': "import type { Plan } from '../query/plan.ts';\nexport type M = Plan;\n",
    'core/query/plan.ts': "import type { Driver } from '../../dialects/pg/driver.ts';\nexport type Plan = Driver;\n",
    'core/query/a.ts': "import { b } from './b.ts';\nexport const a = (): number => b();\n",
    'core/query/b.ts': "import type { A } from './c.ts';\nexport const b = (): number => 1;\nexport type B = A;\n",
    'core/query/c.ts': "import { a } from './a.ts';\nexport type A = typeof a;\n",
    'core/extra/thing.ts': "import type { Plan } from '../query/plan.ts';\nexport type T = Plan;\n",
    'dialects/dialect.ts': 'export interface Dialect { name: string }\n',
    'dialects/pg/driver.ts': "import type { My } from '../my/driver.ts';\nexport type Driver = My;\n",
    'dialects/my/driver.ts': "import type { Dialect } from '../dialect.ts';\nexport type My = Dialect;\n",
    'dialects/pg/uses-write.ts': "import type { W } from '../../core/write/w.ts';\nexport type U = W;\n",
    'core/write/w.ts': 'export type W = number;\n',
    'server/route.ts': "import type { Dialect } from '../dialects/dialect.ts';\nexport type Route = Dialect;\n",
    'server/routes/r.ts': "import type { Route } from '../route.ts';\nexport type R = Route;\n",
    'server/index.ts': "import type { R } from './routes/r.ts';\nexport type I = R;\n",
    'cli/main.ts': "import type { E } from '../core/errors.ts';\nexport type C = E;\n",
  };
  let root = '';
  let report: LayeringReport;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'layering-'));
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    report = await checkLayering(root);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it.each([
    ['an upward type-only import', 'upward-from-ground: core/errors.ts → server/route.ts'],
    ['a lower core room importing a higher one', 'upward-from-schema: core/schema/model.ts → core/query/plan.ts'],
    ['core importing a vendor folder', 'vendor-outside-server: core/query/plan.ts → dialects/pg/driver.ts'],
    ['a vendor importing another vendor', 'vendor-beyond-seam: dialects/pg/driver.ts → dialects/my/driver.ts'],
    ['a vendor importing above the seam', 'vendor-beyond-seam: dialects/pg/uses-write.ts → core/write/w.ts'],
    ['the CLI importing product code', 'cli-beyond-http: cli/main.ts → core/errors.ts'],
    ['a folder missing from the order', 'unplaced-source: core/extra/thing.ts → core/query/plan.ts'],
    ['a file cycle through a type-only import', 'no-circular: core/query/a.ts → core/query/b.ts → core/query/c.ts → core/query/a.ts'],
    ['a cycle of folders within one room', 'no-folder-cycle: server/routes → server'],
  ])('%s', (_kind, violation) => {
    expect(report.violations).toContain(violation);
  });

  it('lets an import point down or sideways', () => {
    expect(report.violations.filter((line) => line.includes('dialects/my/driver.ts → dialects/dialect.ts'))).toEqual([]);
    expect(report.violations.filter((line) => line.startsWith('upward-from-server'))).toEqual([]);
  });
});

describe('comparing with the baseline', () => {
  const report: LayeringReport = { violations: ['rule: a → b', 'rule: c → d'], folderArrowCount: 7 };

  it('names a new violation and a baseline entry that no longer occurs', () => {
    const diff = compareWithBaseline(report, ['rule: c → d', 'rule: e → f']);
    expect(diff).toEqual({ added: ['rule: a → b'], stale: ['rule: e → f'] });
    expect(describeDiff(diff, report)).toBe(
      [
        'new layering violation: rule: a → b',
        'no longer occurs, remove it from the baseline: rule: e → f',
        '(7 folder-to-folder arrows; `npm run layering -- --update` rewrites the baseline)',
      ].join('\n'),
    );
  });
});

describe('folder cycles', () => {
  it('are arrows between direct folders that lead back to where they start', () => {
    const edges = [
      ['server/app.ts', 'server/routes/a.ts'],
      ['server/routes/a.ts', 'server/status.ts'],
      ['server/routes/a.ts', 'core/errors.ts'],
      ['core/query/read.ts', 'core/errors.ts'],
    ] as const;
    expect(folderCycleArrows(edges)).toEqual(['server → server/routes', 'server/routes → server']);
  });
});
