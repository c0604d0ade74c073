/** Not built yet (issue 17): the routes exist; this screen says where to find them. */
import type { WorkspaceProps } from '../lib/route.ts';

export function ImportScreen({ org, ws }: WorkspaceProps) {
  return (
    <>
      <h1>Import</h1>
      <p>
        This screen of <code>{org}/{ws}</code> is not built yet; the README shows the HTTP routes it will use.
      </p>
    </>
  );
}
