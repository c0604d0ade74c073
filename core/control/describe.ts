/** The schema as the admin API shows it: entities, fields, relationships and keys in API names. */
import type { WorkspaceRuntime } from '../workspace/runtime.ts';

export function describeSchema(runtime: WorkspaceRuntime) {
  return {
    hash: runtime.workspace.schemaHash,
    entities: [...runtime.model.entities.values()].map((entity) => ({
      name: entity.name,
      table: entity.table,
      fields: entity.fields.map((f) => ({
        name: f.name, column: f.column, type: f.type, nativeType: f.nativeType, nullable: f.nullable,
        maxLength: f.maxLength, primaryKey: f.primaryKey, autoIncrement: f.autoIncrement,
        autoTimestamp: f.autoTimestamp, generated: f.generated, hasDefault: f.hasDefault,
      })),
      relationships: [...entity.relationships.values()],
      uniqueKeys: entity.uniqueKeys,
      options: runtime.entityRecord(entity.name).options,
      // The migration flag as set, or null: a screen shows it without asking GET …/migration for a 404.
      migration: runtime.entityRecord(entity.name).migration ?? null,
    })),
    skippedTables: runtime.model.skipped,
  };
}
