/** Links to the same screen for each entity of the workspace. */
import { href, type WorkspaceScreen } from '../lib/route.ts';
import type { EntityInfo } from '../lib/schema.ts';

export function EntityPicker({ org, ws, screen, entities, current }: { org: string; ws: string; screen: WorkspaceScreen; entities: readonly EntityInfo[]; current: string | undefined }) {
  return (
    <nav aria-label="Entities" class="toolbar">
      <span>Entity:</span>
      {entities.map((e) => (
        <a key={e.name} href={href({ screen, org, ws, entity: e.name })} aria-current={e.name === current ? 'page' : undefined}>
          {e.name}
        </a>
      ))}
    </nav>
  );
}
