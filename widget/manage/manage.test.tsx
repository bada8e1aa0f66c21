import { configure, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ManagedBooking } from '../../shared/index.js';
import { fakeManage, managedBooking, TOKEN } from './fake-manage.js';
import { mountManage } from './mount.js';
import type { MountedManage } from './mount.js';
import { manageCatalogs } from './messages.js';

const NOW = new Date('2026-12-01T10:00:00Z');
const BASE = 'https://outing.test';
// Intl may put a narrow no-break space before AM/PM.
const at = (time: string) => new RegExp(time.replace(' ', '\\s'));

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
  document.documentElement.lang = '';
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

interface OpenOptions {
  token?: string;
  browser?: string[];
  /** Sets the fake up before the first request. */
  prepare?: (outing: ReturnType<typeof fakeManage>) => void;
}

/** The page's brand rules, as the adopted sheets hold them. */
const accentRules = () =>
  document.adoptedStyleSheets.flatMap((sheet) => [...sheet.cssRules].map((r) => r.cssText.replace(/\s+/g, ' ').replace('{ ', '{').replace('; }', ';}'))).filter((t) => t.includes('--outing-accent'));

function open(booking: ManagedBooking = managedBooking(), { token = TOKEN, browser = ['en-US'], prepare }: OpenOptions = {}) {
  const outing = fakeManage(booking);
  prepare?.(outing);
  vi.stubGlobal('fetch', outing.fetch);
  const el = document.createElement('main');
  document.body.append(el);
  mounted.push(mountManage(el, { token, base: BASE, browser }));
  return { outing, el };
}

const button = (name: string | RegExp) => screen.getByRole('button', { name });
const detail = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

