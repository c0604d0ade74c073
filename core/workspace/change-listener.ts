/**
 * Hears every control-store change on one dedicated connection (DESIGN §16) and drops at once what
 * the change touched. While that connection is down the cache falls back to its one-second version
 * check; the listener reconnects with backoff and, once listening again, drops everything, since
 * changes made meanwhile were not heard.
 */
import { parseChangeNotice, type ChangeNotice } from './change-notice.ts';

/** The dedicated connection, already listening on the change channel. */
export interface ChangeSession {
  /** A round trip, to notice a connection that died without a word (half-open TCP). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface ChangeSessionHandlers {
  onPayload(payload: string): void;
  /** The connection ended without close(). */
  onLost(): void;
}

export type OpenChangeSession = (handlers: ChangeSessionHandlers) => Promise<ChangeSession>;

/** What the listener drives: the workspace cache (core/workspace/cache.ts). */
export interface ChangeTarget {
  invalidate(workspaceId: string): void;
  /** True while every change is heard; turning true drops everything cached. */
  setListening(listening: boolean): void;
}

/**
 * Per-instance state held beside the workspace cache (the API key cache): told every notice, and
 * told whenever listening starts or stops, so it can hold entries only while every change is heard.
 */
export interface ChangeFollower {
  hear(notice: ChangeNotice): void;
  setListening(listening: boolean): void;
}

export type ChangeEvent = 'listening' | 'lost' | 'connect-failed' | 'bad-payload' | 'subscriber-failed';

export interface ChangeListenerOptions {
  readonly open: OpenChangeSession;
  readonly target: ChangeTarget;
  /** Told of connection events and ignored payloads (the service logs them). */
  readonly report?: (event: ChangeEvent, details: Record<string, unknown>) => void;
  /** Reconnect delay: doubles per failed attempt in a row, from initialMs up to maxMs. */
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  readonly heartbeatMs?: number;
}

const BACKOFF = { initialMs: 100, maxMs: 5000 };
/** A ping unanswered this long counts as a lost connection. */
const PING_TIMEOUT_MS = 2000;
const HEARTBEAT_MS = 5000;

export class ChangeListener {
  /** Notifications heard and understood (for /metrics). */
  received = 0;
  /** Payloads that were not a notice (logged and skipped). */
  ignored = 0;
  /** Connections opened after the first. */
  reconnects = 0;
  private session: ChangeSession | undefined;
  private attempt = 0;
  /** Failed attempts in a row (the backoff's exponent). */
  private failures = 0;
  private connected = 0;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly followers: ChangeFollower[] = [];

  constructor(private readonly options: ChangeListenerOptions) {}

  /** True while the dedicated connection is open and listening. */
  get up(): boolean {
    return this.session !== undefined;
  }

  /** Hears every notice (metrics); `follow` also tells when listening starts and stops. */
  subscribe(subscriber: (notice: ChangeNotice) => void): void {
    this.followers.push({ hear: subscriber, setListening: () => undefined });
  }

  /** Tells `follower` whether the listener is up now, then every notice and every change of that. */
  follow(follower: ChangeFollower): void {
    this.followers.push(follower);
    follower.setListening(this.up);
  }

  /** Makes the first attempt; when it fails the listener keeps trying in the background. */
  async start(): Promise<void> {
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    const session = this.session;
    this.session = undefined;
    this.setListening(false);
    await session?.close();
  }

  /** One payload off the channel; anything but a notice is reported and skipped, never thrown. */
  receive(payload: string): void {
    const notice = parseChangeNotice(payload);
    if (!notice) {
      this.ignored += 1;
      this.options.report?.('bad-payload', { payload: payload.slice(0, 200) });
      return;
    }
    this.received += 1;
    if (notice.kind === 'workspace') this.options.target.invalidate(notice.workspaceId);
    for (const follower of this.followers) this.tell(() => follower.hear(notice));
  }

  private setListening(listening: boolean): void {
    this.options.target.setListening(listening);
    for (const follower of this.followers) this.tell(() => follower.setListening(listening));
  }

  /** Followers are called from the connection's events: a throw there would end the process. */
  private tell(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.options.report?.('subscriber-failed', { error: String(error) });
    }
  }

  private async connect(): Promise<void> {
    const attempt = ++this.attempt;
    let lostEarly = false;
    const handlers: ChangeSessionHandlers = {
      onPayload: (payload) => this.receive(payload),
      onLost: () => (this.session ? this.lose(attempt, 'connection ended') : (lostEarly = true)),
    };
    try {
      const session = await this.options.open(handlers);
      if (this.closed || lostEarly) {
        await session.close();
        if (lostEarly) this.scheduleReconnect();
        return;
      }
      this.listenOn(session, attempt);
    } catch (error) {
      this.options.report?.('connect-failed', { error: String(error) });
      this.scheduleReconnect();
    }
  }

  private listenOn(session: ChangeSession, attempt: number): void {
    this.session = session;
    if (this.connected++ > 0) this.reconnects += 1;
    this.failures = 0;
    this.setListening(true);
    this.heartbeat = setInterval(() => void this.ping(session, attempt), this.options.heartbeatMs ?? HEARTBEAT_MS).unref();
    this.options.report?.('listening', { reconnects: this.reconnects });
  }

  private async ping(session: ChangeSession, attempt: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('ping timed out')), PING_TIMEOUT_MS).unref()));
    try {
      await Promise.race([session.ping(), timeout]);
    } catch (error) {
      void session.close().catch(() => undefined);
      this.lose(attempt, String(error));
    } finally {
      clearTimeout(timer);
    }
  }

  /** The connection of `attempt` is gone: fall back to version checks and reconnect. */
  private lose(attempt: number, reason: string): void {
    if (this.closed || attempt !== this.attempt || !this.session) return;
    this.session = undefined;
    clearInterval(this.heartbeat);
    this.setListening(false);
    this.options.report?.('lost', { reason });
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const { initialMs, maxMs } = this.options.backoff ?? BACKOFF;
    const delay = Math.min(maxMs, initialMs * 2 ** this.failures);
    this.failures += 1;
    this.retry = setTimeout(() => void this.connect(), delay).unref();
  }
}
