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
  /**
   * Opens the widget in the Book-now dialog, closing any other; `outing:booked` is dispatched on
   * `document`, and focus returns to the element focused before once it closes.
   */
  open(options?: MountOptions): { close(): void };
}

declare global {
  interface Window {
    Outing?: OutingGlobal;
  }
}

/** The elements widget.js looks for: inline widgets and Book-now buttons. */
const SELECTOR = '[data-outing],[data-outing-button]';

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
  // The Book-now dialog open now, if any: a function that closes it.
  let shown: (() => void) | undefined;
  const open = (options: MountOptions = {}, target: EventTarget = document): { close(): void } => {
    shown?.();
    const back = document.activeElement as HTMLElement | null;
    const host = document.body.appendChild(document.createElement('outing-dialog'));
    // The page behind stays where it is: its root's overflow is hidden while the dialog is open.
    const { style } = document.documentElement;
    const overflow = style.overflow;
    const close = (): void => {
      if (shown != close) return;
      shown = undefined;
      m.unmount();
      host.remove();
      style.overflow = overflow;
      back?.focus();
    };
    shown = close;
    style.overflow = 'hidden';
    const m = mountWidget(host, options, defaultApi, close, target);
    return { close };
  };
  // A click on a Book-now button, or Enter or Space on one that is not a <button> (which clicks
  // itself on both); a link does not navigate. Listened for on the document, for buttons added later too.
  const activate = (e: Event): void => {
    const el = (e.target as Element).closest<HTMLElement>('[data-outing-button]');
    const key = (e as KeyboardEvent).key;
    if (el && (!key || (!el.matches('button') && (key == 'Enter' || key == ' ')))) {
      e.preventDefault();
      open(el.dataset, el);
    }
  };
  addEventListener('click', activate, true);
  addEventListener('keydown', activate, true);
  // Every [data-outing] element and Book-now button not yet mounted: `root` itself, then those inside it.
  const mountAll = (root: ParentNode): void => {
    for (const el of [root, ...root.querySelectorAll(SELECTOR)]) {
      if (el instanceof HTMLElement && el.matches(SELECTOR) && !mounted.has(el)) {
        if (el.matches('[data-outing]')) mount(el);
        else {
          // A Book-now button: the page's element, which assistive technology and keyboards take for a button.
          el.setAttribute('aria-haspopup', 'dialog');
          if (!el.matches('button,a[href]')) {
            el.role = 'button';
            el.tabIndex = 0;
          }
        }
      }
    }
  };

  window.Outing = { mount, unmount, open };

  new MutationObserver((records) => {
    try {
      for (const record of records) {
        record.addedNodes.forEach((node) => node instanceof HTMLElement && mountAll(node));
        record.removedNodes.forEach((node) => {
          if (!(node instanceof HTMLElement)) return;
          // A moved element is removed and added again; only one that left the page is unmounted.
          for (const el of [node, ...node.querySelectorAll<HTMLElement>(SELECTOR)]) {
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
