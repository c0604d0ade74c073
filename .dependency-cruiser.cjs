// The layering of the product code (issue 13, item 9), checked by test/ops/layering.test.ts.
//
// Rooms from the bottom up; an import may point to its own room or a lower one, never up.
// The order is the one place the layering is written down: the rules below are derived from it.
// Vendor folders (dialects/<vendor>/) are a room of their own with stricter rules (see below),
// so they are left out of the order's targets and handled by two dedicated rules.
//
// Folder cycles are checked by the test (test/ops/layering.ts) on the graph of direct folders:
// dependency-cruiser's own folder scope counts a folder's subfolders as part of it, so it would
// call core/ <-> dialects/ a cycle although every arrow between those rooms points down.
//
// bench/ is not product code; it has rooms of its own (BENCH_ROOMS below). test/ is not cruised.

/** @type {ReadonlyArray<{ name: string, path: string }>} */
const ROOMS = [
  { name: 'ground', path: '^core/[^/]+$' }, // errors, sql, payload, single-flight
  { name: 'schema', path: '^core/schema/' },
  { name: 'formula', path: '^core/formula/' },
  { name: 'seam', path: '^dialects/[^/]+$' }, // the Dialect interface, connection URLs
  // (vendor folders sit here: only the rooms above may reach them, through server/)
  { name: 'workspace', path: '^core/workspace/' }, // records, store, runtime cache, pool owner
  { name: 'query', path: '^core/query/' },
  { name: 'events', path: '^core/events/' }, // change events: capture, positions, the feed
  { name: 'write', path: '^core/write/' },
  { name: 'import', path: '^core/import/' },
  { name: 'control', path: '^core/control/' }, // admin use-cases only
  { name: 'plugins', path: '^plugins/' },
  { name: 'server', path: '^(server|cli)/' },
];

const VENDOR = '^dialects/[^/]+/';
const PRODUCT = '^(core|dialects|plugins|server|cli)/';
const BELOW_VENDORS = ROOMS.slice(0, 4).map((room) => room.path);

const either = (paths) => paths.map((path) => `(${path})`).join('|');
const PLACED = either([...ROOMS.map((room) => room.path), VENDOR]);

/** One rule per room: nothing it imports may live in a room above it. */
const upwardRules = ROOMS.slice(0, -1).map((room, index) => ({
  name: `upward-from-${room.name}`,
  comment: `${room.name} may import only its own room and the rooms below it`,
  severity: 'error',
  from: { path: room.path },
  to: { path: either(ROOMS.slice(index + 1).map((higher) => higher.path)) },
}));

// The benchmarks: the harness (load, processes, statistics, reports) under the floors (the
// hand-written routes and SQL a scenario is measured against) under the scenarios; the entry
// points (bench/run.ts, bench/catalogue.ts) and the standalone tools in bench/tools/ on top.
const BENCH_ROOMS = [
  { name: 'bench-harness', path: '^bench/harness/' },
  { name: 'bench-floors', path: '^bench/floors/' },
  { name: 'bench-scenarios', path: '^bench/scenarios/' },
  { name: 'bench-entry', path: '^bench/(tools/|[^/]+$)' },
];

const benchRules = BENCH_ROOMS.slice(0, -1).map((room, index) => ({
  name: `upward-from-${room.name}`,
  comment: `${room.name} may import only its own room and the bench rooms below it`,
  severity: 'error',
  from: { path: room.path },
  to: { path: either(BENCH_ROOMS.slice(index + 1).map((higher) => higher.path)) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import cycle between files, type-only imports included',
      severity: 'error',
      from: { path: PRODUCT },
      to: { circular: true },
    },
    ...upwardRules,
    ...benchRules,
    {
      name: 'vendor-beyond-seam',
      comment:
        'a vendor folder imports only the ground floor, schema, formula, the seam and its own folder',
      severity: 'error',
      from: { path: '^dialects/([^/]+)/' },
      to: { path: PRODUCT, pathNot: `${either(BELOW_VENDORS)}|(^dialects/$1/)` },
    },
    {
      name: 'vendor-outside-server',
      comment: 'only server/ (the dialect registry) picks a vendor; core, plugins and the seam do not',
      severity: 'error',
      from: { path: PRODUCT, pathNot: `^(server|cli)/|${VENDOR}` },
      to: { path: VENDOR },
    },
    {
      name: 'cli-beyond-http',
      comment: 'the CLI talks to the service over HTTP: it imports no product code but its own',
      severity: 'error',
      from: { path: '^cli/' },
      to: { path: '^(core|dialects|plugins|server)/' },
    },
    {
      name: 'unplaced-source',
      comment: 'a product folder missing from ROOMS imports product code: place it in the order',
      severity: 'error',
      from: { path: PRODUCT, pathNot: PLACED },
      to: { path: PRODUCT },
    },
    {
      name: 'unplaced-target',
      comment: 'product code imports a folder missing from ROOMS: place it in the order',
      severity: 'error',
      from: { path: PLACED },
      to: { path: PRODUCT, pathNot: PLACED },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The admin application's built bundle (plugins/admin-app/ui/dist) is output, not source.
    exclude: { path: '^(node_modules|test|dist)/|^plugins/admin-app/ui/dist/' },
    // Type-only imports count: a type import that points up is still an upward dependency.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
