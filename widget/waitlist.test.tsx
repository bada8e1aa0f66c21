import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { PublicExperience } from '../shared/index.js';
import type { ChunkScript } from './chunks.js';
import { forms, type FormsChunk } from './forms.js';
import { family, kayak, walk } from './test-helpers/fake-outing.js';
import { fill, mountForTest, pinned, useWidgetTests } from './test-helpers/widget-under-test.js';
import type { WidgetUnderTest } from './test-helpers/widget-under-test.js';

useWidgetTests();

const CHUNK = 'https://outing.test/widget/forms.js';
const FORM = CHUNK;
const NINE = '2026-12-02T09:00:00.000Z';
const TWO = '2026-12-02T14:00:00.000Z';

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

const withWaitlist = (e: PublicExperience): PublicExperience => ({ ...e, waitlist: true });

/** A pinned experience (the walk by default, with a waitlist) whose 09:00 on 2 December is full. */
function fullNine(options: { experience?: PublicExperience; locale?: string; full?: string[] } = {}) {
  const experience = options.experience ?? withWaitlist(walk);
  return mountForTest({ ...pinned, experience: experience.id, locale: options.locale ?? 'en' }, { experiences: [experience] }, (o) => {
    for (const start of options.full ?? [NINE]) o.take(start, experience.id, 8);
  });
}

/** The times of 2 December. */
async function toTimes(s: WidgetUnderTest, heading = 'Choose a time'): Promise<void> {
  await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
  fireEvent.click(s.day('2026-12-02'));
  await s.ui.findByRole('heading', { name: heading });
}

const timeButtons = (s: WidgetUnderTest) => [...s.root.querySelectorAll<HTMLButtonElement>('.time')];

/** The full 09:00 chosen, on to the waitlist's form, its chunk arrived. */
async function toWaitlist(s: WidgetUnderTest, heading = 'Join the waitlist'): Promise<void> {
  await toTimes(s, s.root.querySelector('[lang="pt"]') ? 'Escolha um horário' : 'Choose a time');
  fireEvent.click(timeButtons(s)[0]!);
  await arrives<FormsChunk>(CHUNK, forms);
  await s.ui.findByRole('heading', { name: heading });
}

const joins = (s: WidgetUnderTest) => s.outing.requests.filter((r) => r.url.pathname === '/public/v1/waitlist');
const join = (s: WidgetUnderTest, name = 'Join the waitlist') => fireEvent.click(s.ui.getByRole('button', { name }));

