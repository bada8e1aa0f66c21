import { configure, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicBooking, WaitlistOffer, WaitlistStatus } from '../../shared/index.js';
import { mountManage } from './mount.js';
import type { MountedManage } from './mount.js';

const NOW = new Date('2026-12-01T10:00:00Z');
const BASE = 'https://outing.test';
const TOKEN = 'wlt_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

function offerOf(status: WaitlistStatus = 'OFFERED', more: Partial<WaitlistOffer> = {}): WaitlistOffer {
  return {
    entry: {
      id: 'wl_1', status, position: null, experience: { id: 'exp_walk', title: 'Alfama at Dawn' },
      timeSlot: { id: 'ts_1', startTime: '2026-12-05T09:00:00.000Z', endTime: '2026-12-05T11:00:00.000Z' },
      places: 2, totalParticipants: 2, tickets: [], guestName: 'Ana Lima', guestEmail: 'ana@example.com', guestPhone: null,
      locale: 'en', offeredAt: '2026-12-01T09:00:00.000Z', offerExpiresAt: '2026-12-01T21:00:00.000Z',
      bookingId: status === 'BOOKED' ? 'bk_1' : null, createdAt: '2026-11-20T09:00:00.000Z',
    },
    total: '50.00',
    currency: 'EUR',
    organization: { name: 'Lisbon Walks', email: 'hello@lisbonwalks.test', phone: '+351 912 345 678' },
    ...more,
  };
}

