/**
 * API keys kept per instance (DESIGN §2, §16), so a request does not ask the control store for its
 * key each time. Only while every change to the keys reaches this instance at once:
 * - `local` (the embedded store): every change is made here, so entries are always used;
 * - `heard` (a PostgreSQL store shared by instances): entries are used only while the change
 *   listener is up (`setListening`); a change of that drops them all, and while it is down every
 *   request asks the store, as without a cache.
 * A revoke or a workspace deletion made here drops its keys before the answer is sent (`hear`,
 * called by the route); one made on another instance, when its notice arrives. Only found keys are
 * kept: an unknown id asks the store every time, so a new key works at once everywhere.
 */
import { LRUCache } from 'lru-cache';
import type { ChangeFollower } from '../../../core/workspace/change-listener.ts';
import type { ChangeNotice } from '../../../core/workspace/change-notice.ts';
import type { ApiKeyRecord } from '../../../core/workspace/types.ts';

/** Where keys are read: the control store, or this cache in front of it. */
export interface ApiKeySource {
  findApiKey(id: string): Promise<ApiKeyRecord | undefined>;
  /** The record when this source may answer without asking anyone (a cache's usable entry), else undefined. */
  keptApiKey?(id: string): ApiKeyRecord | undefined;
}

/** A kept key is read again after this long even while listening, as the workspace cache does
 * (core/workspace/cache.ts LISTENING_RECHECK_MS): the net under a notice lost on a connection
 * that still looked healthy. */
const TRUST_MS = 30_000;
/** The most keys kept (least recently used go first). */
const MAX_KEYS = 10_000;

export type KeyChanges = 'local' | 'heard';

export class ApiKeyCache implements ApiKeySource, ChangeFollower {
  // ttlResolution 0: read the clock per lookup; the default (1 ms) arms a timer to forget the time it read.
  private readonly kept = new LRUCache<string, ApiKeyRecord>({ max: MAX_KEYS, ttl: TRUST_MS, ttlResolution: 0 });
  /** Lookups in flight, shared by concurrent requests with the same key id. */
  private readonly pending = new Map<string, Promise<ApiKeyRecord | undefined>>();
  /** Moves on every drop: a lookup that overlapped one is not kept. */
  private generation = 0;
  private trusted: boolean;

  constructor(
    private readonly store: ApiKeySource,
    private readonly changes: KeyChanges,
  ) {
    this.trusted = changes === 'local';
  }

  findApiKey(id: string): Promise<ApiKeyRecord | undefined> {
    const kept = this.keptApiKey(id);
    if (kept) return Promise.resolve(kept);
    return this.pending.get(id) ?? this.lookUp(id);
  }

  keptApiKey(id: string): ApiKeyRecord | undefined {
    return this.trusted ? this.kept.get(id) : undefined;
  }

  /** A notice, from the listener or from a change made on this instance. */
  hear(notice: ChangeNotice): void {
    if (notice.kind === 'apiKey') this.dropKey(notice.id);
    // Any workspace notice, a deletion among them (its keys go with it); the others are rare.
    else this.dropWorkspace(notice.workspaceId);
  }

  setListening(listening: boolean): void {
    this.dropAll();
    if (this.changes === 'heard') this.trusted = listening;
  }

  private async lookUp(id: string): Promise<ApiKeyRecord | undefined> {
    const generation = this.generation;
    const lookup = this.store.findApiKey(id);
    this.pending.set(id, lookup);
    try {
      const record = await lookup;
      if (record && this.trusted && generation === this.generation) this.kept.set(id, record);
      return record;
    } finally {
      if (this.pending.get(id) === lookup) this.pending.delete(id);
    }
  }

  /** Later requests neither use the entry nor join a lookup that started before the drop. */
  private dropKey(id: string): void {
    this.generation += 1;
    this.kept.delete(id);
    this.pending.delete(id);
  }

  private dropWorkspace(workspaceId: string): void {
    this.generation += 1;
    this.pending.clear();
    const ids = [...this.kept.entries()].filter(([, record]) => record.workspaceId === workspaceId).map(([id]) => id);
    for (const id of ids) this.kept.delete(id);
  }

  private dropAll(): void {
    this.generation += 1;
    this.pending.clear();
    this.kept.clear();
  }
}
