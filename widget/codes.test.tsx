import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { ChunkScript } from './chunks.js';
import { forms, type FormsChunk } from './forms.js';
import { family, kayak, walk } from './test-helpers/fake-outing.js';
import type { FakeOutingOptions } from './test-helpers/fake-outing.js';
import { fill, mountForTest, pinned, toDetails, useWidgetTests } from './test-helpers/widget-under-test.js';
import type { WidgetUnderTest } from './test-helpers/widget-under-test.js';

useWidgetTests();

const CODES = 'https://outing.test/widget/forms.js';
const VOUCHER = 'GV-7K3M-Q9XZ-4PRT';
const MASK = 'GV-••••-••••-4PRT';

const known: FakeOutingOptions = {
  promoCodes: {
    SUMMER10: { type: 'PERCENT', value: 10 },
    FIVE: { type: 'AMOUNT', value: 500 },
    OLD: { reason: 'EXPIRED' },
  },
  vouchers: { [VOUCHER]: { balance: 2000 }, 'GV-0000-0000-DEAD': { reason: 'USED' } },
};

/**
 * What a browser does with a script widget.js adds: fetches it, runs it (the chunk hands its export
 * to its <script>) and fires `load`. happy-dom runs no fetched script, so the test plays that part
 * with the chunk's own export; widget.js's side is the real one.
 */
async function arrives<T>(src: string, exported: T): Promise<void> {
  const script = await waitFor(() => {
    const found = document.head.querySelector<ChunkScript<T>>(`script[src="${src}"]`);
    if (!found) throw new Error(`widget.js has not asked for ${src}`);
    return found;
  });
  if (!script.outing) {
    script.outing = exported;
    script.dispatchEvent(new Event('load'));
  }
}

/** To the details step, "Have a code?" pressed and the box there. */
async function openBox(s: WidgetUnderTest): Promise<HTMLInputElement> {
  await toDetails(s);
  fireEvent.click(s.ui.getByRole('button', { name: s.root.querySelector('[lang="pt"]') ? 'Tem um código?' : 'Have a code?' }));
  await arrives<FormsChunk>(CODES, forms);
  return s.ui.findByLabelText(s.root.querySelector('[lang="pt"]') ? 'Código promocional ou vale de oferta' : 'Promo code or gift voucher') as Promise<HTMLInputElement>;
}

async function apply(s: WidgetUnderTest, code: string, button = 'Apply'): Promise<void> {
  fireEvent.input(s.root.getElementById('code')!, { target: { value: code } });
  fireEvent.click(s.ui.getByRole('button', { name: button }));
}

const quotes = (s: WidgetUnderTest) => s.outing.requests.filter((r) => r.url.pathname === '/public/v1/quote');
const total = (s: WidgetUnderTest) => s.root.querySelector('.total')!.textContent;
const lines = (s: WidgetUnderTest) => [...s.root.querySelectorAll('.lines li')].map((li) => li.textContent);
const said = (s: WidgetUnderTest) => s.root.getElementById('code-said')!.textContent;

