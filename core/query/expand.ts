/**
 * The relationship paths of `expand` in both directions (spec "Expansion rules", DESIGN §12–13):
 * each hop is checked against its parent's whitelist, the whole path against the root's maximum
 * depth (every hop counts, many-to-one or one-to-many), and each entity reached against its
 * migration flag. A path leaves its statement at its first one-to-many hop: what follows is read
 * by the items' own statement (core/query/items.ts).
 */
import { ApiError, badRequest } from '../errors.ts';
import type { Relationship } from '../schema/model.ts';
import type { ReadScope, ViewShape } from './plan.ts';

type Kind = Relationship['kind'];

export interface Expansions {
  /** Every expanded path with the kind of each hop, in request order. */
  readonly list: readonly { readonly path: readonly string[]; readonly kinds: readonly Kind[] }[];
  /** Every expanded path and prefix, dotted, both directions. */
  readonly paths: ReadonlySet<string>;
  /** The one-to-many paths among them: the keys of `expandSize[…]` and `meta.expandSizes`. */
  readonly arrays: ReadonlySet<string>;
}

export function migrationBlocksReads(view: ViewShape): void {
  const flag = view.migration;
  if (flag?.blocksReads) {
    throw new ApiError('SCHEMA_MIGRATION_IN_PROGRESS', `entity '${view.entity.name}' is being migrated; reads are blocked`, undefined, {
      retryAfterSeconds: flag.retryAfterSeconds,
      blocksReads: flag.blocksReads,
      blocksWrites: flag.blocksWrites,
    });
  }
}

/** The view reached from the root by relationship names of either direction. */
export function viewAlong(scope: ReadScope, path: readonly string[]): ViewShape {
  let view = scope.root;
  for (const hop of path) {
    const relationship = view.entity.relationships.get(hop);
    if (!relationship) throw new Error(`'${path.join('.')}' is not a relationship path`);
    view = scope.defaultView(relationship.target);
  }
  return view;
}

function allowedHops(view: ViewShape): readonly string[] {
  return view.options.expandable ?? [...view.entity.relationships.keys()];
}

function checkHop(view: ViewShape, hop: string, expression: string): Relationship {
  const relationship = view.entity.relationships.get(hop);
  const allowed = allowedHops(view);
  if (!relationship || !allowed.includes(hop)) {
    const list = allowed.length > 0 ? allowed.join(', ') : '(none)';
    throw badRequest(`cannot expand '${expression}': '${hop}' is not an expandable relationship of '${view.entity.name}'; allowed: ${list}`);
  }
  return relationship;
}

export function planExpansions(scope: ReadScope, expand: readonly (readonly string[])[]): Expansions {
  const maxDepth = scope.root.options.maxExpandDepth;
  const list: { path: readonly string[]; kinds: Kind[] }[] = [];
  const paths = new Set<string>();
  const arrays = new Set<string>();
  for (const path of expand) {
    const expression = path.join('.');
    if (path.length > maxDepth) {
      throw badRequest(`expansion '${expression}' is ${path.length} levels deep; the maximum expand depth of '${scope.root.entity.name}' is ${maxDepth}`);
    }
    let view = scope.root;
    const kinds: Kind[] = [];
    path.forEach((hop, i) => {
      const relationship = checkHop(view, hop, expression);
      view = scope.defaultView(relationship.target);
      migrationBlocksReads(view);
      kinds.push(relationship.kind);
      const key = path.slice(0, i + 1).join('.');
      paths.add(key);
      if (relationship.kind === 'oneToMany') arrays.add(key);
    });
    list.push({ path, kinds });
  }
  return { list, paths, arrays };
}

/**
 * The many-to-one joins the statement rooted at `base` (the request root, or an array path)
 * reads: of every expanded path through `base`, the many-to-one hops that follow it up to the
 * next one-to-many hop, relative to `base`.
 */
export function joinsUnder(expansions: Expansions, base: readonly string[]): string[][] {
  const joins: string[][] = [];
  for (const { path, kinds } of expansions.list) {
    if (path.length <= base.length || base.some((hop, i) => path[i] !== hop)) continue;
    let end = base.length;
    while (end < path.length && kinds[end] === 'manyToOne') end += 1;
    if (end > base.length) joins.push(path.slice(base.length, end));
  }
  return joins;
}
