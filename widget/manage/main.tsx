/**
 * manage.js: the guests' manage page (served at /manage by server/routes/manage-page.ts). The
 * token is the address's fragment, which browsers never send to a server; it stays there so a
 * reload works, and leaves the page only in the X-Manage-Token header of the API's calls.
 */
import { mountManage } from './mount.js';
import { adoptManageStyles } from './sheet.js';

function boot(): void {
  const el = document.getElementById('manage');
  if (!el) return;
  adoptManageStyles(document);
  let mounted = mountManage(el, { token: location.hash.slice(1), base: location.origin, browser: navigator.languages });
  // Another link pasted over this one: its booking instead.
  window.addEventListener('hashchange', () => {
    mounted.unmount();
    mounted = mountManage(el, { token: location.hash.slice(1), base: location.origin, browser: navigator.languages });
  });
}

try {
  boot();
} catch (e) {
  console.error('[Outing]', e);
}
