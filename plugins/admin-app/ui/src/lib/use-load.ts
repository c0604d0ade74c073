/** Loads something once per key and can load it again on demand (after a change). */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { message } from './api.ts';

export interface Loaded<T> {
  readonly value: T | undefined;
  readonly error: string | undefined;
  readonly loading: boolean;
  reload(): void;
}

export function useLoad<T>(load: () => Promise<T>, key: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ value?: T; error?: string; loading: boolean }>({ loading: true });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (value) => current && setState({ value, loading: false }),
      (error: unknown) => current && setState({ error: message(error), loading: false }),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key says when to load again
  }, [...key, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { value: state.value, error: state.error, loading: state.loading, reload };
}
