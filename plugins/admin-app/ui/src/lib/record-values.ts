/**
 * The record form's values: each field edited as text in the shape of its type (JSON as JSON text),
 * turned back into the typed value the API expects, and the body of an edit holding only what the
 * user changed, so columns the user never touched (hidden in the grid, or changed meanwhile by
 * someone else) keep their values.
 */

/** What the values need to know of a field (a FieldInfo of lib/schema.ts is one). */
export interface ValueField {
  readonly name: string;
  readonly type: string;
}

const NUMERIC = new Set(['integer', 'number', 'decimal', 'bigint', 'float']);

export const isNumeric = (field: ValueField): boolean => NUMERIC.has(field.type);

/** The text a field's box shows for a value; an absent or null value is the empty box. */
export function textOf(field: ValueField, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (field.type === 'json') return JSON.stringify(value, null, 2);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export type Parsed = { readonly value: unknown } | { readonly problem: string };

/** The typed value of a box's text; the empty box is null. JSON text must parse: it is sent as JSON, never as a string. */
export function parseText(field: ValueField, text: string): Parsed {
  if (text.trim() === '') return { value: null };
  if (field.type === 'boolean') return { value: text === 'true' };
  if (field.type === 'json') {
    try {
      return { value: JSON.parse(text) as unknown };
    } catch (error) {
      return { problem: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  if (isNumeric(field) && /^-?\d+(\.\d+)?$/.test(text.trim())) return { value: Number(text) };
  return { value: text };
}

/** The problem of each box whose text cannot be sent as its type (invalid JSON). */
export function textProblems(fields: readonly ValueField[], texts: Readonly<Record<string, string>>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const parsed = parseText(field, texts[field.name] ?? '');
    if ('problem' in parsed) problems[field.name] = parsed.problem;
  }
  return problems;
}

/**
 * The body of a write: on an edit, only the fields whose text differs from the text the record was
 * loaded with (the update is partial); on a create, every filled box.
 */
export function bodyOf(fields: readonly ValueField[], texts: Readonly<Record<string, string>>, loaded?: Readonly<Record<string, string>>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const text = texts[field.name] ?? '';
    if (loaded ? text === (loaded[field.name] ?? '') : text.trim() === '') continue;
    const parsed = parseText(field, text);
    if ('value' in parsed) body[field.name] = parsed.value;
  }
  return body;
}