const booking = (status: 'CONFIRMED' | 'PENDING' = 'CONFIRMED'): PublicBooking => ({
  bookingNumber: 'BK-7QX2M4', status, experience: { id: 'exp_walk', title: 'Alfama at Dawn' },
  timeSlot: { id: 'ts_1', startTime: '2026-12-05T09:00:00.000Z', endTime: '2026-12-05T11:00:00.000Z' },
  totalParticipants: 2, tickets: [], answers: [], extras: [], subtotal: '50.00', discount: null, voucher: null, total: '50.00',
  amountDue: '50.00', currency: 'EUR', guestName: 'Ana Lima', guestEmail: 'ana@example.com',
  checkoutUrl: status === 'PENDING' ? 'https://checkout.stripe.test/c/pay/cs_1' : null, holdExpiresAt: null,
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const refuse = (status: number, code: string) => json(status, { success: false, error: { code, message: code } });

/** /public/v1/manage knows no such token; /public/v1/waitlist/offer answers the offer, as the server would. */
function fakeOffer(initial: WaitlistOffer, onAccept: () => WaitlistOffer & { booking: PublicBooking } | 'expired' = () => ({ ...offerOf('BOOKED'), booking: booking() })) {
  let state = initial;
  const calls: { method: string; path: string; headers: Record<string, string> }[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const headers = { ...(init.headers as Record<string, string>) };
    const method = init.method ?? 'GET';
    calls.push({ method, path: url.pathname, headers });
    if (url.pathname.startsWith('/public/v1/manage')) return refuse(404, 'NOT_FOUND');
    if (headers['X-Waitlist-Token'] !== TOKEN) return refuse(404, 'NOT_FOUND');
    if (method === 'GET' && url.pathname === '/public/v1/waitlist/offer') return json(200, { success: true, data: state });
    if (method === 'POST' && url.pathname === '/public/v1/waitlist/offer/accept') {
      const next = onAccept();
      if (next === 'expired') {
        state = offerOf('EXPIRED');
        return refuse(409, 'OFFER_EXPIRED');
      }
      state = next;
      return json(201, { success: true, data: next });
    }
    if (method === 'POST' && url.pathname === '/public/v1/waitlist/offer/decline') {
      state = offerOf('CANCELLED');
      return json(200, { success: true, data: state });
    }
    return refuse(404, 'NOT_FOUND');
  };
  return { fetch, calls, get state() { return state; } };
}

let mounted: MountedManage[] = [];
beforeEach(() => {
  configure({ getElementError: (message) => new Error(message ?? 'Element not found') });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  // Times are read where the guest is; this test's guest is in Lisbon.
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({ timeZone: 'Europe/Lisbon' } as Intl.ResolvedDateTimeFormatOptions);
});
afterEach(() => {
  mounted.forEach((m) => m.unmount());
  mounted = [];
  document.body.replaceChildren();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function open(fake: ReturnType<typeof fakeOffer>, options: { browser?: string[]; navigate?: (url: string) => void } = {}) {
  vi.stubGlobal('fetch', fake.fetch);
  const el = document.createElement('main');
  document.body.append(el);
  mounted.push(mountManage(el, { token: TOKEN, base: BASE, browser: options.browser ?? ['en-US'], ...(options.navigate ? { navigate: options.navigate } : {}) }));
  return el;
}

const detail = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
const button = (name: string | RegExp) => screen.getByRole('button', { name });

describe('the manage page, opened by a waitlist offer’s link', () => {
  it('asks for a booking first, then for the offer with the token in its own header; shows time, places, total and expiry', async () => {
    const fake = fakeOffer(offerOf());
    open(fake);
    await screen.findByRole('heading', { level: 1, name: 'Places are free for you' });
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /public/v1/manage', 'GET /public/v1/waitlist/offer']);
    expect(fake.calls[1]!.headers).toEqual({ 'X-Waitlist-Token': TOKEN });
    expect(detail('Experience')).toBe('Alfama at Dawn');
    expect(detail('Date')).toBe('Saturday, December 5, 2026');
    expect(detail('Places')).toBe('2');
    expect(detail('Total')).toBe('€50.00');
    expect(screen.getByText(/held for you until Tuesday, December 1, 2026, 9:00\sPM/)).toBeTruthy();
    expect(button('Book these places')).toBeTruthy();
    expect(button('No thanks')).toBeTruthy();
    expect(document.title).toBe('Places are free for you · Lisbon Walks');
    expect(screen.getByRole('link', { name: 'hello@lisbonwalks.test' })).toBeTruthy();
  });

  it('books the places and shows the booking number', async () => {
    const fake = fakeOffer(offerOf());
    open(fake);
    fireEvent.click(await screen.findByRole('button', { name: 'Book these places' }));
    await screen.findByText(/these places are yours/);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Your places are booked');
    expect(detail('Booking number')).toBe('BK-7QX2M4');
    expect(screen.queryByRole('button', { name: 'Book these places' })).toBeNull();
    await waitFor(() => expect(document.activeElement?.id).toBe('notice'));
  });

  it('leaves for the payment page when the booking waits for payment', async () => {
    const navigate = vi.fn();
    const fake = fakeOffer(offerOf(), () => ({ ...offerOf('BOOKED'), booking: booking('PENDING') }));
    open(fake, { navigate });
    fireEvent.click(await screen.findByRole('button', { name: 'Book these places' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_1'));
  });

  it('“No thanks” asks first, then lets the places go', async () => {
    const fake = fakeOffer(offerOf());
    open(fake);
    fireEvent.click(await screen.findByRole('button', { name: 'No thanks' }));
    await screen.findByRole('heading', { level: 2, name: 'Let these places go?' });
    await waitFor(() => expect(document.activeElement?.id).toBe('manage-step'));
    fireEvent.click(button('Keep the offer'));
    await waitFor(() => expect(document.activeElement?.id).toBe('decline-button'));
    fireEvent.click(button('No thanks'));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, let them go' }));
    await screen.findByText(/the places go to the next guest waiting/);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('This offer is closed');
    expect(fake.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/public/v1/waitlist/offer/decline']);
  });

  it('an offer that expired meanwhile says so, with the contact', async () => {
    const fake = fakeOffer(offerOf(), () => 'expired');
    open(fake);
    fireEvent.click(await screen.findByRole('button', { name: 'Book these places' }));
    await screen.findByRole('heading', { level: 1, name: 'This offer has expired' });
    expect(screen.getByText(/The time to answer has passed/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Book these places' })).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: 'Contact' })).toBeTruthy();
  });

  it('a BOOKED entry shows its booking; an unknown token is a broken link', async () => {
    open(fakeOffer({ ...offerOf('BOOKED'), booking: booking() }));
    await screen.findByRole('heading', { level: 1, name: 'Your places are booked' });
    expect(detail('Booking number')).toBe('BK-7QX2M4');
    mounted.forEach((m) => m.unmount());
    mounted = [];
    document.body.replaceChildren();
    const other = fakeOffer(offerOf());
    vi.stubGlobal('fetch', other.fetch);
    const el = document.createElement('main');
    document.body.append(el);
    mounted.push(mountManage(el, { token: 'wlt_unknownUnknownUnknownUnknown', base: BASE, browser: ['en-US'] }));
    await screen.findByRole('heading', { level: 1, name: 'This link does not work' });
  });

  it('speaks the entry’s language', async () => {
    open(fakeOffer({ ...offerOf(), entry: { ...offerOf().entry, locale: 'pt' } }));
    await screen.findByRole('heading', { level: 1, name: 'Há lugares para si' });
    expect(button('Reservar estes lugares')).toBeTruthy();
    expect(button('Não, obrigado')).toBeTruthy();
    expect(document.documentElement.lang).toBe('pt-PT');
  });

  it.each([
    ['es', 'Hay plazas libres para ti', 'Reservar estas plazas', 'No, gracias'],
    ['fr', 'Des places se sont libérées pour vous', 'Réserver ces places', 'Non merci'],
    ['de', 'Für Sie sind Plätze frei', 'Diese Plätze buchen', 'Nein, danke'],
    ['it', 'Ci sono posti liberi per te', 'Prenota questi posti', 'No, grazie'],
    ['nl', 'Er zijn plaatsen vrij voor je', 'Deze plaatsen boeken', 'Nee, bedankt'],
  ] as const)('speaks %s for an entry in it', async (locale, title, book, decline) => {
    open(fakeOffer({ ...offerOf(), entry: { ...offerOf().entry, locale } }));
    await screen.findByRole('heading', { level: 1, name: title });
    expect(button(book)).toBeTruthy();
    expect(button(decline)).toBeTruthy();
    expect(document.documentElement.lang).toBe(locale);
    expect(document.title.startsWith(title)).toBe(true);
  });
});
