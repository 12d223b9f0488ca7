import { useEffect, useState } from 'preact/hooks';
import { get } from './api.js';

export interface Loaded<T> {
  data?: T;
  error?: { code: string; message: string };
  loading: boolean;
}

/** Fetches `path` with `params` whenever they change; a later answer replaces an earlier one, never the reverse. */
export function useApi<T>(path: string | undefined, params: Record<string, string | undefined>, refresh = 0): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ loading: true });
  const key = JSON.stringify([path, params, refresh]);
  useEffect(() => {
    if (!path) return;
    let current = true;
    setState((before) => ({ ...before, loading: true }));
    get<T>(path, params).then(
      (data) => current && setState({ data, loading: false }),
      (error: Error & { code?: string }) => current && setState({ error: { code: error.code ?? 'ERROR', message: error.message }, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [key]);
  return state;
}