describe('Have a code?', () => {
  it('loads the code box’s chunk only once pressed, and takes the guest into the box', async () => {
    const s = mountForTest(pinned, known);
    await toDetails(s);
    expect(document.head.querySelector(`script[src="${CODES}"]`)).toBeNull();
    const open = s.ui.getByRole('button', { name: 'Have a code?' });
    open.focus();
    fireEvent.click(open);
    // The button stays (and keeps focus) until the chunk is here.
    expect(document.head.querySelector(`script[src="${CODES}"]`)).not.toBeNull();
    expect(s.ui.getByRole('button', { name: 'Have a code?' })).toBeTruthy();
    await arrives<FormsChunk>(CODES, forms);
    const input = await s.ui.findByLabelText('Promo code or gift voucher');
    expect(s.root.activeElement).toBe(input);
    expect(s.ui.queryByRole('button', { name: 'Have a code?' })).toBeNull();
    expect(quotes(s)).toHaveLength(0);
  });

  it('sends a promo code as promoCode, shows the discount line and the new total, and books with them', async () => {
    const s = mountForTest(pinned, known);
    await openBox(s);
    fireEvent.click(s.ui.getByRole('button', { name: 'One participant more' }));
    await apply(s, '  summer10 ');
    await waitFor(() => expect(total(s)).toBe('Total: €45.00'));
    expect(quotes(s)[0]!.body).toEqual({ experienceId: 'exp_walk', participants: 2, startTime: '2026-12-02T09:00:00.000Z', promoCode: 'SUMMER10' });
    expect(quotes(s)[0]!.headers['X-Outing-Key']).toBe('opk_test');
    expect(lines(s)).toEqual(['2 × Alfama at Dawn €50.00', 'Discount (SUMMER10) -€5.00', 'SUMMER10 Remove SUMMER10']);
    expect(said(s)).toBe('Code applied.');
    expect((s.root.getElementById('code') as HTMLInputElement).value).toBe('');

    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    const post = s.outing.requests.find((r) => r.url.pathname === '/public/v1/bookings')!;
    expect(post.body).toMatchObject({ participants: 2, promoCode: 'SUMMER10', expectedTotal: '45.00' });
    expect(post.body).not.toHaveProperty('voucherCode');
    expect(s.booked[0]!.total).toBe('45.00');
    // The confirmation names the discount (its chunk, once confirmed).
    // The confirmation's part is in forms.js, here already.
    await waitFor(() => expect(lines(s)).toContain('Discount (SUMMER10) -€5.00'));
    expect(s.ui.getByText('Booked for Ana Lima (ana@example.com).')).toBeTruthy();
  });

  it('sends a GV-… code as voucherCode, after a promo code, and shows the voucher’s part and what is left to pay', async () => {
    const s = mountForTest(pinned, known);
    await openBox(s);
    fireEvent.click(s.ui.getByRole('button', { name: 'One participant more' }));
    await apply(s, 'five');
    await waitFor(() => expect(total(s)).toBe('Total: €45.00'));
    await apply(s, VOUCHER.toLowerCase());
    await waitFor(() => expect(s.ui.getByText('Left to pay:')).toBeTruthy());
    expect(quotes(s).at(-1)!.body).toMatchObject({ promoCode: 'FIVE', voucherCode: VOUCHER });
    // The total stays after the discount; the voucher pays €20.00 of it.
    expect(total(s)).toBe('Total: €45.00');
    expect(lines(s)).toEqual([
      '2 × Alfama at Dawn €50.00',
      'Discount (FIVE) -€5.00',
      `Gift voucher (${MASK}) -€20.00`,
      'FIVE Remove FIVE',
      `${MASK} Remove ${MASK}`,
    ]);
    expect(s.root.querySelectorAll('.total')[1]!.textContent).toBe('Left to pay: €25.00');

    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    const post = s.outing.requests.find((r) => r.url.pathname === '/public/v1/bookings')!;
    // expectedTotal is the total after the discount, before the voucher.
    expect(post.body).toMatchObject({ promoCode: 'FIVE', voucherCode: VOUCHER, expectedTotal: '45.00' });
    // The confirmation's part is in forms.js, here already.
    await waitFor(() => expect(lines(s)).toEqual(['Discount (FIVE) -€5.00', `Gift voucher (${MASK}) -€20.00`]));
    expect([...s.root.querySelectorAll('.total')].at(-1)!.textContent).toBe('Left to pay: €25.00');
  });

  it('says each refusal in words, tied to the box, and keeps focus there', async () => {
    const reasons: [string, string, string][] = [
      ['PROMO_CODE_INVALID', 'NOT_FOUND', 'This code is not one we know.'],
      ['PROMO_CODE_INVALID', 'INACTIVE', 'This code is not active.'],
      ['PROMO_CODE_INVALID', 'NOT_YET_VALID', 'This code is not valid yet.'],
      ['PROMO_CODE_INVALID', 'EXPIRED', 'This code has expired.'],
      ['PROMO_CODE_INVALID', 'NOT_FOR_EXPERIENCE', 'This code is not valid for this experience.'],
      ['PROMO_CODE_INVALID', 'USED_UP', 'This code has been used up.'],
      ['VOUCHER_INVALID', 'NOT_FOUND', 'This gift voucher is not one we know.'],
      ['VOUCHER_INVALID', 'DISABLED', 'This gift voucher has been disabled.'],
      ['VOUCHER_INVALID', 'EXPIRED', 'This gift voucher has expired.'],
      ['VOUCHER_INVALID', 'USED', 'This gift voucher has been used up.'],
      ['VOUCHER_INVALID', 'CURRENCY', 'This gift voucher is in another currency.'],
    ];
    const s = mountForTest(pinned, known);
    const input = await openBox(s);
    for (const [code, reason, words] of reasons) {
      s.outing.failNext('quote', { status: 400, code, details: { reason } as never });
      await apply(s, code === 'VOUCHER_INVALID' ? VOUCHER : 'SPRING');
      await waitFor(() => expect(said(s)).toBe(words));
      expect(input.getAttribute('aria-invalid')).toBe('true');
      expect(input.getAttribute('aria-describedby')).toBe('code-said');
      expect(s.root.getElementById('code-said')!.getAttribute('aria-live')).toBe('polite');
      expect(s.root.activeElement).toBe(input);
    }
    s.outing.failNext('quote', { status: 429, code: 'RATE_LIMITED' });
    await apply(s, 'SPRING');
    await waitFor(() => expect(said(s)).toBe('Too many tries. Please wait a few minutes.'));
    fireEvent.input(input, { target: { value: '' } });
    expect(input.getAttribute('aria-invalid')).toBe('false');
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(said(s)).toBe('Enter a code.'));
    // Enter applied the box; it sent no booking.
    expect(s.outing.requests.some((r) => r.url.pathname === '/public/v1/bookings')).toBe(false);
    expect(total(s)).toBe('Total: €25.00');
  });

  it('says a refusal in Portuguese to a guest who reads it', async () => {
    const s = mountForTest({ ...pinned, locale: 'pt-PT' }, known);
    await s.ui.findByRole('heading', { name: 'Escolha uma data' });
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(s.day('2026-12-02'));
    await waitFor(() => expect(s.root.querySelector('.time')).toBeTruthy());
    fireEvent.click(s.root.querySelector('.time')!);
    fireEvent.click(await s.ui.findByRole('button', { name: 'Tem um código?' }));
    await arrives<FormsChunk>(CODES, forms);
    await s.ui.findByLabelText('Código promocional ou vale de oferta');
    await apply(s, 'old', 'Aplicar');
    await waitFor(() => expect(said(s)).toBe('Este código expirou.'));
    await apply(s, 'GV-0000-0000-DEAD', 'Aplicar');
    await waitFor(() => expect(said(s)).toBe('Este vale de oferta já foi totalmente utilizado.'));
  });

  it('removes a code: the total without it, focus back in the box', async () => {
    const s = mountForTest(pinned, known);
    const input = await openBox(s);
    await apply(s, 'FIVE');
    await waitFor(() => expect(total(s)).toBe('Total: €20.00'));
    fireEvent.click(s.ui.getByRole('button', { name: 'Remove FIVE' }));
    expect(total(s)).toBe('Total: €25.00');
    expect(lines(s)).toEqual([]);
    expect(said(s)).toBe('Code removed.');
    expect(s.root.activeElement).toBe(input);
    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    const post = s.outing.requests.find((r) => r.url.pathname === '/public/v1/bookings')!;
    expect(post.body).not.toHaveProperty('promoCode');
    expect(post.body).toMatchObject({ expectedTotal: '25.00' });
  });

  it('asks again when the party changes, and the booking sends the new total', async () => {
    const s = mountForTest(pinned, known);
    await openBox(s);
    await apply(s, 'SUMMER10');
    await waitFor(() => expect(total(s)).toBe('Total: €22.50'));
    fireEvent.click(s.ui.getByRole('button', { name: 'One participant more' }));
    fireEvent.click(s.ui.getByRole('button', { name: 'One participant more' }));
    await waitFor(() => expect(total(s)).toBe('Total: €67.50'));
    expect(quotes(s).at(-1)!.body).toMatchObject({ participants: 3, promoCode: 'SUMMER10' });
    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(s.outing.requests.find((r) => r.url.pathname === '/public/v1/bookings')!.body).toMatchObject({
      participants: 3,
      promoCode: 'SUMMER10',
      expectedTotal: '67.50',
    });
  });

  it('asks again with the tickets chosen, for an experience sold in price categories', async () => {
    const s = mountForTest({ ...pinned, experience: 'exp_family' }, { ...known, experiences: [family] });
    await openBox(s);
    await apply(s, 'FIVE');
    await waitFor(() => expect(total(s)).toBe('Total: €20.00'));
    fireEvent.click(s.ui.getByRole('button', { name: 'Child: one ticket more' }));
    await waitFor(() => expect(total(s)).toBe('Total: €32.00'));
    expect(quotes(s).at(-1)!.body).toMatchObject({ tickets: [{ categoryId: 'pc_adult', quantity: 1 }, { categoryId: 'pc_child', quantity: 1 }], promoCode: 'FIVE' });
  });

  it('drops a code the booking refuses (used up meanwhile) and says why at the box', async () => {
    const s = mountForTest(pinned, known);
    const input = await openBox(s);
    await apply(s, 'FIVE');
    await waitFor(() => expect(total(s)).toBe('Total: €20.00'));
    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    s.outing.failNext('bookings', { status: 400, code: 'PROMO_CODE_INVALID', details: { reason: 'USED_UP' } as never });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await waitFor(() => expect(said(s)).toBe('This code has been used up.'));
    expect(s.root.activeElement).toBe(input);
    expect(total(s)).toBe('Total: €25.00');
    expect(s.ui.queryByRole('alert')).toBeNull();
  });

  it('keeps the booking form’s extras in the quote and its lines', async () => {
    const s = mountForTest({ ...pinned, experience: 'exp_kayak' }, { ...known, experiences: [walk, kayak] });
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    await arrives<FormsChunk>(CODES, forms);
    fireEvent.click(s.day('2026-12-02'));
    await waitFor(() => expect(s.root.querySelector('.time')).toBeTruthy());
    fireEvent.click(s.root.querySelector('.time')!);
    await s.ui.findByRole('heading', { name: 'Extras and questions' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Photos: one more' }));
    fireEvent.input(s.root.getElementById('q-q_diet')!, { target: { value: 'None' } });
    fireEvent.click(s.root.getElementById('q-q_waiver')!);
    fireEvent.click(s.ui.getByRole('button', { name: 'Continue' }));
    await s.ui.findByRole('heading', { name: 'Your details' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Have a code?' }));
    await arrives<FormsChunk>(CODES, forms);
    await s.ui.findByLabelText('Promo code or gift voucher');
    await apply(s, 'SUMMER10');
    await waitFor(() => expect(total(s)).toBe('Total: €49.50'));
    expect(quotes(s).at(-1)!.body).toEqual({
      experienceId: 'exp_kayak',
      participants: 1,
      extras: [{ extraId: 'ex_photos', quantity: 1 }],
      startTime: expect.any(String),
      promoCode: 'SUMMER10',
    });
    expect(lines(s)).toEqual(['1 × Kayak the Tagus €40.00', '1 × Photos €15.00', 'Discount (SUMMER10) -€5.50', 'SUMMER10 Remove SUMMER10']);
    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(s.outing.requests.find((r) => r.url.pathname === '/public/v1/bookings')!.body).toMatchObject({
      extras: [{ extraId: 'ex_photos', quantity: 1 }],
      answers: expect.any(Array),
      promoCode: 'SUMMER10',
      expectedTotal: '49.50',
    });
  });
});
