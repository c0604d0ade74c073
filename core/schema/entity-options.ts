/**
 * Per-entity options an admin sets (DESIGN §12 "Admin"): expansion defaults, whitelist and depth,
 * default fields, count mode, constraints and field validators. Part of the model every floor
 * above reads; reading them from an admin payload is core/control/entity-options.ts.
 */

export type CountMode = 'exact' | 'estimated' | 'none';

/**
 * How writes to the entity become change events (docs/change-events.md): `off`, `api` (the service
 * appends them in each write's transaction) or `database` (row triggers; not offered yet).
 */
export type EventCapture = 'off' | 'api' | 'database';

export interface EntityOptions {
  defaultExpand: string[] | null;
  expandable: string[] | null;
  maxExpandDepth: number;
  defaultFields: string[] | null;
  countMode: CountMode | null;
  constraints: { name: string; formula: string; message?: string }[] | null;
  validators: Record<string, FieldValidator> | null;
  events: EventCapture;
}

export interface FieldValidator {
  email?: boolean;
  pattern?: string;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  enum?: (string | number)[];
}

export const DEFAULT_ENTITY_OPTIONS: EntityOptions = {
  defaultExpand: null,
  expandable: null,
  maxExpandDepth: 3,
  defaultFields: null,
  countMode: null,
  constraints: null,
  validators: null,
  events: 'off',
};
