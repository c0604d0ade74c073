/** JSON Schema pieces of the OpenAPI document: one place for how a column type looks on the wire (DESIGN §4). */
import type { ValueType } from '../../core/query/plan.ts';
import type { Field } from '../../core/schema/model.ts';

export type JsonSchema = Record<string, unknown>;

function nullable(schema: JsonSchema, isNullable: boolean): JsonSchema {
  if (!isNullable) return schema;
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

export function fieldSchema(field: Field): JsonSchema {
  let schema: JsonSchema;
  switch (field.type) {
    case 'integer':
      schema = { type: 'integer' };
      break;
    case 'bigint':
      // Within ±(2^53−1) a number, beyond it a string of digits.
      schema = { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?[0-9]+$' }] };
      break;
    case 'decimal':
    case 'float':
      schema = { type: 'number' };
      break;
    case 'boolean':
      schema = { type: 'boolean' };
      break;
    case 'date':
      schema = { type: 'string', format: 'date' };
      break;
    case 'timestamp':
      schema = { type: 'string', format: 'date-time' };
      break;
    case 'uuid':
      schema = { type: 'string', format: 'uuid' };
      break;
    case 'json':
      schema = {};
      break;
    case 'binary':
      schema = { type: 'string', contentEncoding: 'base64' };
      break;
    default:
      schema = { type: 'string', ...(field.maxLength !== null ? { maxLength: field.maxLength } : {}), ...(field.enumValues ? { enum: [...field.enumValues] } : {}) };
  }
  if (field.type === 'json') return schema;
  return nullable(schema, field.nullable);
}

export function computedSchema(type: ValueType | 'null'): JsonSchema {
  const base: Record<ValueType | 'null', JsonSchema> = {
    text: { type: ['string', 'null'] },
    number: { type: ['number', 'null'] },
    boolean: { type: ['boolean', 'null'] },
    date: { type: ['string', 'null'], format: 'date' },
    timestamp: { type: ['string', 'null'], format: 'date-time' },
    null: { type: 'null' },
  };
  return { ...base[type], readOnly: true };
}

export function errorSchemas(): Record<string, JsonSchema> {
  return {
    Error: {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'string' }, message: { type: 'string' }, details: {} },
        },
        retryAfterSeconds: { type: 'integer' },
        blocksReads: { type: 'boolean' },
        blocksWrites: { type: 'boolean' },
      },
    },
    Meta: {
      type: 'object',
      required: ['page', 'size', 'totalElements', 'totalPages', 'countMode'],
      properties: {
        page: { type: ['integer', 'null'], minimum: 0, description: 'null in cursor paging' },
        size: { type: 'integer', minimum: 1, maximum: 1000 },
        totalElements: { type: ['integer', 'null'] },
        totalPages: { type: ['integer', 'null'] },
        countMode: { type: 'string', enum: ['exact', 'estimated', 'none'] },
        nextCursor: { type: ['string', 'null'], description: 'Cursor paging only: after=<nextCursor> gives the next page; null on the page holding the last row' },
        expandSizes: { type: 'object', additionalProperties: { type: 'integer' }, description: 'With one-to-many expansion: the item limit applied to each array path' },
      },
    },
  };
}
