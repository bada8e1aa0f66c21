import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { fill, mountForTest as setup, pinned, toDetails, useWidgetTests } from './test-helpers/widget-under-test.js';
import { walk } from './test-helpers/fake-outing.js';

useWidgetTests();

describe('booking through the widget', () => {
  it('takes a guest from the calendar to a booking number with two JSON calls before the times', async () => {
    const s = setup(pinned);
    await s.ui.findByRole('heading', { name: 'Choose a date' });
    await waitFor(() => expect(s.ui.getByRole('grid')).toBeTruthy());

    // Mondays have no slots: disabled. Tomorrow is bookable and marked.
    expect(s.day('2026-12-07').getAttribute('aria-disabled')).toBe('true');
    expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false');
    expect(s.day('2026-12-02').className).toContain('free');

    fireEvent.click(s.day('2026-12-02'));
    await s.ui.findByRole('heading', { name: 'Choose a time' });
    expect(s.ui.getByText(/Times in Lisbon \(/)).toBeTruthy();
    expect(s.ui.getByRole('button', { name: /^9:00\sAM 8 places left$/ })).toBeTruthy();
    expect(s.outing.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      'GET /public/v1/experiences/exp_walk',
      'GET /public/v1/availability',
    ]);

    fireEvent.click(s.ui.getByRole('button', { name: /^2:00\sPM/ }));
    await s.ui.findByRole('heading', { name: 'Your details' });
    fireEvent.input(s.ui.getByLabelText('Participants'), { target: { value: '3' } });
    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    expect(s.ui.getByText('€75.00')).toBeTruthy();
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));

    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(s.ui.getByText('BK-TEST0001')).toBeTruthy();
    const post = s.outing.requests.at(-1)!;
    expect(post.method).toBe('POST');
    expect(post.body).toEqual({
      experienceId: 'exp_walk',
      startTime: '2026-12-02T14:00:00.000Z',
      participants: 3,
      customerName: 'Ana Lima',
      customerEmail: 'ana@example.com',
      // The guest's language, for their e-mails.
      locale: 'en',
      // The total shown: a price changed meanwhile is refused, not charged.
      expectedTotal: '75.00',
      website: '',
    });
    expect(post.headers['X-Outing-Key']).toBe('opk_test');
    expect(post.headers['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);
    expect(s.booked).toEqual([
      {
        bookingNumber: 'BK-TEST0001',
        experienceId: 'exp_walk',
        startTime: '2026-12-02T14:00:00.000Z',
        participants: 3,
        total: '75.00',
        currency: 'EUR',
      },
    ]);
  });

  it('asks without cookies and keeps GETs free of custom headers (no CORS preflight)', async () => {
    const s = setup(pinned);
    await waitFor(() => expect(s.outing.requests).toHaveLength(2));
    for (const r of s.outing.requests) {
      expect(r.credentials).toBe('omit');
      expect(r.headers).toEqual({});
      expect(r.url.searchParams.get('key')).toBe('opk_test');
    }
    const availability = s.outing.requests[1]!.url.searchParams;
    expect(availability.get('participants')).toBe('1');
    expect(availability.get('endDate')).toBe('2027-01-31');
  });

  it('lists the experiences when none is pinned, then loads the chosen one’s dates', async () => {
    const s = setup({ key: 'opk_test', locale: 'en' });
    await s.ui.findByRole('heading', { name: 'Choose an experience' });
    await s.ui.findByText('Alfama at Dawn');
    expect(s.ui.getByText(/2 hr · €25\.00 per person/)).toBeTruthy();
    fireEvent.click(s.ui.getByRole('button', { name: 'Select: Tram 28 and Viewpoints' }));
    await s.ui.findByRole('heading', { name: 'Choose a date' });
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    expect(s.outing.requests.map((r) => r.url.pathname)).toEqual(['/public/v1/experiences', '/public/v1/availability']);
    expect(s.outing.requests[1]!.url.searchParams.get('experienceId')).toBe('exp_tram');
    expect(s.ui.getByText('Tram 28 and Viewpoints')).toBeTruthy();
  });

  it('shows times in the experience’s own zone and names it', async () => {
    const s = setup(pinned, { timezone: 'America/New_York', offsetHours: -5 });
    await toDetails(s, '2026-12-02', '9:00 AM');
    expect(s.ui.getByText(/9:00\sAM · New York \(Eastern Standard Time\)/)).toBeTruthy();
  });

  it('moves focus to each new step’s heading and announces it', async () => {
    const s = setup(pinned);
    await s.ui.findByRole('heading', { name: 'Choose a date' });
    expect(s.root.activeElement).toBeNull();
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(s.day('2026-12-02'));
    const heading = await s.ui.findByRole('heading', { name: 'Choose a time' });
    expect(s.root.activeElement).toBe(heading);
    expect(s.ui.getByRole('status').textContent).toBe('Step 2 of 4: Choose a time');
  });

  it('caps the party at the slot’s places and the experience’s largest booking', async () => {
    const s = setup(pinned);
    await s.ui.findByRole('heading', { name: 'Choose a date' });
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(s.day('2026-12-02'));
    await s.ui.findByRole('heading', { name: 'Choose a time' });
    fireEvent.click(s.ui.getByRole('button', { name: /^9:00\sAM/ }));
    const input = (await s.ui.findByLabelText('Participants')) as HTMLInputElement;
    expect(input.max).toBe(String(walk.maxPerBooking));
    // A party typed past the limit becomes the limit, and the note beside the field says why.
    fireEvent.input(input, { target: { value: '50' } });
    expect(input.value).toBe('6');
    const note = s.root.getElementById('party-note')!;
    expect(note.textContent).toBe('Up to 6 per booking.');
    expect(note.closest('[aria-live="polite"]')).toBeTruthy();
    expect(input.getAttribute('aria-describedby')).toBe('party-note');
    expect(s.ui.getByRole('button', { name: 'One participant more' }).getAttribute('aria-describedby')).toBe('party-note');
    expect(s.root.querySelector('.total')!.textContent).toBe('Total: €150.00');
    // Typed again while at the limit: the field still shows the limit.
    fireEvent.input(input, { target: { value: '9' } });
    expect(input.value).toBe('6');
    fireEvent.click(s.ui.getByRole('button', { name: 'One participant fewer' }));
    expect(input.value).toBe('5');
    expect(s.root.getElementById('party-note')).toBeNull();
    expect(input.getAttribute('aria-describedby')).toBeNull();
  });

  it('says the places left when the time has fewer than a booking may have, and counts each digit as it is typed', async () => {
    const s = setup(pinned, {}, (outing) => outing.take('2026-12-02T09:00:00.000Z', 'exp_walk', 5));
    await toDetails(s, '2026-12-02', '9:00 AM');
    const input = s.ui.getByLabelText('Participants') as HTMLInputElement;
    const total = () => s.root.querySelector('.total')!.textContent;
    fireEvent.input(input, { target: { value: '2' } });
    // The total follows each keystroke, not the field's losing focus.
    expect(total()).toBe('Total: €50.00');
    expect(s.root.querySelector('.total')!.getAttribute('aria-live')).toBe('polite');
    expect(s.root.getElementById('party-note')).toBeNull();
    fireEvent.input(input, { target: { value: '4' } });
    expect(input.value).toBe('3');
    expect(s.root.getElementById('party-note')!.textContent).toBe('3 places left');
    expect(total()).toBe('Total: €75.00');
    // Emptied to type another number: nothing changes until a digit comes, and leaving it empty puts the number back.
    fireEvent.input(input, { target: { value: '' } });
    expect(total()).toBe('Total: €75.00');
    fireEvent.blur(input);
    expect(input.value).toBe('3');
  });
});

