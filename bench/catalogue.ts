/**
 * Every scenario of `npm run bench` by its `--only` name, with what it measures, and the groups
 * `--only` also takes. `npm run bench -- --list` prints this; the names are matched without case.
 */
export interface CatalogueEntry {
  readonly name: string;
  readonly measures: string;
  /** Where the scenario lives, under bench/. */
  readonly file: string;
}

export const CATALOGUE: readonly CatalogueEntry[] = [
  { name: 'A', file: 'scenarios/lists.ts', measures: 'list 20 orders, sort=id,desc, default count (exact): service vs Koa + pg vs raw pg' },
  { name: 'A-none', file: 'scenarios/lists.ts', measures: 'the same list with count=none (no 1M-row COUNT)' },
  { name: 'B-none', file: 'scenarios/lists.ts', measures: 'the list with expand=customer,customer.region, count=none' },
  { name: 'B-exact', file: 'scenarios/lists.ts', measures: 'the expanded list, count=exact' },
  { name: 'B-estimated', file: 'scenarios/lists.ts', measures: 'the expanded list, count=estimated (and its share of B-none)' },
  { name: 'C', file: 'scenarios/lists.ts', measures: 'get one order by id (rotating ids)' },
  { name: 'D', file: 'scenarios/lists.ts', measures: 'create an order' },
  { name: 'E', file: 'scenarios/expand.ts', measures: 'one-to-many expansion (20 customers, 5 orders each) vs one LATERAL + json_agg statement' },
  { name: 'F', file: 'scenarios/cursor.ts', measures: 'cursor page 50,000 vs cursor page 0 (OFFSET page 50,000 beside)' },
  { name: 'G', file: 'scenarios/where.ts', measures: 'a where formula vs the same condition written by hand' },
  { name: 'H', file: 'scenarios/aggregate.ts', measures: 'orders/aggregate grouped by status vs the same GROUP BY on a bare pg pool' },
  { name: 'I', file: 'scenarios/export.ts', measures: 'the 1M orders exported as CSV and NDJSON vs COPY … TO STDOUT; the service\'s peak RSS' },
  { name: 'J', file: 'scenarios/balancer.ts', measures: 'scenario A through HAProxy in front of two instances vs one instance direct' },
  { name: 'K', file: 'scenarios/rate-limit.ts', measures: 'scenario C with the rate limit counted in Redis vs without' },
  { name: 'M', file: 'scenarios/mariadb.ts', measures: 'A, A-none and B-none on MariaDB vs Koa + mysql2 vs raw mysql2' },
  { name: 'memory', file: 'scenarios/memory.ts', measures: 'the compiled service\'s RSS idle, and its peak under A-none, B-none, C and D' },
  { name: 'start', file: 'scenarios/start.ts', measures: 'time to the first /healthz answer of a first start and a restart; worst event-loop block' },
  { name: 'formula', file: 'scenarios/formula-compile.ts', measures: 'formula compile throughput: parse, check and emit for PostgreSQL over 20 formulas' },
  { name: 'import', file: 'scenarios/import.ts', measures: '1M-row CSV import (rows/s, peak RSS), then 1000-row bulk requests vs a raw multi-row INSERT' },
  { name: 'admin', file: 'scenarios/admin-app.ts', measures: 'the admin app\'s first-screen JavaScript and time to the first orders rows in Chromium' },
];

/** Names `--only` takes for several scenarios at once. */
export const GROUPS: Readonly<Record<string, readonly string[]>> = {
  A: ['A', 'A-none'],
  B: ['B-none', 'B-exact', 'B-estimated'],
  reads: ['E', 'F', 'G'],
  'aggregate-export': ['H', 'I'],
  cluster: ['J', 'K'],
};

/** Other spellings of one scenario's name. */
const ALIASES: Readonly<Record<string, string>> = { maria: 'M', mariadb: 'M', mem: 'memory', bulk: 'import' };

const lower = (name: string): string => name.trim().toLowerCase();

/** The scenario names `asked` stands for: a group's members, or the one scenario it names or spells otherwise. */
function namesOf(asked: string): readonly string[] {
  const group = Object.entries(GROUPS).find(([name]) => lower(name) === lower(asked));
  if (group) return group[1];
  const name = ALIASES[lower(asked)] ?? asked;
  const entry = CATALOGUE.find((e) => lower(e.name) === lower(name));
  return entry ? [entry.name] : [];
}

/** The `--only` names that are neither a scenario nor a group. */
export function unknownNames(only: readonly string[] | null): string[] {
  return (only ?? []).filter((asked) => namesOf(asked).length === 0);
}

/** The scenario names `--only` selects (every one without it). */
export function selectNames(only: readonly string[] | null): ReadonlySet<string> {
  return new Set(only ? only.flatMap(namesOf) : CATALOGUE.map((entry) => entry.name));
}

export function formatCatalogue(): string {
  const width = Math.max(...CATALOGUE.map((e) => e.name.length), ...Object.keys(GROUPS).map((g) => g.length));
  return [
    'scenarios (npm run bench -- --only <name>,<name>; without --only every one runs)',
    ...CATALOGUE.map((e) => `  ${e.name.padEnd(width)}  ${e.measures}  [bench/${e.file}]`),
    '',
    'groups',
    ...Object.entries(GROUPS).map(([name, members]) => `  ${name.padEnd(width)}  ${members.join(', ')}`),
    '',
    `also: ${Object.entries(ALIASES).map(([alias, name]) => `${alias} = ${name}`).join(', ')}`,
    '--compare <git ref> measures A–D (default A-none, B-none, C, D) against another commit.',
    'Standalone A/B tools, not part of npm run bench: bench/tools/ (each file says how to run it).',
  ].join('\n');
}
