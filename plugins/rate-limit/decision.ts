/**
 * What the limiter answered for one request, and the headers that tell the client
 * (draft IETF RateLimit fields: the limit, what is left, seconds until the window resets).
 */
export interface LimitDecision {
  readonly allowed: boolean;
  /** Requests allowed per window. */
  readonly limit: number;
  readonly remaining: number;
  /** Milliseconds until the window resets. */
  readonly resetMs: number;
}

/** Whole seconds, never 0 while a window is open: a client told "0" would retry at once. */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

export function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(Math.max(0, decision.remaining)),
    'RateLimit-Reset': String(seconds(decision.resetMs)),
  };
  if (!decision.allowed) headers['Retry-After'] = String(seconds(decision.resetMs));
  return headers;
}
