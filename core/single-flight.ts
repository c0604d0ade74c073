/**
 * Concurrent callers asking for the same key share one pending promise, so an expiring cache
 * entry costs one control-store query, not one per request in flight.
 */
export class SingleFlight<K, V> {
  private readonly pending = new Map<K, Promise<V>>();

  run(key: K, work: () => Promise<V>): Promise<V> {
    const existing = this.pending.get(key);
    if (existing) return existing;
    const promise = work().finally(() => this.pending.delete(key));
    this.pending.set(key, promise);
    return promise;
  }
}