describe('a full time of an experience with a waitlist', () => {
  it('stays choosable as "Full – join the waitlist"; without a waitlist it is "Full" and disabled', async () => {
    const s = fullNine();
    await toTimes(s);
    expect(timeButtons(s).map((b) => [b.textContent!.replace(/\s+/g, ' '), b.disabled])).toEqual([
      [expect.stringMatching(/^9:00\sAM Full – join the waitlist$/), false],
      [expect.stringMatching(/^2:00\sPM 8 places left$/), false],
    ]);

    const plain = fullNine({ experience: walk });
    await toTimes(plain);
    expect(timeButtons(plain).map((b) => [b.textContent!.replace(/\s+/g, ' '), b.disabled])).toEqual([
      [expect.stringMatching(/^9:00\sAM Full$/), true],
      [expect.stringMatching(/^2:00\sPM 8 places left$/), false],
    ]);
  });

  it('keeps a day whose every time is full choosable, and only with a waitlist', async () => {
    const s = fullNine({ full: [NINE, TWO] });
    await toTimes(s);
    expect(timeButtons(s).every((b) => !b.disabled && b.textContent!.includes('Full – join the waitlist'))).toBe(true);
    expect(s.ui.queryByText(/No free times left/)).toBeNull();

    const plain = fullNine({ experience: walk, full: [NINE, TWO] });
    await waitFor(() => expect(plain.day('2026-12-03').getAttribute('aria-disabled')).toBe('false'));
    expect(plain.day('2026-12-02').getAttribute('aria-disabled')).toBe('true');
  });

  it('loads forms.js (the waitlist’s step) only once a full time is chosen: booking a time with places never does', async () => {
    const s = fullNine();
    await toTimes(s);
    fireEvent.click(timeButtons(s)[1]!);
    await s.ui.findByRole('heading', { name: 'Your details' });
    expect(document.head.querySelector(`script[src="${CHUNK}"]`)).toBeNull();
    fireEvent.click(s.ui.getByRole('button', { name: 'Back' }));
    await s.ui.findByRole('heading', { name: 'Choose a time' });
    fireEvent.click(timeButtons(s)[0]!);
    expect(document.head.querySelector(`script[src="${CHUNK}"]`)).not.toBeNull();
  });

  it('joins with the party, name, e-mail, phone and language, and says the position', async () => {
    const s = fullNine();
    await toWaitlist(s);
    expect(s.ui.getByText(/This time is full/)).toBeTruthy();
    expect(s.root.querySelector('.summary')!.textContent).toContain('Alfama at Dawn');
    // The party is limited by the booking's limit, not by the places left (none).
    const party = s.root.getElementById('participants') as HTMLInputElement;
    expect(party.max).toBe('6');
    fireEvent.click(s.ui.getByRole('button', { name: 'One participant more' }));
    fireEvent.click(s.ui.getByRole('button', { name: 'One participant more' }));
    expect(party.value).toBe('3');
    fill(s, { Name: 'Rita Sousa', 'E-mail': 'rita@example.com', 'Phone (optional)': '+351 912 345 678' });
    join(s);

    await s.ui.findByRole('heading', { name: 'You are on the waitlist' });
    expect(s.root.querySelector('.lead')!.textContent).toBe('You are number 1 on the waitlist');
    expect(s.ui.getByText('If places come free, we will e-mail rita@example.com an offer to book them.')).toBeTruthy();
    expect(s.root.querySelector('.summary')!.textContent).toContain('Participants3');
    expect(s.root.activeElement).toBe(s.root.getElementById('heading'));
    expect(joins(s)).toHaveLength(1);
    expect(joins(s)[0]!.headers['X-Outing-Key']).toBe('opk_test');
    // Sent as a booking is: a retry after a lost answer replays rather than joins twice.
    expect(joins(s)[0]!.headers['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);
    expect(joins(s)[0]!.body).toEqual({
      experienceId: 'exp_walk',
      startTime: NINE,
      participants: 3,
      customerName: 'Rita Sousa',
      customerEmail: 'rita@example.com',
      customerPhone: '+351 912 345 678',
      locale: 'en',
      website: '',
    });
    // Nothing was booked; the host page hears of bookings only.
    expect(s.outing.requests.filter((r) => r.url.pathname === '/public/v1/bookings')).toEqual([]);
    expect(s.booked).toEqual([]);

    // The next guest is number 2.
    fireEvent.click(s.ui.getByRole('button', { name: 'Make another booking' }));
    await toWaitlist(s);
    fill(s, { Name: 'João Reis', 'E-mail': 'joao@example.com' });
    join(s);
    await s.ui.findByRole('heading', { name: 'You are on the waitlist' });
    expect(s.root.querySelector('.lead')!.textContent).toBe('You are number 2 on the waitlist');
  });

  it('checks the name and e-mail before sending, beside their fields, focus on the first', async () => {
    const s = fullNine();
    await toWaitlist(s);
    fill(s, { 'E-mail': 'not-an-address' });
    join(s);
    await waitFor(() => expect(s.root.activeElement?.id).toBe('name'));
    expect(s.root.getElementById('name-error')!.textContent).toBe('Please fill this in.');
    expect(s.root.getElementById('email-error')!.textContent).toMatch(/e-mail address such as/);
    expect(s.root.getElementById('email')!.getAttribute('aria-invalid')).toBe('true');
    expect(joins(s)).toEqual([]);
  });

  it('says in words that the guest is already on the waitlist, focused', async () => {
    const s = fullNine();
    await toWaitlist(s);
    fill(s, { Name: 'Rita Sousa', 'E-mail': 'rita@example.com' });
    join(s);
    await s.ui.findByRole('heading', { name: 'You are on the waitlist' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Make another booking' }));
    await toWaitlist(s);
    fill(s, { Name: 'Rita Sousa', 'E-mail': 'RITA@example.com' });
    join(s);
    const said = await s.ui.findByText('You are already on the waitlist for this time with this e-mail address.');
    expect(s.root.activeElement).toBe(said);
    expect(s.ui.getByRole('heading', { name: 'Join the waitlist' })).toBeTruthy();
    expect(s.outing.waitlist).toHaveLength(1);
  });

  it('leads back to booking when the time has places after all (SLOT_HAS_PLACES)', async () => {
    const s = fullNine();
    await toWaitlist(s);
    // Someone cancels while the guest types.
    s.outing.free(NINE, 'exp_walk', 2);
    fill(s, { Name: 'Rita Sousa', 'E-mail': 'rita@example.com' });
    join(s);
    const said = await s.ui.findByText('Places have just come free at this time: you can book it now.');
    expect(s.root.activeElement).toBe(said);
    fireEvent.click(s.ui.getByRole('button', { name: 'Book this time' }));
    await s.ui.findByRole('heading', { name: 'Your details' });
    // The same time, now with places, and what the guest typed.
    expect(s.root.querySelector('.summary')!.textContent).toMatch(/9:00/);
    expect((s.root.getElementById('name') as HTMLInputElement).value).toBe('Rita Sousa');
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(s.outing.requests.find((r) => r.url.pathname === '/public/v1/bookings')!.body).toMatchObject({ startTime: NINE, participants: 1 });
  });

  it('says a time that no longer takes a waitlist (SLOT_UNAVAILABLE), and a failure with Retry', async () => {
    const s = fullNine();
    await toWaitlist(s);
    fill(s, { Name: 'Rita Sousa', 'E-mail': 'rita@example.com' });
    s.outing.failNext('waitlist', { status: 409, code: 'SLOT_UNAVAILABLE' });
    join(s);
    expect(await s.ui.findByText('This time no longer takes a waitlist. Please choose another time.')).toBeTruthy();

    s.outing.failNext('waitlist', 'network');
    join(s);
    expect(await s.ui.findByRole('alert')).toHaveProperty('textContent', expect.stringMatching(/could not reach/));
    fireEvent.click(s.ui.getByRole('button', { name: 'Retry' }));
    await s.ui.findByRole('heading', { name: 'You are on the waitlist' });
  });

  it('shows a refused e-mail beside its field', async () => {
    const s = fullNine();
    await toWaitlist(s);
    fill(s, { Name: 'Rita Sousa', 'E-mail': 'rita@example.com' });
    s.outing.failNext('waitlist', { status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'customerEmail', message: 'Invalid email' }] });
    join(s);
    await waitFor(() => expect(s.root.activeElement?.id).toBe('email'));
    expect(s.root.getElementById('email-error')!.textContent).toMatch(/e-mail address/);
  });

  it('takes tickets as the booking step does, limited by the booking’s limit', async () => {
    const s = fullNine({ experience: withWaitlist(family) });
    await toWaitlist(s);
    expect(s.ui.getByRole('group', { name: 'Tickets' })).toBeTruthy();
    // Up to the 4 a booking may have, though no place is left.
    expect((s.root.getElementById('ticket-0') as HTMLInputElement).max).toBe('4');
    fireEvent.click(s.ui.getByRole('button', { name: 'Child: one ticket more' }));
    fireEvent.click(s.ui.getByRole('button', { name: 'Infant: one ticket more' }));
    fill(s, { Name: 'Rita Sousa', 'E-mail': 'rita@example.com' });
    join(s);
    await s.ui.findByRole('heading', { name: 'You are on the waitlist' });
    expect(joins(s)[0]!.body).toMatchObject({
      tickets: [
        { categoryId: 'pc_adult', quantity: 1 },
        { categoryId: 'pc_child', quantity: 1 },
        { categoryId: 'pc_infant', quantity: 1 },
      ],
    });
    expect(joins(s)[0]!.body).not.toHaveProperty('participants');
    expect(s.root.querySelector('.summary')!.textContent).toContain('1 × Adult, 1 × Child, 1 × Infant');
  });

  it('asks the questions first (not the extras) and sends the answers', async () => {
    const s = fullNine({ experience: withWaitlist(kayak) });
    await toTimes(s);
    fireEvent.click(timeButtons(s)[0]!);
    await arrives<FormsChunk>(FORM, forms);
    await s.ui.findByRole('heading', { name: 'Extras and questions' });
    expect(s.ui.queryByRole('group', { name: 'Extras' })).toBeNull();
    fireEvent.input(s.root.getElementById('q-q_diet')!, { target: { value: 'Vegetarian' } });
    fireEvent.click(s.root.getElementById('q-q_waiver')!);
    fireEvent.click(s.ui.getByRole('button', { name: 'Continue' }));
    await arrives<FormsChunk>(CHUNK, forms);
    await s.ui.findByRole('heading', { name: 'Join the waitlist' });
    // The party was asked with the questions.
    expect(s.root.getElementById('participants')).toBeNull();
    fill(s, { Name: 'Rita Sousa', 'E-mail': 'rita@example.com' });
    join(s);
    await s.ui.findByRole('heading', { name: 'You are on the waitlist' });
    expect(joins(s)[0]!.body).toMatchObject({
      answers: [
        { questionId: 'q_diet', value: 'Vegetarian' },
        { questionId: 'q_waiver', value: true },
      ],
    });
    expect(joins(s)[0]!.body).not.toHaveProperty('extras');
  });

  it('speaks Portuguese', async () => {
    const s = fullNine({ locale: 'pt' });
    await waitFor(() => expect(s.root.querySelector('[lang="pt"]')).toBeTruthy());
    await toTimes(s, 'Escolha um horário');
    expect(timeButtons(s)[0]!.textContent).toContain('Esgotado – entrar na lista de espera');
    fireEvent.click(timeButtons(s)[0]!);
    await arrives<FormsChunk>(CHUNK, forms);
    await s.ui.findByRole('heading', { name: 'Entrar na lista de espera' });
    fill(s, { Nome: 'Rita Sousa', 'E-mail': 'rita@example.com' });
    join(s, 'Entrar na lista de espera');
    await s.ui.findByRole('heading', { name: 'Está na lista de espera' });
    expect(s.root.querySelector('.lead')!.textContent).toBe('É o número 1 na lista de espera');
    expect(joins(s)[0]!.body).toMatchObject({ locale: 'pt' });
  });
});
