import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { fill, mountForTest as setup, pinned, toDetails, useWidgetTests } from './test-helpers/widget-under-test.js';

useWidgetTests();

describe('when things go wrong', () => {
  it('says the slot was taken and shows fresh times when the booking gets a 409', async () => {
    const s = setup(pinned);
    await toDetails(s, '2026-12-02', '9:00 AM');
    // Another guest takes 7 of the 8 places meanwhile.
    s.outing.take('2026-12-02T09:00:00.000Z', 'exp_walk', 7);
    fireEvent.input(s.ui.getByLabelText('Participants'), { target: { value: '2' } });
    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));

    await s.ui.findByRole('heading', { name: 'Choose a time' });
    expect((await s.ui.findByRole('alert')).textContent).toMatch(/that time has just been taken/);
    await waitFor(() => expect(s.ui.getByRole('button', { name: /^9:00\sAM 1 place left$/ })).toBeTruthy());
    const gets = s.outing.requests.filter((r) => r.url.pathname === '/public/v1/availability');
    expect(gets).toHaveLength(2);
    expect(s.booked).toEqual([]);
  });

  it('goes back to the calendar with the message when the whole day is gone', async () => {
    const s = setup(pinned);
    await toDetails(s, '2026-12-02', '9:00 AM');
    s.outing.take('2026-12-02T09:00:00.000Z', 'exp_walk', 8);
    s.outing.take('2026-12-02T14:00:00.000Z', 'exp_walk', 8);
    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Choose a date' });
    expect((await s.ui.findByRole('alert')).textContent).toMatch(/that time has just been taken/);
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('true'));
  });

  it('offers Retry after a network failure, and the retry loads', async () => {
    const s = setup(pinned, {}, (outing) => outing.failNext('availability', 'network'));
    const retry = await s.ui.findByRole('button', { name: 'Retry' });
    expect(s.ui.getByRole('alert').textContent).toMatch(/could not reach the booking service/);
    fireEvent.click(retry);
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    expect(s.ui.queryByRole('alert')).toBeNull();
  });

  it('retries a failed booking with the same Idempotency-Key, so it cannot book twice', async () => {
    const s = setup(pinned);
    await toDetails(s);
    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    s.outing.failNext('bookings', 'network');
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    fireEvent.click(await s.ui.findByRole('button', { name: 'Retry' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    const posts = s.outing.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[1]!.headers['Idempotency-Key']).toBe(posts[0]!.headers['Idempotency-Key']);
  });

  it('uses a new Idempotency-Key once the guest changes the booking', async () => {
    const s = setup(pinned);
    await toDetails(s);
    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    s.outing.failNext('bookings', 'network');
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('button', { name: 'Retry' });
    fill(s, { Name: 'Ana Lima' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    const [first, second] = s.outing.requests.filter((r) => r.method === 'POST');
    expect(second!.headers['Idempotency-Key']).not.toBe(first!.headers['Idempotency-Key']);
  });

  it('uses a new Idempotency-Key after an answered failure, the same one while the first is in progress', async () => {
    const s = setup(pinned);
    await toDetails(s);
    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    s.outing.failNext('bookings', { status: 500, code: 'INTERNAL_ERROR' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    expect((await s.ui.findByRole('alert')).textContent).toMatch(/Something went wrong on our side/);
    s.outing.failNext('bookings', { status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(s.ui.getByRole('alert').textContent).toMatch(/still being processed/));
    fireEvent.click(s.ui.getByRole('button', { name: 'Retry' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    const keys = s.outing.requests.filter((r) => r.method === 'POST').map((r) => r.headers['Idempotency-Key']);
    expect(keys).toHaveLength(3);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe(keys[1]);
  });

  it('asks the guest to wait when rate limited, with Retry', async () => {
    const s = setup(pinned, {}, (outing) => outing.failNext('experiences', { status: 429, code: 'RATE_LIMITED' }));
    expect((await s.ui.findByRole('alert')).textContent).toMatch(/Too many attempts/);
    fireEvent.click(s.ui.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
  });

  it('explains an unknown experience without a pointless Retry', async () => {
    const s = setup({ ...pinned, experience: 'exp_gone' });
    await s.ui.findByText('This experience cannot be booked online.');
    expect(s.ui.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('renders a setup error, not an exception, without a key', async () => {
    const s = setup({ experience: 'exp_walk', locale: 'en' });
    await s.ui.findByText('Online booking is not available here right now.');
    expect(s.outing.requests).toHaveLength(0);
  });
});

describe('payment due', () => {
  it('shows the amount and a link to pay, and fires no outing:booked yet', async () => {
    const s = setup(pinned, { checkoutUrl: 'https://checkout.stripe.test/c/pay_1' });
    await toDetails(s);
    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Almost done: payment' });
    const link = s.ui.getByRole('link', { name: 'Continue to payment' });
    expect(link.getAttribute('href')).toBe('https://checkout.stripe.test/c/pay_1');
    expect(s.ui.getByText('€25.00').previousElementSibling!.textContent).toBe('Total');
    expect(s.booked).toEqual([]);
  });
});

describe('languages', () => {
  it('speaks European Portuguese with data-locale="pt-PT"', async () => {
    const s = setup({ ...pinned, locale: 'pt-PT' });
    await s.ui.findByRole('heading', { name: 'Escolha uma data' });
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    expect(s.day('2026-12-02').getAttribute('aria-label')).toBe('quarta-feira, 2 de dezembro de 2026');
    expect(s.root.querySelector('.outing')!.getAttribute('lang')).toBe('pt-PT');
    fireEvent.click(s.day('2026-12-02'));
    await s.ui.findByRole('heading', { name: 'Escolha um horário' });
    fireEvent.click(s.ui.getByRole('button', { name: /^9:00 Restam 8 lugares$/ }));
    await s.ui.findByRole('heading', { name: 'Os seus dados' });
    expect(s.ui.getByLabelText('Participantes')).toBeTruthy();
    expect(s.ui.getByLabelText('Nome')).toBeTruthy();
    expect(s.ui.getByRole('button', { name: 'Reservar' })).toBeTruthy();
    expect(s.ui.getByText(/25,00\s€/)).toBeTruthy();
    // The booking carries the guest's language, for the e-mails they will get.
    fill(s, { Nome: 'Rui Sousa', 'E-mail': 'rui@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Reservar' }));
    await waitFor(() => expect(s.outing.requests.at(-1)!.method).toBe('POST'));
    expect(s.outing.requests.at(-1)!.body).toMatchObject({ locale: 'pt', customerName: 'Rui Sousa' });
  });

  it('follows the browser’s languages without data-locale, and falls back to the org’s default language (English)', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ja-JP', 'pt-BR']);
    const pt = setup({ key: 'opk_test', experience: 'exp_walk' });
    await pt.ui.findByRole('heading', { name: 'Escolha uma data' });
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ja-JP']);
    const en = setup({ key: 'opk_test', experience: 'exp_walk' });
    await en.ui.findByRole('heading', { name: 'Choose a date' });
  });
});
