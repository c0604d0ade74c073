/** Records of the control store (DESIGN §2, §10, §12). */
import type { DatabaseSchema } from '../schema/introspection.ts';
import type { EntityOptions } from '../schema/entity-options.ts';

export interface OrgRecord {
  id: string;
  slug: string;
  name: string;
}

export interface WorkspaceRecord {
  id: string;
  orgId: string;
  orgSlug: string;
  slug: string;
  name: string;
  database: { vendor: string; url?: string; schema?: string; poolSize?: number };
  introspection: DatabaseSchema | null;
  schemaHash: string | null;
  /** Bumped on every metadata change; instances reload when it moves. */
  version: number;
}

export interface MigrationFlag {
  blocksReads: boolean;
  blocksWrites: boolean;
  retryAfterSeconds: number;
}

export interface EntityRecord {
  workspaceId: string;
  name: string;
  table: string;
  options: EntityOptions;
  migration: MigrationFlag | null;
}

export interface ViewRecord {
  uuid: string;
  workspaceId: string;
  slug: string;
  name: string;
  entity: string;
  isDefault: boolean;
}

export type ColumnKind = 'FIELD' | 'RELATIONSHIP' | 'COMPUTED' | 'GROUP';

export interface ColumnRecord {
  uuid: string;
  viewUuid: string;
  kind: ColumnKind;
  fieldName: string;
  displayName: string;
  formula: string | null;
  widgetType: string;
  members: string[] | null;
  position: number;
  /** Why a computed column no longer compiles (e.g. a column it used was removed). */
  broken: string | null;
}

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string | null;
  secretHash: string;
}


export type ExternalPermissions = 'READ_ONLY' | 'READ_WRITE';

/** Per-workspace external identity provider (spec "External identity provider configuration"). */
export interface IdentityProviderConfig {
  issuerUrl: string;
  jwksUri: string | null;
  audience: string | null;
  defaultPermissions: ExternalPermissions;
  enabled: boolean;
}

/** RLS rule record (DESIGN §12): `column` is the table column name. */
export interface RlsRuleRecord {
  id: string;
  viewUuid: string;
  column: string;
  claim: string;
  enabled: boolean;
}