describe('the manage page', () => {
  it('shows the booking in the experience’s zone, asking with the token in the header alone', async () => {
    const { outing } = open();
    await screen.findByText('BK-7QX2M4');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Your booking');
    expect(detail('Experience')).toBe('Alfama at Dawn');
    expect(detail('Date')).toBe('Saturday, December 5, 2026');
    expect(detail('Time')).toMatch(/^9:00\sAM · Lisbon \(Western European Standard Time\)$/);
    expect(detail('Participants')).toBe('2');
    expect(detail('Total')).toBe('€50.00');
    expect(detail('Name')).toBe('Ana Lima');
    expect(detail('Status')).toBe('Confirmed');
    expect(screen.getByText(/You can cancel or change this booking online until Friday, December 4, 2026, 9:00\sAM/)).toBeTruthy();
    expect(document.title).toBe('Your booking · Lisbon Walks');
    expect(document.documentElement.lang).toBe('en-US');

    const [call] = outing.calls;
    expect(call!.url.href).toBe(`${BASE}/public/v1/manage`);
    expect(call!.headers['X-Manage-Token']).toBe(TOKEN);
    expect(call!.referrerPolicy).toBe('no-referrer');
    expect(call!.credentials).toBe('omit');
    expect(outing.calls.every((c) => !c.url.href.includes(TOKEN))).toBe(true);
  });

  it('lists tickets rather than participants when booked by price category', async () => {
    const booking = managedBooking();
    booking.booking.tickets = [
      { categoryId: 'pc_adult', name: 'Adult', type: 'ADULT', quantity: 2, unitPrice: 2500 },
      { categoryId: 'pc_child', name: 'Child', type: 'CHILD', quantity: 1, unitPrice: 1200 },
    ];
    open(booking);
    await screen.findByText('BK-7QX2M4');
    expect(detail('Tickets')).toBe('2 × Adult, 1 × Child');
    expect(screen.queryByText('Participants', { selector: 'dt' })).toBeNull();
  });

  it('lists the extras booked and the guest’s answers, label and value', async () => {
    const withForm = (locale?: 'pt') => {
      const booking = managedBooking(locale ? { locale } : {});
      booking.booking.extras = [
        { extraId: 'ex_lunch', name: 'Lunch', per: 'PERSON', quantity: 2, unitPrice: 1200 },
        { extraId: 'ex_photos', name: 'Photos', per: 'BOOKING', quantity: 1, unitPrice: 1500 },
      ];
      booking.booking.answers = [
        { questionId: 'q_diet', label: 'Dietary needs', type: 'TEXT', value: 'Vegetarian' },
        { questionId: 'q_waiver', label: 'I accept the safety rules', type: 'CHECKBOX', value: true },
        { questionId: 'q_age', label: 'Age of the youngest', type: 'NUMBER', value: 12 },
        { questionId: 'q_born', label: 'Date of birth', type: 'DATE', value: '2014-05-01' },
      ];
      return booking;
    };
    const answers = () => [...document.querySelectorAll('.answers li')].map((li) => li.textContent);
    open(withForm());
    await screen.findByText('BK-7QX2M4');
    expect(detail('Extras')).toBe('2 × Lunch, 1 × Photos');
    expect(answers()).toEqual(['Dietary needs: Vegetarian', 'I accept the safety rules: Yes', 'Age of the youngest: 12', 'Date of birth: Thursday, May 1, 2014']);
    expect(screen.getByText('Your answers', { selector: 'dt' })).toBeTruthy();
    mounted.forEach((m) => m.unmount());
    mounted = [];
    document.body.replaceChildren();

    open(withForm('pt'));
    await screen.findByText('BK-7QX2M4');
    expect(detail('Extras')).toBe('2 × Lunch, 1 × Photos');
    expect(screen.getByText('As suas respostas', { selector: 'dt' })).toBeTruthy();
    expect(answers()).toEqual(['Dietary needs: Vegetarian', 'I accept the safety rules: Sim', 'Age of the youngest: 12', 'Date of birth: quinta-feira, 1 de maio de 2014']);
  });

  it('shows no extras or answers when the booking has none', async () => {
    open();
    await screen.findByText('BK-7QX2M4');
    expect(screen.queryByText('Extras', { selector: 'dt' })).toBeNull();
    expect(screen.queryByText('Your answers', { selector: 'dt' })).toBeNull();
  });

  it('cancels after asking, with the reason given, and then shows the cancelled booking', async () => {
    const { outing } = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel booking' }));
    const heading = screen.getByRole('heading', { name: 'Cancel this booking?' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(outing.calls.filter((c) => c.method === 'POST')).toEqual([]);

    // Keeping it changes nothing and puts focus back where it was.
    fireEvent.click(button('Keep booking'));
    await waitFor(() => expect(document.activeElement).toBe(button('Cancel booking')));

    fireEvent.click(button('Cancel booking'));
    fireEvent.input(screen.getByLabelText('Reason (optional)'), { target: { value: 'Flight moved' } });
    fireEvent.click(button('Yes, cancel booking'));
    const notice = await screen.findByText('Your booking is cancelled.');
    await waitFor(() => expect(document.activeElement).toBe(notice));
    const post = outing.calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe('/public/v1/manage/cancel');
    expect(post.body).toEqual({ reason: 'Flight moved' });
    expect(post.headers['Content-Type']).toBe('application/json');
    expect(detail('Status')).toBe('Cancelled');
    expect(screen.queryByRole('button', { name: 'Cancel booking' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change time' })).toBeNull();
  });

  it('changes the time to another free slot, never offering the booking’s own', async () => {
    const { outing } = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Change time' }));
    const heading = await screen.findByRole('heading', { name: 'Choose a date' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const day = await waitFor(() => {
      const el = document.getElementById('day-2026-12-05')!;
      expect(el.getAttribute('aria-disabled')).toBe('false');
      return el;
    });
    const availability = outing.calls.find((c) => c.url.pathname.endsWith('/availability'))!;
    expect(availability.url.search).toBe('?startDate=2026-12-01&endDate=2027-01-31');
    fireEvent.click(day);
    await screen.findByRole('heading', { name: 'Choose a time' });
    const times = screen.getAllByRole('button', { name: /places left/ });
    // 09:00 is the booking's own time: only 14:00 is offered that day.
    expect(times.map((b) => b.textContent)).toEqual([expect.stringMatching(at('2:00 PM'))]);
    fireEvent.click(times[0]!);
    await screen.findByRole('heading', { name: 'Confirm the new time' });
    expect(screen.getByText(/^Move your booking to Saturday, December 5, 2026, 2:00\sPM · Lisbon \(/)).toBeTruthy();
    fireEvent.click(button('Confirm change'));
    const notice = await screen.findByText(/^Your booking now starts Saturday, December 5, 2026, 2:00\sPM/);
    await waitFor(() => expect(document.activeElement).toBe(notice));
    const post = outing.calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe('/public/v1/manage/reschedule');
    expect(post.body).toEqual({ startTime: '2026-12-05T14:00:00.000Z' });
    expect(detail('Time')).toMatch(at('2:00 PM'));
  });

  it('changes the participants, showing the new total as they are typed', async () => {
    const { outing } = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Change participants' }));
    expect(detail('Phone')).toBe('+351 911 111 111');
    const heading = screen.getByRole('heading', { name: 'Change participants' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const input = screen.getByLabelText('Participants') as HTMLInputElement;
    expect(input.value).toBe('2');
    expect(input.getAttribute('aria-describedby')).toBe('party-participants-hint');
    expect(screen.getByText('New total: €50.00')).toBeTruthy();
    fireEvent.input(input, { target: { value: '3' } });
    expect(screen.getByText('New total: €75.00')).toBeTruthy();

    // Back without saving: nothing sent, focus on the button that opened the form.
    fireEvent.click(button('Back to your booking'));
    await waitFor(() => expect(document.activeElement).toBe(button('Change participants')));
    fireEvent.click(button('Change participants'));
    fireEvent.input(screen.getByLabelText('Participants'), { target: { value: '4' } });
    fireEvent.click(button('Save changes'));
    const notice = await screen.findByText('Your booking has been updated.');
    await waitFor(() => expect(document.activeElement).toBe(notice));
    const post = outing.calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe('/public/v1/manage/update');
    expect(post.body).toEqual({ participants: 4 });
    expect(detail('Participants')).toBe('4');
    expect(detail('Total')).toBe('€100.00');
  });

  it('says what is wrong with the party the GOV.UK way: a summary that takes focus, the error by the field', async () => {
    const { outing } = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Change participants' }));
    fireEvent.input(screen.getByLabelText('Participants'), { target: { value: '0' } });
    fireEvent.click(button('Save changes'));
    const summary = await screen.findByRole('alert');
    await waitFor(() => expect(document.activeElement).toBe(summary));
    expect(within(summary).getByRole('heading', { name: 'There is a problem' })).toBeTruthy();
    const link = within(summary).getByRole('link', { name: 'Enter the number of participants as a whole number, 1 or more' });
    expect(document.title).toBe('Error: Your booking · Lisbon Walks');
    const input = screen.getByLabelText('Participants');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('party-participants-error')?.textContent).toBe('Error: Enter the number of participants as a whole number, 1 or more');
    expect(input.getAttribute('aria-describedby')).toBe('party-participants-hint party-participants-error');
    fireEvent.click(link);
    expect(document.activeElement).toBe(input);
    expect(outing.calls.filter((c) => c.method === 'POST')).toEqual([]);

    // Too many for the places left: the server's refusal, said by the field.
    fireEvent.input(input, { target: { value: '7' } });
    fireEvent.click(button('Save changes'));
    await screen.findByRole('link', { name: 'There are no places left at this time' });
    expect(outing.state.booking.totalParticipants).toBe(2);
  });

  it('changes tickets per category, with each category’s price', async () => {
    const booking = managedBooking();
    booking.booking.tickets = [
      { categoryId: 'pc_adult', name: 'Adult', type: 'ADULT', quantity: 2, unitPrice: 2500 },
      { categoryId: 'pc_child', name: 'Child', type: 'CHILD', quantity: 1, unitPrice: 1200 },
    ];
    booking.booking.total = '62.00';
    booking.booking.totalParticipants = 3;
    const { outing } = open(booking);
    fireEvent.click(await screen.findByRole('button', { name: 'Change tickets' }));
    fireEvent.input(screen.getByLabelText('Child, €12.00'), { target: { value: '0' } });
    fireEvent.input(screen.getByLabelText('Adult, €25.00'), { target: { value: '0' } });
    fireEvent.click(button('Save changes'));
    await screen.findByRole('link', { name: 'Choose at least 1 ticket' });
    fireEvent.input(screen.getByLabelText('Adult, €25.00'), { target: { value: '3' } });
    expect(screen.getByText('New total: €75.00')).toBeTruthy();
    fireEvent.click(button('Save changes'));
    await screen.findByText('Your booking has been updated.');
    expect(outing.calls.find((c) => c.method === 'POST')!.body).toEqual({ tickets: [{ categoryId: 'pc_adult', quantity: 3 }] });
    expect(detail('Tickets')).toBe('3 × Adult');
  });

  it('edits the name and phone, clearing the phone with an empty field', async () => {
    const { outing } = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit details' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Edit details' })));
    const name = screen.getByLabelText('Name') as HTMLInputElement;
    expect(name.value).toBe('Ana Lima');
    expect((screen.getByLabelText('Phone (optional)') as HTMLInputElement).value).toBe('+351 911 111 111');
    fireEvent.input(name, { target: { value: '  ' } });
    fireEvent.click(button('Save changes'));
    await screen.findByRole('link', { name: 'Enter your name' });
    fireEvent.input(name, { target: { value: 'Ana Lima Costa' } });
    fireEvent.input(screen.getByLabelText('Phone (optional)'), { target: { value: '' } });
    fireEvent.click(button('Save changes'));
    await screen.findByText('Your booking has been updated.');
    expect(outing.calls.find((c) => c.method === 'POST')!.body).toEqual({ customerName: 'Ana Lima Costa', customerPhone: null });
    expect(detail('Name')).toBe('Ana Lima Costa');
    expect(screen.queryByText('Phone', { selector: 'dt' })).toBeNull();
  });

  it('speaks Portuguese in the new forms for a booking made in Portuguese', async () => {
    open(managedBooking({ locale: 'pt' }), { browser: ['en-US'] });
    fireEvent.click(await screen.findByRole('button', { name: 'Alterar participantes' }));
    fireEvent.input(screen.getByLabelText('Participantes'), { target: { value: 'x' } });
    fireEvent.click(button('Guardar alterações'));
    await screen.findByRole('heading', { name: 'Há um problema' });
    expect(screen.getByRole('button', { name: 'Voltar à reserva' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Indique o número de participantes como número inteiro, 1 ou mais' })).toBeTruthy();
    expect(document.title).toBe('Erro: A sua reserva · Lisbon Walks');
  });

  it('goes back to fresh times when the chosen one was taken meanwhile', async () => {
    const { outing } = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Change time' }));
    await waitFor(() => expect(document.getElementById('day-2026-12-06')?.getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(document.getElementById('day-2026-12-06')!);
    fireEvent.click(await screen.findByRole('button', { name: at('9:00 AM') }));
    await screen.findByRole('heading', { name: 'Confirm the new time' });
    outing.fill('2026-12-06T09:00:00.000Z');
    fireEvent.click(button('Confirm change'));
    expect((await screen.findByRole('alert')).textContent).toMatch(/that time has just been taken/);
    await screen.findByRole('heading', { name: 'Choose a time' });
    await waitFor(() => expect(button(at('9:00 AM')).hasAttribute('disabled')).toBe(true));
    expect(outing.state.booking.timeSlot.startTime).toBe('2026-12-05T09:00:00.000Z');

    // Changing one's mind: the booking stays as it was.
    fireEvent.click(button('Keep the current time'));
    await waitFor(() => expect(document.activeElement).toBe(button('Change time')));
  });

  it('says why the booking cannot be changed online and how to reach the organization', async () => {
    open(managedBooking({ canCancel: false, canReschedule: false, canChangeParty: false, reason: 'PAST_CUTOFF' }));
    await screen.findByText('BK-7QX2M4');
    expect(screen.getByText('It is too close to the start to change or cancel this booking online.')).toBeTruthy();
    // The name and phone may still change until the start.
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Edit details']);
    const contact = within(screen.getByRole('region', { name: 'Contact' }));
    expect(contact.getByText('For any change or question, contact Lisbon Walks.')).toBeTruthy();
    expect(contact.getByRole('link', { name: 'hello@lisbonwalks.test' }).getAttribute('href')).toBe('mailto:hello@lisbonwalks.test');
    expect(contact.getByRole('link', { name: '+351 912 345 678' }).getAttribute('href')).toBe('tel:+351912345678');
  });

  it('leads a booking awaiting its online payment back to the payment page', async () => {
    const pending = managedBooking();
    open({ ...pending, booking: { ...pending.booking, status: 'PENDING', checkoutUrl: 'https://checkout.stripe.test/c/pay_1' } });
    await screen.findByText('Awaiting payment');
    expect(screen.getByRole('link', { name: 'Continue to payment' }).getAttribute('href')).toBe('https://checkout.stripe.test/c/pay_1');
  });

  it('wears the organization’s brand: its logo, alt its name, and its colour as the accent', async () => {
    const org = { name: 'Lisbon Walks', email: 'hello@lisbonwalks.test', phone: null, brandColor: '#0b7285', logoUrl: 'https://cdn.lisbonwalks.test/logo.png' };
    open(managedBooking({ organization: org }));
    await screen.findByText('BK-7QX2M4');
    const logo = screen.getByRole('img', { name: 'Lisbon Walks' });
    expect(logo.getAttribute('src')).toBe('https://cdn.lisbonwalks.test/logo.png');
    expect(accentRules()).toEqual(['.manage {--outing-accent: #0b7285;}']);
  });

  it('shows no logo but an https one, and keeps its own accent without a brand colour', async () => {
    open(managedBooking({ organization: { name: 'Lisbon Walks', email: 'hello@lisbonwalks.test', phone: null, brandColor: null, logoUrl: 'http://cdn.lisbonwalks.test/logo.png' } }));
    await screen.findByText('BK-7QX2M4');
    expect(screen.queryByRole('img')).toBeNull();
    expect(accentRules()).toEqual([]);
  });

  it('leaves the phone out when the organization has none, and names self-service being off', async () => {
    open(
      managedBooking({
        canCancel: false, canReschedule: false, canChangeParty: false, canEditContact: false, reason: 'SELF_SERVICE_OFF',
        organization: { name: 'Lisbon Walks', email: 'hello@lisbonwalks.test', phone: null, brandColor: null, logoUrl: null },
      }),
    );
    await screen.findByText('This booking cannot be changed or cancelled online.');
    expect(within(screen.getByRole('region', { name: 'Contact' })).queryByText(/Phone/)).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows the refusal and where the booking stands when the rules changed meanwhile', async () => {
    const { outing } = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel booking' }));
    outing.failNext('POST /cancel', { status: 409, code: 'CHANGE_NOT_ALLOWED' });
    fireEvent.click(button('Yes, cancel booking'));
    expect((await screen.findByRole('alert')).textContent).toBe('This booking can no longer be changed online.');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Cancel this booking?' })).toBeNull());
  });

  it('says the link does not work for an unknown token, and shows no booking', async () => {
    const { outing } = open(managedBooking(), { token: 'tok_unknownunknownunknown' });
    await screen.findByRole('heading', { name: 'This link does not work' });
    expect(screen.queryByText('BK-7QX2M4')).toBeNull();
    // No booking has the token, and then no waitlist offer: two questions, no more.
    expect(outing.calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual(['GET /public/v1/manage', 'GET /public/v1/waitlist/offer']);
    expect(outing.calls[1]!.headers).toEqual({ 'X-Waitlist-Token': 'tok_unknownunknownunknown' });
    expect(document.title).toBe('This link does not work');
  });

  it('asks nothing for an address without a token', async () => {
    const { outing } = open(managedBooking(), { token: '' });
    await screen.findByRole('heading', { name: 'This link does not work' });
    expect(outing.calls).toEqual([]);
  });

  it('offers to retry when the service cannot be reached', async () => {
    open(managedBooking(), { prepare: (outing) => outing.failNext('GET', 'network') });
    expect((await screen.findByRole('alert')).textContent).toMatch(/could not reach the booking service/);
    fireEvent.click(button('Retry'));
    await screen.findByText('BK-7QX2M4');
  });

  it('asks the guest to wait when rate limited, and tries again on request', async () => {
    open(managedBooking(), { prepare: (outing) => outing.failNext('GET', { status: 429, code: 'RATE_LIMITED' }) });
    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts. Please wait a moment and try again.');
    fireEvent.click(button('Retry'));
    await screen.findByText('BK-7QX2M4');
  });

  it('speaks Portuguese for a Portuguese booking, whatever the browser says', async () => {
    open(managedBooking({ locale: 'pt' }), { browser: ['en-US'] });
    await screen.findByRole('heading', { name: 'A sua reserva' });
    expect(document.documentElement.lang).toBe('pt-PT');
    expect(detail('Data')).toBe('sábado, 5 de dezembro de 2026');
    expect(detail('Estado')).toBe('Confirmada');
    expect(detail('Total')).toMatch(/^50,00\s€$/);
    expect(screen.getByText(/^Pode cancelar ou alterar esta reserva online até/)).toBeTruthy();
    fireEvent.click(button('Alterar horário'));
    await screen.findByRole('heading', { name: 'Escolha uma data' });
    await screen.findByRole('button', { name: 'Mês seguinte' });
    fireEvent.click(button('Manter o horário atual'));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancelar reserva' }));
    screen.getByRole('heading', { name: 'Cancelar esta reserva?' });
    screen.getByLabelText('Motivo (opcional)');
    fireEvent.click(button('Sim, cancelar reserva'));
    await screen.findByText('A sua reserva foi cancelada.');
  });

  it.each([
    ['es', 'Tu reserva', 'Cancelar reserva', 'Fecha', 'sábado, 5 de diciembre de 2026', /^50,00\s€$/, '¿Cancelar esta reserva?'],
    ['fr', 'Votre réservation', 'Annuler la réservation', 'Date', 'samedi 5 décembre 2026', /^50,00\s€$/, 'Annuler cette réservation ?'],
    ['de', 'Ihre Buchung', 'Buchung stornieren', 'Datum', 'Samstag, 5. Dezember 2026', /^50,00\s€$/, 'Diese Buchung stornieren?'],
    ['it', 'La tua prenotazione', 'Annulla prenotazione', 'Data', 'sabato 5 dicembre 2026', /^50,00\s€$/, 'Annullare questa prenotazione?'],
    ['nl', 'Je boeking', 'Boeking annuleren', 'Datum', 'zaterdag 5 december 2026', /^€\s50,00$/, 'Deze boeking annuleren?'],
  ] as const)('speaks %s for a booking in it: page language, title, dates, prices, the cancel button', async (locale, title, cancel, dateLabel, date, total, confirm) => {
    open(managedBooking({ locale }), { browser: ['en-US'] });
    await screen.findByRole('heading', { level: 1, name: title });
    expect(document.documentElement.lang).toBe(locale);
    expect(document.title.startsWith(title)).toBe(true);
    expect(detail(dateLabel)).toBe(date);
    expect(detail(manageCatalogs[locale].total)).toMatch(total);
    fireEvent.click(button(cancel));
    screen.getByRole('heading', { name: confirm });
  });

  it('keeps the browser’s region when it speaks the booking’s language', async () => {
    open(managedBooking({ locale: 'de' }), { browser: ['de-AT', 'en'] });
    await screen.findByRole('heading', { level: 1, name: 'Ihre Buchung' });
    expect(document.documentElement.lang).toBe('de-AT');
  });

  it('speaks the browser’s language before the booking names its own', async () => {
    open(managedBooking(), { token: '', browser: ['pt-BR'] });
    await screen.findByRole('heading', { name: 'Esta ligação não funciona' });
    expect(document.documentElement.lang).toBe('pt-BR');
  });
});
