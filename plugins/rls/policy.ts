/**
 * Row-level security as a plan policy (spec "Authentication" rule 7, DESIGN §10, §12). Owners
 * bypass it. For an external user, every enabled rule of the entity becomes `column = claim` on
 * every node that reads the entity (root, count, expansions, update, delete), and writes get the
 * rule columns set from, or checked against, the claims. Nothing is filtered in memory.
 *
 * The rules of an entity are those of its default view; a request through another view of the
 * same entity adds that view's rules and never drops the entity's (a second
 * view without rules must not open the table).
 */
import type { WorkspaceRuntime } from '../../core/workspace/runtime.ts';
import type { RlsRuleRecord } from '../../core/workspace/types.ts';
import { ApiError } from '../../core/errors.ts';
import { NO_POLICY, type Predicate, type ReadPolicy } from '../../core/query/plan.ts';
import type { Entity, Field } from '../../core/schema/model.ts';
import { parseScalar } from '../../core/schema/coerce.ts';
import { OPEN_WRITE_POLICY, type WritePolicy } from '../../core/write/records.ts';
import type { RowValues } from '../../core/write/validate.ts';
import type { Principal } from '../auth/shared/auth-plugin.ts';
import { claimAt } from '../auth/shared/jwt-shape.ts';

export interface Policies {
  readonly read: ReadPolicy;
  readonly write: WritePolicy;
}

interface BoundRule {
  readonly rule: RlsRuleRecord;
  readonly field: Field | undefined;
  /** The claim coerced to the column's type; undefined when missing or not coercible. */
  readonly expected: unknown;
}

function bindRule(entity: Entity, rule: RlsRuleRecord, claims: Readonly<Record<string, unknown>>): BoundRule {
  const field = entity.fields.find((f) => f.column === rule.column);
  const claim = claimAt(claims, rule.claim);
  if (!field || claim === undefined || claim === null || typeof claim === 'object') return { rule, field, expected: undefined };
  const coerced = parseScalar(field.type, typeof claim === 'boolean' ? claim : String(claim), { fromText: true });
  return { rule, field, expected: coerced.ok ? coerced.value : undefined };
}

function predicateOf(bound: BoundRule, entity: Entity): Predicate {
  const field = bound.field ?? entity.idField;
  const target = { kind: 'field' as const, hops: [], field };
  return bound.expected === undefined ? { target, op: 'never', value: null } : { target, op: 'eq', value: bound.expected };
}

function sameValue(a: unknown, b: unknown): boolean {
  return String(a) === String(b);
}

function forbidden(bound: BoundRule): ApiError {
  if (bound.expected === undefined) return new ApiError('FORBIDDEN', `row-level security: the token has no usable '${bound.rule.claim}' claim`);
  return new ApiError('FORBIDDEN', `row-level security: ${bound.field?.name ?? bound.rule.column} must equal the token's '${bound.rule.claim}' claim`);
}

/**
 * The enabled rules that guard `entity` for a request through `viewUuid`: the default view's,
 * plus the named view's own when it is another view of the same entity. Expansions into other
 * entities get those entities' default-view rules.
 */
export function rulesFor(runtime: WorkspaceRuntime, entity: Entity, viewUuid?: string): RlsRuleRecord[] {
  const defaultUuid = runtime.defaultViewRecord(entity.name)?.uuid;
  const uuids = [defaultUuid];
  if (viewUuid && viewUuid !== defaultUuid && runtime.view(viewUuid)?.entity === entity.name) uuids.push(viewUuid);
  return uuids.flatMap((uuid) => (uuid ? runtime.rulesByView.get(uuid) ?? [] : [])).filter((r) => r.enabled);
}

/** Owners and the instance admin: no row policy; one object for every such request. */
const OWNER_POLICIES: Policies = Object.freeze({ read: NO_POLICY, write: OPEN_WRITE_POLICY });

export function policiesFor(principal: Principal, runtime: WorkspaceRuntime, viewUuid?: string): Policies {
  if (principal.kind !== 'external') return OWNER_POLICIES;
  const claims = principal.claims;
  const rulesOf = (entity: Entity): BoundRule[] => rulesFor(runtime, entity, viewUuid).map((r) => bindRule(entity, r, claims));
  return {
    read: { rowPredicates: (entity) => rulesOf(entity).map((bound) => predicateOf(bound, entity)) },
    write: {
      // The rule column is set from the claim (spec rule 7) before validation, so a NOT NULL rule
      // column is not "required" and an unusable claim is 403 rather than a validation error.
      completeCreate(entity: Entity, body: Record<string, unknown>): Record<string, unknown> {
        const rules = rulesOf(entity);
        for (const bound of rules) if (!bound.field || bound.expected === undefined) throw forbidden(bound);
        const filled = { ...body };
        for (const bound of rules) {
          const name = bound.field?.name ?? bound.rule.column;
          if (!(name in filled)) filled[name] = bound.expected;
        }
        return filled;
      },
      prepareCreate(entity: Entity, values: RowValues): void {
        for (const bound of rulesOf(entity)) {
          if (!bound.field || bound.expected === undefined) throw forbidden(bound);
          if (values.has(bound.field) && !sameValue(values.get(bound.field), bound.expected)) throw forbidden(bound);
          values.set(bound.field, bound.expected);
        }
      },
      checkUpdate(entity: Entity, values: RowValues): void {
        for (const bound of rulesOf(entity)) {
          if (bound.field && values.has(bound.field) && !sameValue(values.get(bound.field), bound.expected)) throw forbidden(bound);
        }
      },
    },
  };
}
