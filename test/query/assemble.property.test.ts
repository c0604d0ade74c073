/**
 * The flat record assembler is generated source (one object literal per read shape): whatever the
 * keys and aliases are, its records must equal the plain loop's, key for key and in order, with
 * Object.prototype as their prototype.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembler, type Column } from '../../core/query/assemble.ts';
import { wireConverter } from '../../core/schema/values.ts';

const text = wireConverter('text', false);

/** What the generated assembler must give: one own key per column, in column order, values as converted. */
function reference(columns: readonly Column[], row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const column of columns) Object.defineProperty(record, column.key as string, { value: text(row[column.alias]), enumerable: true, writable: true, configurable: true });
  return record;
}

const awkward = fc.constantFrom('__proto__', 'constructor', 'toString', '', '"', "'", '\\', '`${x}`', '\u2028', '}; throw 1; {', '0', 'a b', '😀');
const name = fc.oneof(awkward, fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 }));

const shape = fc.uniqueArray(fc.record({ key: name, alias: name }), { minLength: 1, maxLength: 8, selector: (c) => c.key }).filter((cs) => new Set(cs.map((c) => c.alias)).size === cs.length);

describe('flat record assembler', () => {
  it('gives the loop\'s records for any keys and aliases', () => {
    fc.assert(
      fc.property(shape, fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { minLength: 8, maxLength: 8 }), (names, values) => {
        const columns: Column[] = names.map(({ key, alias }) => ({ alias, key, path: [], type: 'text' }));
        const row = Object.fromEntries(names.map(({ alias }, i) => [alias, values[i]]));
        const [record] = assembler(columns, false)([row]);
        const expected = reference(columns, row);
        expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
        expect(Object.keys(record ?? {})).toEqual(Object.keys(expected));
        for (const key of Object.keys(expected)) expect(Object.getOwnPropertyDescriptor(record, key)?.value).toEqual(expected[key]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('expanded record assembler', () => {
  it('keeps a relationship or a column named __proto__ as a key, never as a prototype', () => {
    const columns: Column[] = [
      { alias: 'c0', key: 'id', path: [], type: 'integer' },
      { alias: 'c1', key: null, path: ['__proto__'], type: 'integer' },
      { alias: 'c2', key: '__proto__', path: ['__proto__'], type: 'text' },
      { alias: 'c3', key: 'name', path: ['__proto__'], type: 'text' },
    ];
    const [record] = assembler(columns, false)([{ c0: 1, c1: 7, c2: 'x', c3: 'y' }]);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    const child = Object.getOwnPropertyDescriptor(record, '__proto__')?.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(child)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(child, '__proto__')?.value).toBe('x');
    expect(JSON.parse(JSON.stringify(record))).toEqual(JSON.parse('{"id":1,"__proto__":{"__proto__":"x","name":"y"}}'));
  });
});
