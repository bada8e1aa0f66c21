import { configure, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ManagedBooking } from '../../shared/index.js';
import { fakeManage, managedBooking, TOKEN } from './fake-manage.js';
import { mountManage } from './mount.js';
import type { MountedManage } from './mount.js';

let mounted: MountedManage[] = [];

beforeEach(() => {
  configure({ getElementError: (message) => new Error(message ?? 'Element not found') });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-12-01T10:00:00Z'));
});
afterEach(() => {
  mounted.forEach((m) => m.unmount());
  mounted = [];
  document.body.replaceChildren();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function open(booking: ManagedBooking, browser = ['en-US']): void {
  vi.stubGlobal('fetch', fakeManage(booking).fetch);
  const el = document.createElement('main');
  document.body.append(el);
  mounted.push(mountManage(el, { token: TOKEN, base: 'https://outing.test', browser }));
}

/** The summary's rows as `term: value`. */
const rows = () => [...document.querySelectorAll('.summary div')].map((d) => `${d.querySelector('dt')!.textContent}: ${d.querySelector('dd')!.textContent}`);

const withCodes = (): ManagedBooking => {
  const b = managedBooking();
  return {
    ...b,
    booking: {
      ...b.booking,
      subtotal: '50.00',
      discount: { code: 'SUMMER10', amount: '5.00' },
      total: '45.00',
      voucher: { code: 'GV-••••-••••-4PRT', amount: '20.00' },
      amountDue: '25.00',
    },
  };
};

describe('the manage page’s money', () => {
  it('shows the subtotal, the discount, the total, the voucher’s part and what is left to pay', async () => {
    open(withCodes());
    await screen.findByText('BK-7QX2M4');
    expect(rows().filter((r) => /€/.test(r))).toEqual([
      'Subtotal: €50.00',
      'Discount (SUMMER10): -€5.00',
      'Total: €45.00',
      'Gift voucher (GV-••••-••••-4PRT): -€20.00',
      'Left to pay: €25.00',
    ]);
  });

  it('says them in Portuguese', async () => {
    open({ ...withCodes(), locale: 'pt' }, ['pt-PT']);
    await screen.findByText('BK-7QX2M4');
    expect(rows().filter((r) => /€/.test(r)).map((r) => r.split(':')[0])).toEqual(['Subtotal', 'Desconto (SUMMER10)', 'Total', 'Vale de oferta (GV-••••-••••-4PRT)', 'Falta pagar']);
  });

  it('shows the total alone without codes', async () => {
    open(managedBooking());
    await screen.findByText('BK-7QX2M4');
    expect(rows().filter((r) => /€/.test(r))).toEqual(['Total: €50.00']);
  });
});
