/**
 * A history router in a few lines: the path under /dashboard is a signal, links are plain <a href>
 * (so a new tab, a copied address and a reload all work; the server answers every such path with
 * the app), and a click on one becomes a pushState.
 */
import { signal } from './state/signals.js';

export const BASE = '/dashboard';

export type Screen =
  | 'today'
  | 'sign-in'
  | 'setup'
  | 'bookings'
  | 'booking'
  | 'calendar'
  | 'experiences'
  | 'experience'
  | 'customers'
  | 'customer'
  | 'insights'
  | 'settings'
  | 'not-found';

/** `/bookings` lists; `/bookings/<id>` is one booking's page. */
const SCREENS: Record<string, [list: Screen, one?: Screen]> = {
  '': ['today'],
  'sign-in': ['sign-in'],
  setup: ['setup'],
  bookings: ['bookings', 'booking'],
  calendar: ['calendar'],
  experiences: ['experiences', 'experience'],
  customers: ['customers', 'customer'],
  insights: ['insights'],
  // `/settings/<section>`: the same screen, another section.
  settings: ['settings', 'settings'],
};

export interface Route {
  screen: Screen;
  /** The path's segment after the screen's: a record's id, `new`, or a settings section; '' when none. */
  id: string;
}

export function routeOf(pathname: string): Route {
  if (pathname !== BASE && !pathname.startsWith(`${BASE}/`)) return { screen: 'not-found', id: '' };
  const parts = pathname.slice(BASE.length + 1).replace(/\/$/, '').split('/');
  const [first = '', second, ...rest] = parts;
  const known = Object.hasOwn(SCREENS, first) ? SCREENS[first] : undefined;
  if (!known || rest.length) return { screen: 'not-found', id: '' };
  if (second === undefined) return { screen: known[0], id: '' };
  let id: string;
  try {
    id = decodeURIComponent(second);
  } catch {
    return { screen: 'not-found', id: '' };
  }
  return known[1] && id ? { screen: known[1], id } : { screen: 'not-found', id: '' };
}

export const screenOf = (pathname: string): Screen => routeOf(pathname).screen;

export interface Location extends Route {
  /** The part of the address after the path: the query and the hash. */
  search: URLSearchParams;
  hash: string;
}

/** The address of a record's page: `pathTo('bookings', id)`. */
export const pathTo = (screen: string, id?: string): string => `${BASE}/${screen}${id ? `/${encodeURIComponent(id)}` : ''}`;

export function createRouter(win: Window = window) {
  const read = (): Location => ({
    ...routeOf(win.location.pathname),
    search: new URLSearchParams(win.location.search),
    hash: win.location.hash.slice(1),
  });
  const location = signal<Location>(read());

  const go = (path: string, replace = false): void => {
    if (replace) win.history.replaceState(null, '', path);
    else win.history.pushState(null, '', path);
    location.value = read();
  };

  const onPop = () => (location.value = read());
  const onClick = (e: MouseEvent) => {
    // Only a plain left click on one of our links; a modified click opens a tab as the user asked.
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element | null)?.closest?.('a');
    if (!a || a.target || a.hasAttribute('download')) return;
    const url = new URL(a.href, win.location.href);
    // An in-page jump (the skip link) is the browser's own business.
    if (url.hash && url.pathname === win.location.pathname && url.search === win.location.search) return;
    if (url.origin !== win.location.origin || screenOf(url.pathname) === 'not-found') return;
    e.preventDefault();
    go(url.pathname + url.search + url.hash);
  };
  win.addEventListener('popstate', onPop);
  win.document.addEventListener('click', onClick);

  return {
    location,
    go,
    /** The current address, to come back to after signing in. */
    here: () => win.location.pathname + win.location.search,
    /** Replaces the query of the current address (filters, a page), keeping the path. */
    setQuery(query: Record<string, string | number | undefined | null>, replace = false): void {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
      const q = params.toString();
      go(`${win.location.pathname}${q ? `?${q}` : ''}`, replace);
    },
    dispose() {
      win.removeEventListener('popstate', onPop);
      win.document.removeEventListener('click', onClick);
    },
  };
}

export type Router = ReturnType<typeof createRouter>;
