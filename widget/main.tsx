/**
 * widget.js: the only module with side effects. It finds every `[data-outing]` element, now and
 * later, mounts a widget into each, and defines `window.Outing`, the one global it adds.
 * Nothing here may throw into the host page: failures are logged and rendered.
 */
import { mountWidget, report } from './mount.js';
import type { MountOptions, Mounted } from './mount.js';

/** The widget's JavaScript interface, `window.Outing`. */
export interface OutingGlobal {
  /** Mounts a widget into `el`; options override its `data-*` attributes. Mounting again replaces it. */
  mount(el: HTMLElement, options?: MountOptions): Mounted;
  /** Removes the widget from `el`. */
  unmount(el: HTMLElement): void;
}

declare global {
  interface Window {
    Outing?: OutingGlobal;
  }
}

function boot(): void {
  // widget.js included twice: the first copy serves every element.
  if (window.Outing) return;
  // data-api defaults to the server widget.js came from; currentScript is only set right now.
  const defaultApi = new URL((document.currentScript as HTMLScriptElement | null)?.src || location.href).origin;
  const mounted = new WeakMap<Element, Mounted>();

  const unmount = (el: HTMLElement): void => {
    try {
      mounted.get(el)?.unmount();
    } catch (e) {
      report(e);
    }
    mounted.delete(el);
  };
  const mount = (el: HTMLElement, options: MountOptions = {}): Mounted => {
    unmount(el);
    try {
      mounted.set(el, mountWidget(el, options, defaultApi));
    } catch (e) {
      report(e);
    }
    return { unmount: () => unmount(el) };
  };
  // Every [data-outing] element not yet mounted: `root` itself, then those inside it.
  const mountAll = (root: ParentNode): void => {
    for (const el of [root, ...root.querySelectorAll('[data-outing]')]) {
      if (el instanceof HTMLElement && el.matches('[data-outing]') && !mounted.has(el)) mount(el);
    }
  };

  window.Outing = { mount, unmount };

  new MutationObserver((records) => {
    try {
      for (const record of records) {
        record.addedNodes.forEach((node) => node instanceof HTMLElement && mountAll(node));
        record.removedNodes.forEach((node) => {
          if (!(node instanceof HTMLElement)) return;
          // A moved element is removed and added again; only one that left the page is unmounted.
          for (const el of [node, ...node.querySelectorAll<HTMLElement>('[data-outing]')]) {
            if (!el.isConnected && mounted.has(el)) unmount(el);
          }
        });
      }
    } catch (e) {
      report(e);
    }
  }).observe(document.documentElement, { childList: true, subtree: true });

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => mountAll(document));
  else mountAll(document);
}

try {
  boot();
} catch (e) {
  report(e);
}
