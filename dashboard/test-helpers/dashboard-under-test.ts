/** Mounts the real dashboard into the happy-dom page at an address, over a fake api. */
import { afterEach } from 'vitest';
import { mountDashboard, type MountedDashboard } from '../mount.js';
import { fakeApi } from './fake-api.js';

let mounted: MountedDashboard[] = [];

export function useDashboardTests(): void {
  afterEach(() => {
    mounted.forEach((m) => m.unmount());
    mounted = [];
    document.body.replaceChildren();
    history.replaceState(null, '', '/');
  });
}

export function mountAt(path: string, options: Parameters<typeof fakeApi>[0] = {}) {
  history.replaceState(null, '', path);
  const fake = fakeApi(options);
  const root = document.createElement('div');
  document.body.append(root);
  const dashboard = mountDashboard(root, fake.make);
  mounted.push(dashboard);
  return { ...fake, root, model: dashboard.model };
}
