/**
 * Row-level security as a plan policy: owners bypass it; external users get the view's rules as
 * predicates on every node (issue 6 fills in the rules).
 */
import type { WorkspaceRuntime } from '../../core/control/runtime.ts';
import type { ReadPolicy } from '../../core/query/plan.ts';
import { NO_POLICY } from '../../core/query/read.ts';
import { OPEN_WRITE_POLICY, type WritePolicy } from '../../core/write/records.ts';
import type { Principal } from '../auth/auth-plugin.ts';

export interface Policies {
  readonly read: ReadPolicy;
  readonly write: WritePolicy;
}

export function policiesFor(_principal: Principal, _runtime: WorkspaceRuntime): Policies {
  return { read: NO_POLICY, write: OPEN_WRITE_POLICY };
}
