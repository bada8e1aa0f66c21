/**
 * Mounts widgets for component tests: the real mount into a shadow root, `fetch` answered by the
 * fake Outing, the clock fixed at Tuesday 1 December 2026, 10:00 UTC. Only Date is faked: the
 * widget's promises and the testing library's polling keep real timers.
 */
import { configure, fireEvent, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { forgetTexts } from '../i18n/load.js';
import { mountWidget } from '../mount.js';
import type { Mounted } from '../mount.js';
import type { BookedDetail } from '../state/booking.js';
import { fakeOuting } from './fake-outing.js';
import type { FakeOutingOptions } from './fake-outing.js';

export const NOW = new Date('2026-12-01T10:00:00Z');
const API = 'https://outing.test';

/** The embed most tests use: one pinned experience, in English. */
export const pinned = { key: 'opk_test', experience: 'exp_walk', locale: 'en' };

/** Call at the top of a test file: fixes the clock and cleans up after each test. */
export function useWidgetTests(): void {
  // The testing library cannot print a shadow root; the query's own message is enough.
  configure({ getElementError: (message) => new Error(message ?? 'Element not found') });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    mounted.forEach((m) => m.unmount());
    mounted = [];
    forgetTexts();
    document.body.replaceChildren();
    history.replaceState(null, '', '/');
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}

let mounted: Mounted[] = [];

export type WidgetUnderTest = ReturnType<typeof mountForTest>;

/** Mounts a widget with these `data-*` attributes; `prepare` sets up the fake before any request. */
export function mountForTest(
  attributes: Record<string, string>,
  options: FakeOutingOptions = {},
  prepare?: (outing: ReturnType<typeof fakeOuting>) => void,
) {
  const outing = fakeOuting(options);
  prepare?.(outing);
  vi.stubGlobal('fetch', outing.fetch);
  const host = document.createElement('div');
  host.setAttribute('data-outing', '');
  for (const [name, value] of Object.entries(attributes)) host.setAttribute(`data-${name}`, value);
  document.body.append(host);
  const booked: BookedDetail[] = [];
  document.body.addEventListener('outing:booked', (e) => booked.push((e as CustomEvent<BookedDetail>).detail));
  mounted.push(mountWidget(host, {}, API));
  const root = host.shadowRoot!;
  const ui = within(root as unknown as HTMLElement);
  const day = (date: string) => root.getElementById(`day-${date}`) as HTMLButtonElement;
  return { outing, host, root, ui, day, booked };
}

/** Waits for the calendar, picks `date` and the time starting with `time`. */
export async function toDetails(s: WidgetUnderTest, date = '2026-12-02', time = '9:00 AM'): Promise<void> {
  await s.ui.findByRole('heading', { name: 'Choose a date' });
  await waitFor(() => expect(s.day(date).getAttribute('aria-disabled')).toBe('false'));
  fireEvent.click(s.day(date));
  await s.ui.findByRole('heading', { name: 'Choose a time' });
  // Intl may put a narrow no-break space before AM/PM.
  fireEvent.click(s.ui.getByRole('button', { name: new RegExp(`^${time.replace(' ', '\\s')}`) }));
  await s.ui.findByRole('heading', { name: 'Your details' });
}

/** Types into fields found by their label. */
export function fill(s: WidgetUnderTest, fields: Record<string, string>): void {
  for (const [label, value] of Object.entries(fields)) fireEvent.input(s.ui.getByLabelText(label), { target: { value } });
}
