/** Public surface of core/schema: the introspection result, the entity model and what derives one from the other. */
export type {
  ColumnInfo,
  ColumnType,
  DatabaseSchema,
  ForeignKeyInfo,
  TableInfo,
  UniqueKeyInfo,
} from './introspection.ts';
export type { Entity, Field, Relationship, SchemaModel, UniqueKey } from './model.ts';
export { buildModel } from './build-model.ts';
export { camelCase, defaultViewSlug, displayName, kebabCase, pascalCase } from './names.ts';
export { schemaHash } from './hash.ts';
export { COLUMN_PROPERTIES, diffSchemas, hasDrift } from './drift.ts';
export type {
  ColumnDrift,
  ColumnProperty,
  ConstraintDrift,
  Drift,
  PropertyChange,
  PropertyValue,
  TableDrift,
} from './drift.ts';
