import { render } from 'preact';
import type { DashboardApi } from './api.js';
import { App, titleOf } from './components/App.js';
import { createRouter } from './router.js';
import { createModel, type Model } from './state/model.js';
import { effect } from './state/signals.js';

export interface MountedDashboard {
  model: Model;
  unmount(): void;
}

/**
 * Renders the dashboard into `root` and starts it. `makeApi` receives the CSRF token's getter:
 * the token belongs to the session, which the model holds.
 */
export function mountDashboard(root: HTMLElement, makeApi: (csrfToken: () => string | undefined) => DashboardApi): MountedDashboard {
  let model: Model | undefined;
  const api = makeApi(() => model?.session.peek()?.csrfToken);
  const router = createRouter();
  const m = (model = createModel(api, router));

  // The whole app re-renders whenever a signal it read changes: a screen is small, and this keeps
  // components plain functions of the model, with no hooks or signals integration in the bundle.
  let shown = '';
  /** A move whose screen had no heading yet (its code still loading): focus goes there once it has. */
  let headingDue = false;
  const stop = effect(() => {
    render(<App m={m} />, root);
    const title = titleOf(m);
    document.title = `${title} · Outing`;
    // A new screen: focus its heading, so keyboard and screen reader users start at its top.
    const moved = (title !== shown && shown !== '') || headingDue;
    shown = title;
    const target = moved ? 'heading' : m.takeFocusRequest();
    const element = target ? document.getElementById(target) : null;
    element?.focus();
    headingDue = moved && !element;
  });
  void m.start();

  return {
    model: m,
    unmount() {
      stop();
      router.dispose();
      render(null, root);
    },
  };
}
