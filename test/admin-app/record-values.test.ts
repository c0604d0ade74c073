/** The record form's values (plugins/admin-app/ui/src/lib/record-values.ts), without a browser. */
import { describe, expect, it } from 'vitest';
import { bodyOf, parseText, textOf, textProblems, type ValueField } from '../../plugins/admin-app/ui/src/lib/record-values.ts';

const field = (name: string, type: string): ValueField => ({ name, type });
const fields = [field('name', 'text'), field('regionId', 'integer'), field('vip', 'boolean'), field('prefs', 'json')];

describe('record form values', () => {
  it('an edit sends only the fields whose text changed', () => {
    const loaded = { name: 'Alan', regionId: '3', vip: 'true', prefs: textOf(fields[3]!, { award: 'none' }) };
    expect(bodyOf(fields, { ...loaded, name: 'Alan T.' }, loaded)).toEqual({ name: 'Alan T.' });
    expect(bodyOf(fields, loaded, loaded)).toEqual({});
    expect(bodyOf(fields, { ...loaded, regionId: '' }, loaded)).toEqual({ regionId: null });
  });

  it('JSON is shown as JSON text and sent as the JSON value, never as a string', () => {
    const prefs = fields[3]!;
    expect(textOf(prefs, { award: 'none' })).toBe('{\n  "award": "none"\n}');
    expect(parseText(prefs, '{"award":"gold","years":[2024]}')).toEqual({ value: { award: 'gold', years: [2024] } });
    expect(parseText(prefs, '"just text"')).toEqual({ value: 'just text' });
    expect(bodyOf(fields, { prefs: '[1, 2]' }, { prefs: '' })).toEqual({ prefs: [1, 2] });
  });

  it('invalid JSON is a problem at its field and is not sent', () => {
    expect(textProblems(fields, { prefs: '{"award": gold}' }).prefs).toMatch(/^not valid JSON/);
    expect(textProblems(fields, { prefs: '{"award": "gold"}' })).toEqual({});
    expect(bodyOf(fields, { prefs: '{bad' }, { prefs: '' })).toEqual({});
  });

  it('a create sends the filled boxes, typed', () => {
    expect(bodyOf(fields, { name: 'New', regionId: '2', vip: 'false', prefs: '' })).toEqual({ name: 'New', regionId: 2, vip: false });
  });
});
