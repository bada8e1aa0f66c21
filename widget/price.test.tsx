import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { PublicExperience } from '../shared/index.js';
import { family, walk } from './test-helpers/fake-outing.js';
import { fill, mountForTest, pinned, toDetails, useWidgetTests } from './test-helpers/widget-under-test.js';
import type { WidgetUnderTest } from './test-helpers/widget-under-test.js';

useWidgetTests();

const total = (s: WidgetUnderTest) => s.root.querySelector('.total')!.textContent;
const lines = (s: WidgetUnderTest) => [...s.root.querySelectorAll('.lines li')].map((li) => li.textContent);
const posts = (s: WidgetUnderTest) => s.outing.requests.filter((r) => r.method === 'POST');
const book = (s: WidgetUnderTest) => fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));

describe('the price on the list of experiences', () => {
  it('says "from" the least a booking starts at when categories cost different amounts, and "per person" otherwise', async () => {
    const sameForAll: PublicExperience = {
      ...walk,
      id: 'exp_same',
      name: 'Same for all',
      priceCategories: family.priceCategories.slice(0, 2).map((c) => ({ ...c, price: 1800 })),
    };
    const s = mountForTest({ key: 'opk_test', locale: 'en' }, { experiences: [walk, family, sameForAll] });
    await s.ui.findByRole('heading', { name: 'Choose an experience' });
    await waitFor(() => expect(s.root.querySelectorAll('.card')).toHaveLength(3));
    const meta = [...s.root.querySelectorAll('.card .meta')].map((p) => p.textContent);
    // The free infant on a lap books nothing alone: the child's €12.00 is where a booking starts.
    expect(meta).toEqual(['2 hr · €25.00 per person', '1 hr 30 min · from €12.00', '2 hr · €18.00 per person']);
  });

  it('says it in Portuguese too', async () => {
    const s = mountForTest({ key: 'opk_test', locale: 'pt-PT' }, { experiences: [walk, family] });
    await s.ui.findByRole('heading', { name: 'Escolha uma experiência' });
    await waitFor(() => expect(s.root.querySelectorAll('.card')).toHaveLength(2));
    const meta = [...s.root.querySelectorAll('.card .meta')].map((p) => p.textContent!.replace(/\s/g, ' '));
    expect(meta).toEqual(['2 h · 25,00 € por pessoa', '1 h 30 min · desde 12,00 €']);
  });
});

describe('a price changed while the guest was booking', () => {
  it('sends the total shown, then on 409 PRICE_CHANGED shows today’s prices and the new total, focused, and books at it when asked again', async () => {
    const s = mountForTest({ ...pinned, experience: 'exp_family' }, { experiences: [walk, family] });
    await toDetails(s, '2026-12-02', '2:00 PM');
    fireEvent.click(s.ui.getByRole('button', { name: 'Adult: one ticket more' }));
    fireEvent.click(s.ui.getByRole('button', { name: 'Child: one ticket more' }));
    expect(total(s)).toBe('Total: €62.00');
    // The operator raises the child's ticket from €12.00 to €15.00 while the guest types.
    s.outing.reprice('exp_family', 1500, 'pc_child');
    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    book(s);

    const notice = await s.ui.findByText('The price has changed: the total is now €65.00. Please check it and press Book again to confirm.');
    await waitFor(() => expect(s.root.activeElement).toBe(notice));
    expect(notice.id).toBe('changed');
    expect(lines(s)).toEqual(['2 × Adult €50.00', '1 × Child €15.00']);
    expect(total(s)).toBe('Total: €65.00');
    expect(s.ui.getByLabelText('Child, €15.00')).toBeTruthy();
    // Nothing booked; still on the form, with what the guest typed.
    expect(s.ui.getByRole('heading', { name: 'Your details' })).toBeTruthy();
    expect((s.ui.getByLabelText('Name') as HTMLInputElement).value).toBe('Ana Lima');
    expect(s.booked).toEqual([]);
    expect(s.outing.requests.filter((r) => r.url.pathname === '/public/v1/experiences/exp_family')).toHaveLength(2);

    book(s);
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    const [first, second] = posts(s);
    expect((first!.body as { expectedTotal: string }).expectedTotal).toBe('62.00');
    expect((second!.body as { expectedTotal: string }).expectedTotal).toBe('65.00');
    // Another body, another Idempotency-Key: the refusal is not replayed.
    expect(second!.headers['Idempotency-Key']).not.toBe(first!.headers['Idempotency-Key']);
    expect(s.booked[0]).toMatchObject({ total: '65.00' });
    expect(s.root.getElementById('changed')).toBeNull();
  });

  it('says a new price per participant the same way', async () => {
    const s = mountForTest(pinned);
    await toDetails(s);
    s.outing.reprice('exp_walk', 9999);
    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    book(s);
    await s.ui.findByText(/the total is now €99\.99\./);
    expect(total(s)).toBe('Total: €99.99');
    expect(lines(s)).toEqual([]);
    expect((posts(s)[0]!.body as { expectedTotal: string }).expectedTotal).toBe('25.00');
    // Said on this form only: another time's form starts without it.
    fireEvent.click(s.ui.getByRole('button', { name: 'Back' }));
    fireEvent.click(await s.ui.findByRole('button', { name: /^2:00\sPM/ }));
    await s.ui.findByRole('heading', { name: 'Your details' });
    expect(s.root.getElementById('changed')).toBeNull();
    expect(total(s)).toBe('Total: €99.99');
  });

  it('shows a Retry when today’s prices cannot be fetched, and the new total once they can', async () => {
    const s = mountForTest(pinned);
    await toDetails(s);
    s.outing.reprice('exp_walk', 3000);
    s.outing.failNext('experiences/exp_walk', 'network');
    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    book(s);
    fireEvent.click(await s.ui.findByRole('button', { name: 'Retry' }));
    // The retry books again (no total shown yet has changed): the refusal comes back, with the prices this time.
    await s.ui.findByText(/the total is now €30\.00\./);
    expect(total(s)).toBe('Total: €30.00');
    expect(s.booked).toEqual([]);
  });

  it('speaks Portuguese', async () => {
    const s = mountForTest({ ...pinned, locale: 'pt-PT' });
    await s.ui.findByRole('heading', { name: 'Escolha uma data' });
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(s.day('2026-12-02'));
    fireEvent.click(await s.ui.findByRole('button', { name: /^9:00 Restam 8 lugares$/ }));
    await s.ui.findByRole('heading', { name: 'Os seus dados' });
    s.outing.reprice('exp_walk', 2700);
    fill(s, { Nome: 'Rui', 'E-mail': 'rui@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Reservar' }));
    const notice = await s.ui.findByText(/^O preço mudou: o total é agora 27,00\s€\. Verifique-o e carregue novamente em Reservar para confirmar\.$/);
    await waitFor(() => expect(s.root.activeElement).toBe(notice));
  });
});
