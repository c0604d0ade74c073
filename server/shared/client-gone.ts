/**
 * A signal aborted when a request's client goes away before its response is finished, so that
 * the statement behind it is cancelled on the database (QueryOptions.signal). Made only by routes
 * whose statements can run long (lists and exports), not for every request.
 */
import type { Context } from 'koa';

export function clientGone(ctx: Context): AbortSignal {
  const res = ctx.res;
  const controller = new AbortController();
  if (res.destroyed && !res.writableFinished) controller.abort();
  else res.once('close', () => res.writableFinished || controller.abort());
  return controller.signal;
}
