// The folder graph of the product code, for the layering check (test/ops/layering.ts).
//
// A folder here is a file's direct folder: core/query/read.ts is in core/query, core/errors.ts in
// core. So `server → server/routes` and `server/routes → server` are two arrows and make a cycle,
// which dependency-cruiser's own folder scope (a folder includes its subfolders) cannot see.

type Edge = readonly [from: string, to: string];

function folderOf(file: string): string {
  return file.slice(0, file.lastIndexOf('/'));
}

/** Distinct arrows between two different folders, as `from → to`, sorted. */
export function folderArrows(fileEdges: readonly Edge[]): string[] {
  return folderEdges(fileEdges).map(describeArrow);
}

/** The folder arrows that lie on a cycle (both ends in one strongly connected component). */
export function folderCycleArrows(fileEdges: readonly Edge[]): string[] {
  const edges = folderEdges(fileEdges);
  const component = stronglyConnectedComponents(edges);
  return edges.filter(([from, to]) => component.get(from) === component.get(to)).map(describeArrow);
}

function describeArrow([from, to]: Edge): string {
  return `${from} → ${to}`;
}

/** Distinct folder-to-folder edges, sorted, without a folder's imports of itself. */
function folderEdges(fileEdges: readonly Edge[]): Edge[] {
  const distinct = new Map<string, Edge>();
  for (const [fromFile, toFile] of fileEdges) {
    const edge: Edge = [folderOf(fromFile), folderOf(toFile)];
    if (edge[0] !== edge[1]) distinct.set(describeArrow(edge), edge);
  }
  return [...distinct.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, edge]) => edge);
}

/** Tarjan's algorithm: maps every folder to the number of its strongly connected component. */
function stronglyConnectedComponents(edges: readonly Edge[]): Map<string, number> {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const nodes = [...new Set(edges.flat())].sort();
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const component = new Map<string, number>();
  let components = 0;

  const visit = (node: string): void => {
    index.set(node, index.size);
    lowLink.set(node, index.get(node) ?? 0);
    stack.push(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(node, Math.min(lowLink.get(node) ?? 0, lowLink.get(target) ?? 0));
      } else if (stack.includes(target)) {
        lowLink.set(node, Math.min(lowLink.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (lowLink.get(node) !== index.get(node)) return;
    const id = components++;
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member !== undefined) component.set(member, id);
    } while (member !== undefined && member !== node);
  };

  for (const node of nodes) if (!index.has(node)) visit(node);
  return component;
}
