import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { family, walk } from './test-helpers/fake-outing.js';
import type { FakeOutingOptions } from './test-helpers/fake-outing.js';
import { fill, mountForTest, pinned, toDetails, useWidgetTests } from './test-helpers/widget-under-test.js';
import type { WidgetUnderTest } from './test-helpers/widget-under-test.js';

useWidgetTests();

const withCategories = { ...pinned, experience: 'exp_family' };
const experiences: FakeOutingOptions = { experiences: [walk, family] };

const setup = (attributes = withCategories, prepare?: Parameters<typeof mountForTest>[2]) => mountForTest(attributes, experiences, prepare);

const quantity = (s: WidgetUnderTest, label: string) => (s.ui.getByLabelText(label) as HTMLInputElement).value;
const press = (s: WidgetUnderTest, name: string, times = 1) => {
  for (let i = 0; i < times; i++) fireEvent.click(s.ui.getByRole('button', { name }));
};
const total = (s: WidgetUnderTest) => s.root.querySelector('.total')!.textContent;
/** The price's lines, one per category chosen: "2 × Adult €50.00". */
const lines = (s: WidgetUnderTest) => [...s.root.querySelectorAll('.lines li')].map((li) => li.textContent);
const posts = (s: WidgetUnderTest) => s.outing.requests.filter((r) => r.method === 'POST');

