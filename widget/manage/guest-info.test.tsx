import { configure, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ManagedBooking } from '../../shared/index.js';
import { fakeManage, managedBooking, TOKEN } from './fake-manage.js';
import { mountManage } from './mount.js';
import type { MountedManage } from './mount.js';

const NOW = new Date('2026-12-01T10:00:00Z');
let mounted: MountedManage[] = [];

beforeEach(() => {
  configure({ getElementError: (message) => new Error(message ?? 'Element not found') });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  mounted.forEach((m) => m.unmount());
  mounted = [];
  document.body.replaceChildren();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function open(booking: ManagedBooking, browser = ['en-US']) {
  const outing = fakeManage(booking);
  vi.stubGlobal('fetch', outing.fetch);
  const el = document.createElement('main');
  document.body.append(el);
  mounted.push(mountManage(el, { token: TOKEN, base: 'https://outing.test', browser }));
  return outing;
}

const guestInfo = {
  meetingPoint: 'Largo do Chafariz de Dentro <b>fountain</b>',
  meetingPointUrl: 'https://maps.example.com/?q=alfama',
  guestInstructions: 'Wear good shoes.\nBring water.',
};

describe('the manage page’s guest information', () => {
  it('shows the meeting point, its map and the instructions as text, and both ways to add the booking to a calendar', async () => {
    open(managedBooking({ guestInfo }));
    await screen.findByRole('heading', { name: 'Meeting point', level: 2 });
    // Text, never markup.
    expect(screen.getByText('Largo do Chafariz de Dentro <b>fountain</b>')).toBeTruthy();
    expect(document.querySelector('b')).toBeNull();
    expect(screen.getByRole('link', { name: 'Open the map (opens in a new tab)' }).getAttribute('href')).toBe('https://maps.example.com/?q=alfama');
    expect(screen.getByRole('heading', { name: 'Before you come', level: 2 })).toBeTruthy();
    expect(screen.getByText(/Wear good shoes\./).innerHTML).toBe('Wear good shoes.<br>Bring water.');

    expect(screen.getByRole('heading', { name: 'Add to calendar', level: 2 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Google Calendar (opens in a new tab)' }).getAttribute('href')).toBe(
      'https://calendar.google.com/calendar/render?action=TEMPLATE&text=Alfama%20at%20Dawn&dates=20261205T090000Z/20261205T110000Z' +
        '&location=Largo%20do%20Chafariz%20de%20Dentro%20%3Cb%3Efountain%3C%2Fb%3E&details=BK-7QX2M4',
    );
    // The server's file, the token in the query so that a plain link downloads it.
    const ics = screen.getByRole('link', { name: 'Download .ics file' });
    expect(ics.getAttribute('href')).toBe(`https://outing.test/public/v1/manage/calendar.ics?token=${TOKEN}`);
    expect(ics.getAttribute('download')).toBe('BK-7QX2M4.ics');
  });

  it('shows only Add to calendar without guest information, in the booking’s language', async () => {
    open(managedBooking({ locale: 'pt' }), ['pt-PT']);
    await screen.findByRole('heading', { name: 'Adicionar ao calendário', level: 2 });
    expect(screen.queryByRole('heading', { name: 'Ponto de encontro' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Descarregar ficheiro .ics' })).toBeTruthy();
  });

  it('offers nothing to add once the booking is cancelled', async () => {
    const booking = managedBooking({ guestInfo });
    open({ ...booking, booking: { ...booking.booking, status: 'CANCELLED' }, canCancel: false, canReschedule: false, reason: 'NOT_ACTIVE' });
    await screen.findByText('BK-7QX2M4');
    expect(screen.queryByRole('heading', { name: 'Add to calendar' })).toBeNull();
  });
});
