/**
 * What a dialect plugin's module exports beside its `Dialect` so the conformance kit
 * (`npm run conformance`, docs/dialects.md "Conformance kit") can build its test tables on the
 * plugin's database. Everything else the kit derives from the dialect itself: quoting,
 * placeholders, table references, value encoding, connecting and introspecting.
 */

/** The column types whose spelling differs between vendors; the kit writes the rest in standard SQL. */
export interface ConformanceTypes {
  /** A true/false column: `boolean`, `tinyint(1)`, `bit`. */
  readonly boolean: string;
  /** A UTC instant with millisecond precision: `timestamptz`, `datetime(3)`, `datetime2(3)`. */
  readonly timestamp: string;
  /** Unbounded unicode text: `text`, `nvarchar(max)`. */
  readonly text: string;
  /** Unicode text of at most `length` characters: `varchar(50)`, `nvarchar(50)`. */
  varchar(length: number): string;
}

export interface ConformanceSupport {
  /** Column definition of an auto-generated integer primary key, e.g. `integer AUTO_INCREMENT PRIMARY KEY`. */
  readonly autoId: string;
  readonly types: ConformanceTypes;
  /** DDL default spellings: `false` of the boolean type and the current instant of the timestamp type. */
  readonly defaults: { readonly false: string; readonly now: string };
  /**
   * A statement moving the id generator of `table` (a quoted, qualified reference) past its
   * largest id after rows were inserted with explicit ids, or null when the vendor does that itself.
   */
  resetIdentity(table: string): string | null;
  /**
   * The kit's private area: by default `CREATE SCHEMA <name>` on the given URL and a workspace
   * with `{url, schema: name}`. A vendor whose schema is the URL's database (MySQL) says so here.
   */
  readonly scratch?: {
    /** The statement creating the area; `quotedName` is already quoted. */
    create?(quotedName: string): string;
    /** The workspace `database` (without `vendor`) that points at the area. */
    database?(url: string, name: string): { readonly url: string; readonly schema?: string };
  };
}
