/**
 * SQL exists only as fragments: literal text, bound parameters and identifiers.
 * Identifiers stay abstract until a dialect renders the fragment, so shared code
 * never quotes or numbers placeholders itself (the Kysely seam).
 */
export type SqlPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'param'; readonly value: unknown }
  | { readonly kind: 'ident'; readonly names: readonly string[] }
  /** A nested fragment, kept by reference so composing never copies (flattened by render). */
  | { readonly kind: 'fragment'; readonly fragment: Sql };

export interface Sql {
  readonly parts: readonly SqlPart[];
}

/** A rendered statement: vendor text with placeholders and the values bound to them. */
export interface CompiledSql {
  readonly text: string;
  readonly params: readonly unknown[];
}

/** What rendering needs from a dialect. */
export interface SqlRenderer {
  quoteIdent(name: string): string;
  placeholder(index: number): string;
}

const EMPTY: Sql = { parts: [] };

function isSql(value: unknown): value is Sql {
  return typeof value === 'object' && value !== null && Array.isArray((value as Sql).parts);
}

/** Tagged template: interpolated `Sql` values are spliced, anything else is bound as a parameter. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  const parts: SqlPart[] = [];
  strings.forEach((text, i) => {
    if (text) parts.push({ kind: 'text', text });
    if (i < values.length) {
      const value = values[i];
      if (isSql(value)) parts.push({ kind: 'fragment', fragment: value });
      else parts.push({ kind: 'param', value });
    }
  });
  return { parts };
}

export function raw(text: string): Sql {
  return text ? { parts: [{ kind: 'text', text }] } : EMPTY;
}

export function param(value: unknown): Sql {
  return { parts: [{ kind: 'param', value }] };
}

/** A (possibly qualified) identifier, e.g. ident('t0', 'name') renders as "t0"."name". */
export function ident(...names: string[]): Sql {
  return { parts: [{ kind: 'ident', names }] };
}

export function join(items: readonly Sql[], separator = ', '): Sql {
  const parts: SqlPart[] = [];
  items.forEach((item, i) => {
    if (i > 0 && separator) parts.push({ kind: 'text', text: separator });
    parts.push({ kind: 'fragment', fragment: item });
  });
  return { parts };
}

export const empty = EMPTY;

function renderInto(fragment: Sql, renderer: SqlRenderer, out: { text: string[]; params: unknown[] }): void {
  for (const part of fragment.parts) {
    switch (part.kind) {
      case 'text':
        out.text.push(part.text);
        break;
      case 'ident':
        out.text.push(part.names.map((n) => renderer.quoteIdent(n)).join('.'));
        break;
      case 'fragment':
        renderInto(part.fragment, renderer, out);
        break;
      default:
        out.params.push(part.value);
        out.text.push(renderer.placeholder(out.params.length));
    }
  }
}

export function render(fragment: Sql, renderer: SqlRenderer): CompiledSql {
  const out = { text: [] as string[], params: [] as unknown[] };
  renderInto(fragment, renderer, out);
  return { text: out.text.join(''), params: out.params };
}