describe('tickets of an experience with price categories', () => {
  it('shows a labelled quantity per category with its price and ages, starting at one of the first', async () => {
    const s = setup();
    await toDetails(s);
    expect(s.ui.getByRole('group', { name: 'Tickets' })).toBeTruthy();
    expect(quantity(s, 'Adult, €25.00')).toBe('1');
    expect(quantity(s, 'Child, €12.00')).toBe('0');
    expect(quantity(s, 'Infant, €0.00')).toBe('0');
    // Ages describe each input: "18+", "Ages 4–17", "Under 3" (maxAge 2).
    const described = (label: string) =>
      s.ui
        .getByLabelText(label)
        .getAttribute('aria-describedby')!
        .split(' ')
        .map((id) => s.root.getElementById(id)!.textContent)
        .join(' | ');
    expect(described('Adult, €25.00')).toBe('18+');
    expect(described('Child, €12.00')).toBe('Ages 4–17');
    expect(described('Infant, €0.00')).toBe('Under 3');
    expect(s.ui.getByRole('button', { name: 'Child: one ticket more' })).toBeTruthy();
    expect(s.ui.getByRole('button', { name: 'Child: one ticket fewer' }).getAttribute('aria-disabled')).toBe('true');
    // No participants field: the tickets are the party.
    expect(s.ui.queryByLabelText('Participants')).toBeNull();
    expect(total(s)).toBe('Total: €25.00');
    expect(lines(s)).toEqual(['1 × Adult €25.00']);
    expect(s.root.querySelector('.total')!.getAttribute('aria-live')).toBe('polite');
    // "Tickets" names the group once; the summary above it says what and when, not the tickets again.
    expect(s.ui.getAllByText('Tickets')).toHaveLength(1);
    expect(s.root.querySelector('.summary')!.textContent).not.toContain('Tickets');
  });

  it('keeps a running total, books with tickets alone, and lists them in the summary and the confirmation', async () => {
    const s = setup();
    await toDetails(s, '2026-12-02', '2:00 PM');
    press(s, 'Adult: one ticket more');
    press(s, 'Child: one ticket more');
    expect(total(s)).toBe('Total: €62.00');
    expect(lines(s)).toEqual(['2 × Adult €50.00', '1 × Child €12.00']);
    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));

    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(posts(s)[0]!.body).toEqual({
      experienceId: 'exp_family',
      startTime: '2026-12-02T14:00:00.000Z',
      // Only the categories chosen: the infant's 0 is left out.
      tickets: [
        { categoryId: 'pc_adult', quantity: 2 },
        { categoryId: 'pc_child', quantity: 1 },
      ],
      customerName: 'Ana Lima',
      customerEmail: 'ana@example.com',
      locale: 'en',
      expectedTotal: '62.00',
      website: '',
    });
    const summary = s.root.querySelector('.summary')!;
    expect(summary.textContent).toContain('Tickets2 × Adult, 1 × Child');
    expect(summary.textContent).toContain('Total€62.00');
    expect(summary.textContent).not.toContain('Participants');
    expect(s.booked).toEqual([
      { bookingNumber: 'BK-TEST0001', experienceId: 'exp_family', startTime: '2026-12-02T14:00:00.000Z', participants: 3, total: '62.00', currency: 'EUR' },
    ]);
  });

  it('counts places as the server does: an infant on a lap takes none, and a party may not exceed maxPerBooking', async () => {
    const s = setup();
    await toDetails(s);
    press(s, 'Adult: one ticket more', 2);
    press(s, 'Child: one ticket more');
    // 4 places, the most one booking may have (maxPerBooking 4).
    const more = s.ui.getByRole('button', { name: 'Adult: one ticket more' });
    expect(more.getAttribute('aria-disabled')).toBe('true');
    expect(s.root.getElementById(more.getAttribute('aria-describedby')!)!.textContent).toBe('Up to 4 per booking.');
    expect(s.ui.getByRole('button', { name: 'Child: one ticket more' }).getAttribute('aria-disabled')).toBe('true');
    press(s, 'Adult: one ticket more');
    expect(quantity(s, 'Adult, €25.00')).toBe('3');
    // The infant still can come along.
    const infant = s.ui.getByRole('button', { name: 'Infant: one ticket more' });
    expect(infant.getAttribute('aria-disabled')).toBe('false');
    expect(infant.getAttribute('aria-describedby')).toBeNull();
    press(s, 'Infant: one ticket more');
    expect(quantity(s, 'Infant, €0.00')).toBe('1');
    expect(total(s)).toBe('Total: €87.00');
    expect(lines(s)).toEqual(['3 × Adult €75.00', '1 × Child €12.00', '1 × Infant €0.00']);
    // A number typed past the limit is brought back to it.
    fireEvent.input(s.ui.getByLabelText('Child, €12.00'), { target: { value: '9' } });
    expect(quantity(s, 'Child, €12.00')).toBe('1');
    // What is typed counts at once: the lines and the total follow each keystroke.
    fireEvent.input(s.ui.getByLabelText('Infant, €0.00'), { target: { value: '3' } });
    fireEvent.input(s.ui.getByLabelText('Adult, €25.00'), { target: { value: '2' } });
    expect(lines(s)).toEqual(['2 × Adult €50.00', '1 × Child €12.00', '3 × Infant €0.00']);
    expect(total(s)).toBe('Total: €62.00');
    fireEvent.input(s.ui.getByLabelText('Adult, €25.00'), { target: { value: '3' } });
    fireEvent.input(s.ui.getByLabelText('Infant, €0.00'), { target: { value: '1' } });

    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect((posts(s)[0]!.body as { tickets: unknown }).tickets).toEqual([
      { categoryId: 'pc_adult', quantity: 3 },
      { categoryId: 'pc_child', quantity: 1 },
      { categoryId: 'pc_infant', quantity: 1 },
    ]);
    expect(s.root.querySelector('.summary')!.textContent).toContain('3 × Adult, 1 × Child, 1 × Infant');
  });

  it('never offers more tickets in all than the experience takes guests (maxParticipants 8), lap infants included', async () => {
    const s = setup();
    await toDetails(s);
    // 1 adult (one place) and infants, who take none: the party stops at 8 guests, as the server's cap does.
    fireEvent.input(s.ui.getByLabelText('Infant, €0.00'), { target: { value: '500' } });
    expect(quantity(s, 'Infant, €0.00')).toBe('7');
    expect(s.ui.getByRole('button', { name: 'Infant: one ticket more' }).getAttribute('aria-disabled')).toBe('true');
    // A place-taking ticket more would pass the cap too, though places remain for it.
    expect(s.ui.getByRole('button', { name: 'Adult: one ticket more' }).getAttribute('aria-disabled')).toBe('true');
    press(s, 'Infant: one ticket fewer');
    press(s, 'Adult: one ticket more');
    expect(quantity(s, 'Adult, €25.00')).toBe('2');
    expect(lines(s)).toEqual(['2 × Adult €50.00', '6 × Infant €0.00']);
  });

  it('holds the places to what is left at the time, and trims the party when a time with fewer is chosen', async () => {
    // Someone else has 6 of the 8 places at 14:00.
    const s = setup(withCategories, (outing) => outing.take('2026-12-02T14:00:00.000Z', 'exp_family', 6));
    await toDetails(s, '2026-12-02', '9:00 AM');
    press(s, 'Adult: one ticket more');
    press(s, 'Child: one ticket more');
    press(s, 'Infant: one ticket more');
    fireEvent.click(s.ui.getByRole('button', { name: 'Back' }));
    await s.ui.findByRole('heading', { name: 'Choose a time' });
    fireEvent.click(s.ui.getByRole('button', { name: /^2:00\sPM 2 places left$/ }));
    await s.ui.findByRole('heading', { name: 'Your details' });
    // The last categories that take a place give way; the infant stays.
    expect([quantity(s, 'Adult, €25.00'), quantity(s, 'Child, €12.00'), quantity(s, 'Infant, €0.00')]).toEqual(['2', '0', '1']);
    const more = s.ui.getByRole('button', { name: 'Child: one ticket more' });
    expect(more.getAttribute('aria-disabled')).toBe('true');
    expect(s.root.getElementById(more.getAttribute('aria-describedby')!)!.textContent).toBe('2 places left');
    expect(total(s)).toBe('Total: €50.00');
  });

  it('will not book only tickets that take no place, and says why', async () => {
    const s = setup();
    await toDetails(s);
    press(s, 'Infant: one ticket more');
    press(s, 'Adult: one ticket fewer');
    const note = 'Choose at least one ticket that takes a place (Adult, Child).';
    expect(s.ui.getByText(note).closest('[aria-live="polite"]')).toBeTruthy();
    expect(s.ui.getByLabelText('Adult, €25.00').getAttribute('aria-describedby')).toContain('tickets-note');
    expect(s.ui.getByLabelText('Infant, €0.00').getAttribute('aria-describedby')).not.toContain('tickets-note');
    expect(total(s)).toBe('Total: €0.00');

    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await waitFor(() => expect(s.root.activeElement).toBe(s.ui.getByLabelText('Adult, €25.00')));
    expect(posts(s)).toEqual([]);

    press(s, 'Child: one ticket more');
    expect(s.ui.queryByText(note)).toBeNull();
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(s.root.querySelector('.summary')!.textContent).toContain('1 × Child, 1 × Infant');
  });

  it('speaks Portuguese: the group, the buttons, the ages and the money', async () => {
    const s = setup({ ...withCategories, locale: 'pt-PT' });
    await s.ui.findByRole('heading', { name: 'Escolha uma data' });
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(s.day('2026-12-02'));
    await s.ui.findByRole('heading', { name: 'Escolha um horário' });
    fireEvent.click(s.ui.getByRole('button', { name: /^9:00 Restam 8 lugares$/ }));
    await s.ui.findByRole('heading', { name: 'Os seus dados' });

    expect(s.ui.getByRole('group', { name: 'Bilhetes' })).toBeTruthy();
    const adult = s.ui.getByLabelText(/^Adult, 25,00\s€$/);
    expect(s.ui.getByLabelText(/^Infant, 0,00\s€$/)).toBeTruthy();
    expect(s.root.getElementById(adult.getAttribute('aria-describedby')!)!.textContent).toBe('18+ anos');
    expect(s.ui.getByText('4–17 anos')).toBeTruthy();
    expect(s.ui.getByText('Menos de 3 anos')).toBeTruthy();
    press(s, 'Child: mais um bilhete');
    expect(total(s)).toMatch(/^Total: 37,00\s€$/);
    expect(lines(s).map((l) => l?.replace(/\s/g, ' '))).toEqual(['1 × Adult 25,00 €', '1 × Child 12,00 €']);
    press(s, 'Adult: menos um bilhete');
    press(s, 'Child: menos um bilhete');
    expect(s.ui.getByText('Escolha pelo menos um bilhete que ocupe lugar (Adult, Child).')).toBeTruthy();
    press(s, 'Adult: mais um bilhete', 4);
    expect(s.ui.getByText('Até 4 por reserva.')).toBeTruthy();
  });

  it('leaves an experience without categories as it was: participants, and no tickets sent', async () => {
    const s = mountForTest(pinned, experiences);
    await toDetails(s);
    expect(s.ui.queryByRole('group', { name: 'Tickets' })).toBeNull();
    fireEvent.click(s.ui.getByRole('button', { name: 'One participant more' }));
    expect(s.ui.getByText('€50.00')).toBeTruthy();
    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    const body = posts(s)[0]!.body as Record<string, unknown>;
    expect(body['participants']).toBe(2);
    expect(body).not.toHaveProperty('tickets');
    expect(s.root.querySelector('.summary')!.textContent).toContain('Participants2');
    expect(s.root.querySelector('.summary')!.textContent).not.toContain('Tickets');
  });
});
