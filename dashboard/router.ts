/**
 * A history router in a few lines: the path under /dashboard is a signal, links are plain <a href>
 * (so a new tab, a copied address and a reload all work; the server answers every such path with
 * the app), and a click on one becomes a pushState.
 */
import { signal } from './state/signals.js';

export const BASE = '/dashboard';

export type Screen = 'today' | 'sign-in' | 'setup' | 'bookings' | 'reports' | 'settings' | 'not-found';

const SCREENS: Record<string, Screen> = {
  '': 'today',
  '/': 'today',
  '/sign-in': 'sign-in',
  '/setup': 'setup',
  '/bookings': 'bookings',
  '/reports': 'reports',
  '/settings': 'settings',
};

export function screenOf(pathname: string): Screen {
  if (!pathname.startsWith(BASE)) return 'not-found';
  return SCREENS[pathname.slice(BASE.length).replace(/(.)\/$/, '$1')] ?? 'not-found';
}

export interface Location {
  screen: Screen;
  /** The part of the address after the screen: the query and the hash. */
  search: URLSearchParams;
  hash: string;
}

export function createRouter(win: Window = window) {
  const read = (): Location => ({
    screen: screenOf(win.location.pathname),
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
    dispose() {
      win.removeEventListener('popstate', onPop);
      win.document.removeEventListener('click', onClick);
    },
  };
}

export type Router = ReturnType<typeof createRouter>;