describe('validation', () => {
  it('refuses an empty name and a malformed e-mail, beside the fields, and focuses the first', async () => {
    const s = setup(pinned);
    await toDetails(s);
    fill(s, { 'E-mail': 'ana@' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    const name = s.ui.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(s.ui.getByText('Please fill this in.').id).toBe(name.getAttribute('aria-describedby'));
    expect(s.ui.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect(s.ui.getByText(/Please enter an e-mail address/)).toBeTruthy();
    expect(s.root.activeElement).toBe(name);
    expect(s.outing.requests.some((r) => r.method === 'POST')).toBe(false);

    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com', 'Phone (optional)': 'call me' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    expect(s.ui.getByLabelText('Phone (optional)').getAttribute('aria-invalid')).toBe('true');
    expect(s.root.activeElement).toBe(s.ui.getByLabelText('Phone (optional)'));
  });

  it('keeps the honeypot out of sight and out of the tab order, and sends it', async () => {
    const s = setup(pinned);
    await toDetails(s);
    const trap = s.root.getElementById('website') as HTMLInputElement;
    expect(trap.tabIndex).toBe(-1);
    expect(trap.parentElement!.getAttribute('aria-hidden')).toBe('true');
    expect(trap.parentElement!.className).toBe('hp');
    expect(s.root.querySelector('[style]')).toBeNull();
  });

  it('shows the server’s field errors beside the fields', async () => {
    const s = setup(pinned);
    await toDetails(s);
    s.outing.failNext('bookings', {
      status: 400,
      code: 'VALIDATION_ERROR',
      details: [{ path: 'customerEmail', message: 'Expected an e-mail address' }],
    });
    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await waitFor(() => expect(s.ui.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true'));
    expect(s.ui.getByText('Please enter an e-mail address such as name@example.com.')).toBeTruthy();
  });

  it('holds the details to the lengths the server accepts', async () => {
    const s = setup(pinned);
    await toDetails(s);
    const lengths = ['Name', 'E-mail', 'Phone (optional)'].map((label) => (s.ui.getByLabelText(label) as HTMLInputElement).maxLength);
    expect(lengths).toEqual([200, 254, 40]);
  });
});

describe('keyboard', () => {
  it('moves through the calendar grid with the arrow keys, Home/End and Page Down', async () => {
    const s = setup(pinned);
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    // The first bookable day holds the grid's only tab stop.
    expect(s.root.querySelectorAll('.grid [tabindex="0"]')).toHaveLength(1);
    const start = s.root.querySelector<HTMLElement>('.grid [tabindex="0"]')!;
    expect(start.id).toBe('day-2026-12-01');
    start.focus();
    fireEvent.keyDown(start, { key: 'ArrowRight' });
    expect(s.root.activeElement!.id).toBe('day-2026-12-02');
    fireEvent.keyDown(s.root.activeElement!, { key: 'ArrowDown' });
    expect(s.root.activeElement!.id).toBe('day-2026-12-09');
    fireEvent.keyDown(s.root.activeElement!, { key: 'End' });
    expect(s.root.activeElement!.id).toBe('day-2026-12-13');
    fireEvent.keyDown(s.root.activeElement!, { key: 'PageDown' });
    expect(s.root.activeElement!.id).toBe('day-2027-01-13');
    expect(s.ui.getByRole('heading', { name: 'January 2027' })).toBeTruthy();
    fireEvent.keyDown(s.root.activeElement!, { key: 'PageUp' });
    fireEvent.keyDown(s.root.activeElement!, { key: 'PageUp' });
    // Not before the current month.
    expect(s.root.activeElement!.id).toBe('day-2026-12-13');
  });
});
