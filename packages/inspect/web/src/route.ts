/** The page's state lives in the URL, so every view (a search, a tool, a session) can be shared. */
import { useEffect, useState } from 'preact/hooks';

export type View = 'catalog' | 'tool' | 'search' | 'exposure' | 'sessions' | 'live';
export const VIEWS: readonly { view: View; label: string }[] = [
  { view: 'catalog', label: 'Catalog' },
  { view: 'search', label: 'Search' },
  { view: 'exposure', label: 'Exposure' },
  { view: 'sessions', label: 'Sessions' },
  { view: 'live', label: 'Live' },
];

export type Params = Record<string, string>;

export function currentParams(): Params {
  return Object.fromEntries(new URLSearchParams(location.search));
}

export function viewOf(params: Params): View {
  const view = params['view'];
  if (view && ['catalog', 'tool', 'search', 'exposure', 'sessions', 'live'].includes(view)) return view as View;
  return params['q'] !== undefined ? 'search' : params['tool'] ? 'tool' : params['session'] ? 'sessions' : 'catalog';
}

/** A link's href: the current run (agent/provider/model) plus `changes`. */
export function hrefWith(params: Params, changes: Record<string, string | undefined>, keepOnly = ['agent', 'provider', 'model']): string {
  const next = new URLSearchParams();
  for (const key of keepOnly) if (params[key]) next.set(key, params[key]!);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === '') next.delete(key);
    else next.set(key, value);
  }
  return `?${next}`;
}

export function navigate(href: string, replace = false): void {
  if (replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  dispatchEvent(new Event('inspect:navigate'));
}

export function useParams(): Params {
  const [params, setParams] = useState(currentParams);
  useEffect(() => {
    const update = () => setParams(currentParams());
    addEventListener('popstate', update);
    addEventListener('inspect:navigate', update);
    return () => {
      removeEventListener('popstate', update);
      removeEventListener('inspect:navigate', update);
    };
  }, []);
  return params;
}

/** Follows same-page links without reloading (keyboard Enter on a link works the same). */
export function onLinkClick(event: MouseEvent): void {
  const target = (event.target as HTMLElement | null)?.closest('a');
  if (!target || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const href = target.getAttribute('href');
  if (!href?.startsWith('?')) return;
  event.preventDefault();
  navigate(href);
}
