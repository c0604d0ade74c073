/**
 * The one reader of HTTP query parameters. Every route that reads the query string declares the
 * names it knows; a name it does not know, a bracketed form it does not take (`page[]`,
 * `fields[]`, `size[a]`) and a repeated single-valued name (`page=1&page=2`) are 400 naming the
 * parameter, instead of being silently ignored or silently picking one value.
 */
import { badRequest } from '../errors.ts';

/** As node's querystring (Koa's `ctx.query`) gives them: a repeated name arrives as an array. */
export type QueryParams = Readonly<Record<string, string | string[] | undefined>>;

export interface QuerySpec {
  /** Names given at most once. */
  readonly single: readonly string[];
  /** Names that may repeat; their values add up (`sort`). */
  readonly repeatable?: readonly string[];
  /** Bracketed families `name[key]` (`filter[status.eq]`); the caller reads and checks the keys. */
  readonly families?: readonly string[];
}

/**
 * `_` is the cache-buster that jQuery and many HTTP clients append (`?_=1716900000000`); it
 * carries no meaning and is ignored rather than refused (docs/query-planning.md, "Hostile input and query parameters").
 */
const CACHE_BUSTER = '_';
const BRACKETED = /^([^[\]]*)\[(.*)\]$/;

function valuesOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export class QueryReader {
  private readonly families = new Map<string, [string, string[]][]>();

  constructor(private readonly params: QueryParams, private readonly spec: QuerySpec) {
    for (const name of Object.keys(params)) this.admit(name);
  }

  /** Checks one name against the spec; family members are collected for `family()`. */
  private admit(name: string): void {
    if (name === CACHE_BUSTER) return;
    const repeatable = this.spec.repeatable ?? [];
    if (this.spec.single.includes(name)) {
      if (valuesOf(this.params[name]).length > 1) throw badRequest(`query parameter '${name}' may be given only once`);
      return;
    }
    if (repeatable.includes(name)) return;
    const bracketed = BRACKETED.exec(name);
    const base = bracketed?.[1] ?? name;
    if (bracketed && (this.spec.families ?? []).includes(base)) {
      const members = this.families.get(base) ?? [];
      members.push([bracketed[2] ?? '', valuesOf(this.params[name])]);
      this.families.set(base, members);
      return;
    }
    if (this.spec.single.includes(base) || repeatable.includes(base)) {
      throw badRequest(`query parameter '${name}': '${base}' takes no brackets; write ${base}=<value>`);
    }
    if ((this.spec.families ?? []).includes(name)) throw badRequest(`query parameter '${name}' needs a key in brackets: ${name}[<key>]=<value>`);
    throw badRequest(`unknown query parameter '${name}'; known: ${this.known().join(', ')}`);
  }

  private known(): string[] {
    return [...this.spec.single, ...(this.spec.repeatable ?? []), ...(this.spec.families ?? []).map((f) => `${f}[…]`)];
  }

  /** The value of a single-valued name, or undefined when absent. */
  single(name: string): string | undefined {
    return valuesOf(this.params[name])[0];
  }

  /** Every value of a repeatable name, in order. */
  all(name: string): string[] {
    return valuesOf(this.params[name]);
  }

  /** The members of a bracketed family: `[key, values]` in the order they came. */
  family(name: string): readonly [string, string[]][] {
    return this.families.get(name) ?? [];
  }
}
