/**
 * The `where` box's placeholder, made of the entity's own fields: a fixed example named fields an
 * entity may not have (`amount`, `status`), which reads as advice that fails.
 */
const NUMBERS = new Set(['integer', 'bigint', 'decimal', 'float']);
const TEXTS = new Set(['text', 'uuid']);

export function whereExample(fields: readonly { readonly name: string; readonly type: string; readonly primaryKey?: boolean }[]): string {
  const number = fields.find((f) => NUMBERS.has(f.type) && !f.primaryKey) ?? fields.find((f) => NUMBERS.has(f.type));
  const text = fields.find((f) => TEXTS.has(f.type) && !f.primaryKey);
  const parts = [number ? `${number.name} > 0` : null, text ? `${text.name} <> ''` : null].filter((p): p is string => p !== null);
  if (parts.length > 0) return parts.join(' AND ');
  const any = fields[0];
  return any ? `${any.name} IS NOT NULL` : '';
}
