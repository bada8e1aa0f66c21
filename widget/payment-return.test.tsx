import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import type { BookingStatus } from '../shared/index.js';
import { fakeOuting, tram } from './test-helpers/fake-outing.js';
import { NOW, fill, mountForTest as setup, pinned, toDetails, useWidgetTests } from './test-helpers/widget-under-test.js';

useWidgetTests();

const PAGE = '/tours/alfama?lang=en';

/** The guest lands back on the host page from the payment page, for a booking in `status`. */
function comeBack(
  outcome: 'success' | 'cancel',
  status: BookingStatus,
  attributes: Record<string, string> = pinned,
  prepare?: (outing: ReturnType<typeof fakeOuting>) => void,
) {
  let bookingNumber = '';
  const s = setup(attributes, {}, (outing) => {
    bookingNumber = outing.book(status).bookingNumber;
    history.replaceState(null, '', `${PAGE}&outing_booking=${bookingNumber}&outing_status=${outcome}#top`);
    prepare?.(outing);
  });
  const statusGets = () => s.outing.requests.filter((r) => r.url.pathname === `/public/v1/bookings/${bookingNumber}`);
  return { ...s, bookingNumber, statusGets };
}

/** Polling waits real seconds between questions: these tests move the clock instead. */
function fakeTimeouts(): void {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
  vi.setSystemTime(NOW);
}

describe('booking with online payment', () => {
  it('sends the page’s full address as the Referer, so Stripe returns the guest to this page', async () => {
    const s = setup(pinned, { checkoutUrl: 'https://checkout.stripe.test/c/pay_1' });
    await toDetails(s);
    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Almost done: payment' });
    const post = s.outing.requests.find((r) => r.method === 'POST')!;
    expect(post.referrerPolicy).toBe('no-referrer-when-downgrade');
    expect(post.credentials).toBe('omit');
  });
});

describe('back from the payment page', () => {
  it('shows the confirmed booking, fires outing:booked once, and clears the address', async () => {
    const s = comeBack('success', 'CONFIRMED');
    const heading = await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(s.ui.getByText(s.bookingNumber).tagName).toBe('STRONG');
    // The summary in the experience's zone, loaded with the experience.
    await waitFor(() => expect(s.ui.getByText(/9:00\sAM · Lisbon \(/)).toBeTruthy());
    expect(s.ui.getByText('Wednesday, December 2, 2026')).toBeTruthy();
    expect(s.ui.getByText('€50.00')).toBeTruthy();
    expect(s.root.activeElement).toBe(heading);
    expect(s.ui.getByRole('status').textContent).toBe('Step 4 of 4: Booking confirmed');
    expect(s.booked).toEqual([
      { bookingNumber: s.bookingNumber, experienceId: 'exp_walk', startTime: '2026-12-02T09:00:00.000Z', participants: 2, total: '50.00', currency: 'EUR' },
    ]);
    // Taken off the address, the rest kept: a reload shows a fresh widget and fires nothing again.
    expect(location.pathname + location.search + location.hash).toBe(`${PAGE}#top`);
    expect(s.statusGets()).toHaveLength(1);
    expect(s.statusGets()[0]!.url.searchParams.get('key')).toBe('opk_test');

    fireEvent.click(s.ui.getByRole('button', { name: 'Make another booking' }));
    await s.ui.findByRole('heading', { name: 'Choose a date' });
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
  });

  it('says the payment is being confirmed and asks again until the callback confirms it', async () => {
    fakeTimeouts();
    const s = comeBack('success', 'PENDING');
    const heading = await s.ui.findByRole('heading', { name: 'Confirming your payment…' });
    expect(s.root.activeElement).toBe(heading);
    expect(s.ui.getByRole('status').textContent).toBe('Step 4 of 4: Confirming your payment…');
    expect(s.root.querySelector('[aria-busy="true"]')).not.toBeNull();
    expect(s.ui.queryByRole('button', { name: 'Back' })).toBeNull();
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(s.statusGets()).toHaveLength(3);
    expect(s.booked).toEqual([]);

    s.outing.settle(s.bookingNumber, 'CONFIRMED');
    await vi.advanceTimersByTimeAsync(2_000);
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(s.ui.getByText(s.bookingNumber)).toBeTruthy();
    expect(s.booked).toHaveLength(1);
    expect(s.root.querySelector('[aria-busy="true"]')).toBeNull();
    // No more questions once settled.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(s.statusGets()).toHaveLength(4);
  });

  it('stops asking after about 30 seconds and offers Check again', async () => {
    fakeTimeouts();
    const s = comeBack('success', 'PENDING');
    await s.ui.findByRole('heading', { name: 'Confirming your payment…' });
    await vi.advanceTimersByTimeAsync(40_000);
    expect(s.statusGets()).toHaveLength(15);
    expect(s.ui.getByRole('alert').textContent).toBe('Your payment is still being confirmed.');
    expect(s.root.querySelector('[aria-busy="true"]')).toBeNull();
    expect(s.booked).toEqual([]);

    s.outing.settle(s.bookingNumber, 'CONFIRMED');
    fireEvent.click(s.ui.getByRole('button', { name: 'Check again' }));
    // Focus leaves the button that goes away for the heading.
    expect(s.root.activeElement).toBe(s.ui.getByRole('heading', { name: 'Confirming your payment…' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(s.booked).toHaveLength(1);
  });

  it('offers the way back to the payment page when the guest gave up while the places are held', async () => {
    const s = comeBack('cancel', 'PENDING');
    await s.ui.findByRole('heading', { name: 'Payment not completed' });
    expect(s.ui.getByRole('status').textContent).toBe('Step 4 of 4: Payment not completed');
    const link = s.ui.getByRole('link', { name: 'Return to payment' });
    expect(link.getAttribute('href')).toBe('https://checkout.stripe.test/c/pay_1');
    expect(s.ui.queryByText('Your places were not kept.')).toBeNull();
    expect(s.ui.getByText('€50.00').previousElementSibling!.textContent).toBe('Total');
    // Giving up is not waited on.
    expect(s.statusGets()).toHaveLength(1);
    expect(s.booked).toEqual([]);
  });

  it('says the places were not kept for a cancelled booking, and books the same experience again', async () => {
    const s = comeBack('success', 'CANCELLED');
    await s.ui.findByRole('heading', { name: 'Payment not completed' });
    expect(s.ui.getByText('Your places were not kept.')).toBeTruthy();
    expect(s.ui.queryByRole('link', { name: 'Return to payment' })).toBeNull();
    expect(s.booked).toEqual([]);

    fireEvent.click(s.ui.getByRole('button', { name: 'Book again' }));
    await s.ui.findByRole('heading', { name: 'Choose a date' });
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    expect(s.ui.getByText('Alfama at Dawn')).toBeTruthy();
    await toDetails(s);
    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(s.booked).toHaveLength(1);
  });

  it('books the same experience again in a widget that lists experiences, and Back shows the list', async () => {
    let bookingNumber = '';
    const s = setup({ key: 'opk_test', locale: 'en' }, {}, (outing) => {
      bookingNumber = outing.book('PENDING', 1, tram).bookingNumber;
      history.replaceState(null, '', `${PAGE}&outing_booking=${bookingNumber}&outing_status=cancel`);
    });
    await s.ui.findByRole('heading', { name: 'Payment not completed' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book again' }));
    await s.ui.findByRole('heading', { name: 'Choose a date' });
    expect(s.ui.getByRole('status').textContent).toBe('Step 2 of 5: Choose a date');
    expect(s.ui.getByText('Tram 28 and Viewpoints')).toBeTruthy();
    fireEvent.click(s.ui.getByRole('button', { name: 'Back' }));
    await s.ui.findByRole('heading', { name: 'Choose an experience' });
    await s.ui.findByRole('button', { name: 'Select: Alfama at Dawn' });
  });

  it('offers Retry when Outing cannot be reached, and the retry finds the booking', async () => {
    const s = comeBack('success', 'CONFIRMED', pinned, (outing) => outing.failNext('bookings', 'network'));
    const retry = await s.ui.findByRole('button', { name: 'Retry' });
    expect(s.ui.getByRole('alert').textContent).toMatch(/could not reach the booking service/);
    expect(s.root.querySelector('[aria-busy="true"]')).toBeNull();
    fireEvent.click(retry);
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(s.ui.queryByRole('alert')).toBeNull();
    expect(s.booked).toHaveLength(1);
  });

  it('says so for an unknown booking and starts over', async () => {
    const s = setup(pinned, {}, () => history.replaceState(null, '', `${PAGE}&outing_booking=BK-NOSUCH00&outing_status=success`));
    await s.ui.findByRole('heading', { name: 'Booking not found' });
    expect(s.outing.requests.map((r) => r.url.pathname)).toEqual(['/public/v1/bookings/BK-NOSUCH00']);
    fireEvent.click(s.ui.getByRole('button', { name: 'Book again' }));
    await s.ui.findByRole('heading', { name: 'Choose a date' });
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    expect(location.search).toBe('?lang=en');
  });

  it('speaks Portuguese on the way back too', async () => {
    const s = comeBack('success', 'CANCELLED', { ...pinned, locale: 'pt-PT' });
    await s.ui.findByRole('heading', { name: 'Pagamento não concluído' });
    expect(s.ui.getByText('Os seus lugares não foram guardados.')).toBeTruthy();
    expect(s.ui.getByRole('button', { name: 'Reservar novamente' })).toBeTruthy();
  });

  it('still shows the outcome when the page may not change its address', async () => {
    const s = comeBack('success', 'CONFIRMED', pinned, () =>
      vi.spyOn(history, 'replaceState').mockImplementationOnce(() => {
        throw new DOMException('Denied', 'SecurityError');
      }),
    );
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(location.search).toContain('outing_booking=');
  });

  it('leaves the address alone and starts normally without a key, or without both parameters', async () => {
    const keyless = setup({ experience: 'exp_walk', locale: 'en' }, {}, () =>
      history.replaceState(null, '', `${PAGE}&outing_booking=BK-TEST0001&outing_status=success`),
    );
    await keyless.ui.findByText('Online booking is not available here right now.');
    expect(location.search).toBe('?lang=en&outing_booking=BK-TEST0001&outing_status=success');

    history.replaceState(null, '', `${PAGE}&outing_booking=BK-TEST0001`);
    const half = setup(pinned);
    await half.ui.findByRole('heading', { name: 'Choose a date' });
    expect(half.outing.requests.map((r) => r.url.pathname)).toEqual(['/public/v1/experiences/exp_walk', '/public/v1/availability']);
  });

  it('is taken by one widget only when the page has two', async () => {
    const first = comeBack('success', 'CONFIRMED');
    const second = setup(pinned);
    await first.ui.findByRole('heading', { name: 'Booking confirmed' });
    await second.ui.findByRole('heading', { name: 'Choose a date' });
    expect(document.querySelectorAll('[data-outing]')).toHaveLength(2);
  });
});
