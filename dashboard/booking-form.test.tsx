import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { Booking, Experience } from '../shared/index.js';
import { ApiError, type Http, type Query } from './api.js';
import { session } from './test-helpers/fake-api.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';

useDashboardTests();

const NOW = '2026-11-20T10:00:00.000Z';

/** A sail that asks two questions and sells two extras (one no longer offered). */
function sail(): Experience {
  return {
    id: 'exp_sail', name: 'Sunset Sail', description: '', duration: 90, price: 4500, currency: 'EUR', maxParticipants: 8, maxPerBooking: 8,
    schedule: null, minNoticeMinutes: 0, maxAdvanceDays: 365, active: true, priceCategories: [], createdAt: NOW, updatedAt: NOW,
    meetingPoint: null, meetingPointUrl: null, guestInstructions: null, waitlist: false,
    questions: [
      { id: 'q_allergy', label: 'Any food allergies?', type: 'TEXT', options: [], required: true, help: 'We cook on board.' },
      { id: 'q_size', label: 'Wetsuit size', type: 'SELECT', options: ['S', 'M', 'L'], required: false, help: null },
      { id: 'q_waiver', label: 'I accept the waiver', type: 'CHECKBOX', options: [], required: false, help: null },
    ],
    extras: [
      { id: 'ex_lunch', name: 'Lunch', description: 'Grilled fish and salad', price: 1200, per: 'PERSON', maxQuantity: 10, active: true },
      { id: 'ex_photos', name: 'Photos', description: null, price: 2000, per: 'BOOKING', maxQuantity: 1, active: true },
      { id: 'ex_towel', name: 'Towel', description: null, price: 300, per: 'BOOKING', maxQuantity: 5, active: false },
    ],
  };
}

function bookingOf(more: Partial<Booking> = {}): Booking {
  return {
    id: 'bk_ana', bookingNumber: 'BK-ANA00000', status: 'CONFIRMED',
    experience: { id: 'exp_sail', title: 'Sunset Sail' },
    timeSlot: { id: 'ts_1', startTime: '2026-12-01T17:00:00.000Z', endTime: '2026-12-01T18:30:00.000Z' },
    customerId: 'cus_ana', guestName: 'Ana Lima', guestEmail: 'ana@example.com', guestPhone: null,
    totalParticipants: 2, tickets: [], unitPrice: 4500, subtotal: '114.00', discount: null, voucher: null, total: '114.00', amountDue: '114.00', currency: 'EUR', amountRefunded: '0.00', source: 'DASHBOARD', octo: null,
    metadata: {}, locale: 'en', cancellationReason: null, cancelledAt: null, holdExpiresAt: null, checkedInAt: null, internalNote: null,
    createdAt: NOW, updatedAt: NOW,
    answers: [
      { questionId: 'q_allergy', label: 'Any food allergies?', type: 'TEXT', value: 'Peanuts' },
      { questionId: 'q_waiver', label: 'I accept the waiver', type: 'CHECKBOX', value: true },
    ],
    extras: [
      { extraId: 'ex_lunch', name: 'Lunch', per: 'PERSON', quantity: 2, unitPrice: 1200 },
      { extraId: 'ex_towel', name: 'Towel', per: 'BOOKING', quantity: 1, unitPrice: 300 },
    ],
    ...more,
  };
}

interface Call {
  method: string;
  path: string;
  body?: Record<string, unknown>;
}

/** The routes the editor, the booking page and New booking call, over one experience and one booking. */
function fakeOuting() {
  const calls: Call[] = [];
  let experience = sail();
  let booking = bookingOf();
  const refusals = new Map<string, ApiError>();
  const page = <T,>(data: T[]) => ({ data, pagination: { total: data.length, limit: 100, offset: 0, hasMore: false } });
  async function route(method: string, path: string, query: Query = {}, body: Record<string, unknown> = {}): Promise<unknown> {
    calls.push({ method, path, ...(method === 'GET' ? {} : { body }) });
    await Promise.resolve();
    const refusal = refusals.get(`${method} ${path}`);
    if (refusal) {
      refusals.delete(`${method} ${path}`);
      throw refusal;
    }
    if (path === '/v1/organization') return { id: 'org_1', name: 'Lisbon Sails', email: 'a@b.example', phone: null, timezone: 'Europe/Lisbon', currency: 'EUR', onlinePayments: false, cancellationCutoffHours: 24, guestSelfService: true, notificationEmails: [], notifyOn: [], brandColor: null, logoUrl: null, createdAt: NOW, updatedAt: NOW };
    if (path === '/v1/api-keys') return page([]);
    if (path === '/v1/experiences') return page([experience]);
    if (path === '/v1/experiences/exp_sail') {
      if (method === 'PATCH') {
        let n = 0;
        const withIds = <T extends Record<string, unknown>>(list: T[] | undefined, prefix: string) => list?.map((e) => ({ ...e, id: e['id'] ?? `${prefix}_new${++n}` }));
        experience = {
          ...experience,
          ...(body['questions'] ? { questions: withIds(body['questions'] as Record<string, unknown>[], 'q') as Experience['questions'] } : {}),
          ...(body['extras'] ? { extras: withIds(body['extras'] as Record<string, unknown>[], 'ex') as Experience['extras'] } : {}),
        };
      }
      return experience;
    }
    if (path === '/v1/availability') {
      return {
        experienceId: 'exp_sail', timezone: 'Europe/Lisbon', startDate: String(query['startDate'] ?? '2026-12-01'), endDate: String(query['endDate'] ?? '2026-12-31'),
        slots: [{ id: 'ts_1', startTime: '2026-12-01T17:00:00.000Z', endTime: '2026-12-01T18:30:00.000Z', capacity: 8, booked: 2, remaining: 6, available: true, unavailableReason: null }],
      };
    }
    if (path === '/v1/bookings' && method === 'POST') {
      booking = bookingOf({ id: 'bk_new', bookingNumber: 'BK-NEW00000', guestName: String(body['customerName']), answers: [], extras: [] });
      return booking;
    }
    if (/^\/v1\/bookings\/[^/]+\/(payments|refunds|messages)$/.test(path)) return page([]);
    if (path === '/v1/activity') return page([]);
    if (path === `/v1/bookings/${booking.id}`) {
      if (method === 'PATCH') {
        if (body['participants']) booking = { ...booking, totalParticipants: Number(body['participants']) };
        if (body['extras']) {
          const list = body['extras'] as { extraId: string; quantity: number }[];
          booking = {
            ...booking,
            extras: list.map((x) => {
              const e = experience.extras.find((y) => y.id === x.extraId)!;
              return { extraId: e.id, name: e.name, per: e.per, quantity: x.quantity, unitPrice: e.price };
            }),
          };
        }
        if (body['answers']) {
          const list = body['answers'] as { questionId: string; value: string | boolean }[];
          booking = { ...booking, answers: list.map((a) => ({ ...a, label: experience.questions.find((q) => q.id === a.questionId)!.label, type: experience.questions.find((q) => q.id === a.questionId)!.type })) };
        }
      }
      return booking;
    }
    throw new ApiError(404, 'NOT_FOUND', `Not faked: ${method} ${path}`);
  }
  const http: Http = {
    get: async (schema, path, query) => schema.parse(await route('GET', path, query)),
    list: async (item, path, query) => {
      const r = (await route('GET', path, query)) as ReturnType<typeof page>;
      return { data: item.array().parse(r.data), pagination: r.pagination };
    },
    send: async (schema, method, path, body) => schema.parse(await route(method, path, {}, (body ?? {}) as Record<string, unknown>)),
    download: () => Promise.reject(new ApiError(404, 'NOT_FOUND', 'Not faked')),
  };
  return { http, calls, refusals, writes: () => calls.filter((c) => c.method !== 'GET'), experience: () => experience };
}

async function mount(path: string, heading: string | RegExp) {
  const outing = fakeOuting();
  const t = mountAt(path, { signedIn: true, http: outing.http, session });
  await screen.findByRole('heading', { level: 1, name: heading }, { timeout: 5000 });
  return { ...t, outing };
}

const inGroup = (group: HTMLElement, label: string) => within(group).getByLabelText(label) as HTMLInputElement;

describe('the experience editor’s Questions and Extras', () => {
  it('shows the saved entries, keeps their ids, adds new ones without, and removes one', async () => {
    const t = await mount('/dashboard/experiences/exp_sail', 'Sunset Sail');
    const questions = within(screen.getByRole('region', { name: 'Questions' }));
    const extras = within(screen.getByRole('region', { name: 'Extras' }));
    const [q1, q2, q3] = questions.getAllByRole('group', { name: /^Question \d$/ }) as [HTMLElement, HTMLElement, HTMLElement];
    expect(inGroup(q1, 'Question').value).toBe('Any food allergies?');
    expect((inGroup(q1, 'Type') as unknown as HTMLSelectElement).value).toBe('TEXT');
    expect(inGroup(q1, 'Required').checked).toBe(true);
    expect(inGroup(q2, 'Options').value).toBe('S\nM\nL');
    expect(within(q1).queryByLabelText('Options')).toBeNull();
    const q3Type = inGroup(q3, 'Type') as unknown as HTMLSelectElement;
    expect(q3Type.options[q3Type.selectedIndex]!.textContent).toBe('Checkbox (yes or no)');
    const [lunch, , towel] = extras.getAllByRole('group', { name: /^Extra \d$/ }) as [HTMLElement, HTMLElement, HTMLElement];
    expect(inGroup(lunch, 'Price').value).toBe('12.00');
    expect((inGroup(lunch, 'Counted') as unknown as HTMLSelectElement).value).toBe('PERSON');
    expect(inGroup(towel, 'Active').checked).toBe(false);

    // A new SELECT question: its options appear once the type says so, one per line.
    fireEvent.click(screen.getByRole('button', { name: 'Add question' }));
    const q4 = questions.getByRole('group', { name: 'Question 4' });
    await waitFor(() => expect(document.activeElement).toBe(inGroup(q4, 'Question')));
    fireEvent.input(inGroup(q4, 'Question'), { target: { value: 'Pickup hotel' } });
    fireEvent.change(inGroup(q4, 'Type'), { target: { value: 'SELECT' } });
    fireEvent.input(await within(q4).findByLabelText('Options'), { target: { value: 'Tivoli\n\n  Pestana  \n' } });
    fireEvent.input(inGroup(q4, 'Help'), { target: { value: 'Where we pick you up' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove question 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add extra' }));
    const x4 = extras.getByRole('group', { name: 'Extra 4' });
    fireEvent.input(inGroup(x4, 'Name'), { target: { value: 'Drone video' } });
    fireEvent.input(inGroup(x4, 'Price'), { target: { value: '35,5' } });
    fireEvent.input(inGroup(x4, 'Maximum'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove extra 3' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Saved.');
    expect(t.outing.writes()).toHaveLength(1);
    expect(t.outing.writes()[0]!.body).toEqual({
      questions: [
        { id: 'q_allergy', label: 'Any food allergies?', type: 'TEXT', options: [], required: true, help: 'We cook on board.' },
        { id: 'q_waiver', label: 'I accept the waiver', type: 'CHECKBOX', options: [], required: false, help: null },
        { label: 'Pickup hotel', type: 'SELECT', options: ['Tivoli', 'Pestana'], required: false, help: 'Where we pick you up' },
      ],
      extras: [
        { id: 'ex_lunch', name: 'Lunch', description: 'Grilled fish and salad', price: 1200, per: 'PERSON', maxQuantity: 10, active: true },
        { id: 'ex_photos', name: 'Photos', description: null, price: 2000, per: 'BOOKING', maxQuantity: 1, active: true },
        { name: 'Drone video', description: null, price: 3550, per: 'BOOKING', maxQuantity: 2, active: true },
      ],
    });
    // Saved again unchanged: the lists as the server keeps them are no change.
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Nothing has changed since the last save.');
    expect(t.outing.writes()).toHaveLength(1);
  });

  it('checks the entries first, and shows the API’s refusals beside their fields with a summary', async () => {
    const t = await mount('/dashboard/experiences/exp_sail', 'Sunset Sail');
    fireEvent.click(screen.getByRole('button', { name: 'Add question' }));
    const q4 = screen.getByRole('group', { name: 'Question 4' });
    fireEvent.change(inGroup(q4, 'Type'), { target: { value: 'SELECT' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add extra' }));
    const x4 = screen.getByRole('group', { name: 'Extra 4' });
    fireEvent.input(inGroup(x4, 'Maximum'), { target: { value: '100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    let summary = await screen.findByRole('region', { name: 'There is a problem' });
    expect(summary.textContent).toContain('Question 4, question: Enter the question guests will answer.');
    expect(summary.textContent).toContain('Question 4, options: Enter the choices, one per line.');
    expect(summary.textContent).toContain('Extra 4, name: Enter the name guests will see, such as Lunch.');
    expect(summary.textContent).toContain('Extra 4, price: Enter a price such as 12.50 (0 for free).');
    expect(summary.textContent).toContain('Extra 4, maximum: Enter a whole number from 1 to 99.');
    expect(t.outing.writes()).toHaveLength(0);
    fireEvent.click(within(summary).getByRole('link', { name: /Question 4, options/ }));
    expect(document.activeElement).toBe(inGroup(q4, 'Options'));

    fireEvent.input(inGroup(q4, 'Question'), { target: { value: 'Size' } });
    fireEvent.input(inGroup(q4, 'Options'), { target: { value: 'S\nS' } });
    fireEvent.input(inGroup(x4, 'Name'), { target: { value: 'lunch' } });
    fireEvent.input(inGroup(x4, 'Price'), { target: { value: '5' } });
    fireEvent.input(inGroup(x4, 'Maximum'), { target: { value: '3' } });
    t.outing.refusals.set(
      'PATCH /v1/experiences/exp_sail',
      new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [
        { path: 'questions[3].options[1]', message: 'This option is listed twice' },
        { path: 'extras[3].name', message: 'Another extra has this name' },
        { path: 'extras[0].price', message: 'Too big' },
      ]),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(inGroup(x4, 'Name').getAttribute('aria-invalid')).toBe('true'));
    summary = screen.getByRole('region', { name: 'There is a problem' });
    expect(summary.textContent).toContain('Question 4, options: This option is listed twice.');
    expect(summary.textContent).toContain('Extra 4, name: Another extra has this name.');
    expect(summary.textContent).toContain('Extra 1, price: Too big.');
    const name = inGroup(x4, 'Name');
    expect(document.getElementById(name.getAttribute('aria-describedby')!.split(' ').at(-1)!)!.textContent).toBe('Another extra has this name.');
    expect(name.value).toBe('lunch');
  });
});

describe('a booking’s page', () => {
  it('shows the extras with their amounts and the answers, a checkbox as Yes or No', async () => {
    await mount('/dashboard/bookings/bk_ana', /^Booking BK-/);
    const extras = screen.getByRole('region', { name: 'Extras' });
    expect([...extras.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['2 × Lunch, €24.00 (€12.00 each)', '1 × Towel, €3.00']);
    const answers = screen.getByRole('region', { name: 'Answers' });
    expect([...answers.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['Any food allergies?: Peanuts', 'I accept the waiver: Yes']);
  });

  it('changes extras and answers, sending only the list that changed', async () => {
    const t = await mount('/dashboard/bookings/bk_ana', /^Booking BK-/);
    fireEvent.click(screen.getByRole('button', { name: 'Change extras and answers' }));
    const dialog = within(screen.getByRole('dialog'));
    const lunch = (await dialog.findByLabelText('Lunch, €12.00 per person')) as HTMLInputElement;
    expect(lunch.value).toBe('2');
    expect(lunch.max).toBe('2');
    expect(dialog.getByText(/No longer offered: 1 × Towel/)).toBeTruthy();
    expect((dialog.getByLabelText('Any food allergies? (required)') as HTMLInputElement).value).toBe('Peanuts');
    fireEvent.input(lunch, { target: { value: '3' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save extras and answers' }));
    expect(await dialog.findByText('At most one each: 2 for this party.')).toBeTruthy();
    expect(t.outing.writes()).toHaveLength(0);

    fireEvent.input(lunch, { target: { value: '1' } });
    fireEvent.input(dialog.getByLabelText('Photos, €20.00'), { target: { value: '1' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save extras and answers' }));
    await screen.findByText(/is saved with its new extras/);
    expect(t.outing.writes()[0]!.body).toEqual({ extras: [{ extraId: 'ex_lunch', quantity: 1 }, { extraId: 'ex_photos', quantity: 1 }] });
    const extras = screen.getByRole('region', { name: 'Extras' });
    expect(extras.textContent).toContain('1 × Photos, €20.00');

    // A refusal on an answer shows beside its field.
    fireEvent.click(screen.getByRole('button', { name: 'Change extras and answers' }));
    const again = within(screen.getByRole('dialog'));
    const allergy = (await again.findByLabelText('Any food allergies? (required)')) as HTMLInputElement;
    fireEvent.input(allergy, { target: { value: 'None' } });
    t.outing.refusals.set('PATCH /v1/bookings/bk_ana', new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [{ path: 'answers[0].value', message: 'Too long' }]));
    fireEvent.click(again.getByRole('button', { name: 'Save extras and answers' }));
    await waitFor(() => expect(allergy.getAttribute('aria-invalid')).toBe('true'));
    expect(again.getByText('Too long.')).toBeTruthy();
    expect(t.outing.writes().at(-1)!.body).toEqual({ answers: [{ questionId: 'q_allergy', value: 'None' }, { questionId: 'q_waiver', value: true }] });
  });

  it('says clearly when fewer participants are refused over per-person extras', async () => {
    const t = await mount('/dashboard/bookings/bk_ana', /^Booking BK-/);
    fireEvent.click(screen.getByRole('button', { name: 'Change participants' }));
    const dialog = within(screen.getByRole('dialog'));
    fireEvent.input(dialog.getByLabelText('Participants'), { target: { value: '1' } });
    t.outing.refusals.set(
      'PATCH /v1/bookings/bk_ana',
      new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [{ path: 'extras[0].quantity', message: 'Lunch is per person: at most 1 for 1 participant' }]),
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Change participants' }));
    const alert = await dialog.findByRole('alert');
    expect(alert.textContent).toContain('The booking\'s extras do not fit the new party: Lunch is per person: at most 1 for 1 participant.');
    expect(alert.textContent).toContain('Change extras and answers');
  });
});

describe('New booking with questions and extras', () => {
  async function openForm() {
    const t = await mount('/dashboard/bookings/new?date=2026-12-01', 'New booking');
    await waitFor(() => expect(screen.getAllByRole('option', { name: /places? left$/ }).length).toBeGreaterThan(0));
    return t;
  }

  it('asks the questions by type, required ones marked, and offers the active extras in the total', async () => {
    const t = await openForm();
    const allergy = screen.getByLabelText('Any food allergies? (required)') as HTMLInputElement;
    expect(allergy.required).toBe(true);
    expect(allergy.getAttribute('aria-required')).toBe('true');
    expect(screen.getByLabelText('Wetsuit size').tagName).toBe('SELECT');
    expect((screen.getByLabelText('I accept the waiver') as HTMLInputElement).type).toBe('checkbox');
    expect(screen.queryByLabelText(/^Towel/)).toBeNull();
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '2026-12-01T17:00:00.000Z' } });
    fireEvent.input(screen.getByLabelText('Participants'), { target: { value: '2' } });
    fireEvent.input(screen.getByLabelText('Lunch, €12.00 per person'), { target: { value: '2' } });
    expect(screen.getByText(/^Total:/).textContent).toBe('Total: €114.00');
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Rui Sousa' } });
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'rui@example.com' } });

    // The required question unanswered: said beside it, nothing sent.
    fireEvent.click(screen.getByRole('button', { name: 'Create booking' }));
    const summary = await screen.findByRole('region', { name: 'There is a problem' });
    expect(summary.textContent).toContain('Any food allergies?: Answer “Any food allergies?”.');
    expect(allergy.getAttribute('aria-invalid')).toBe('true');
    expect(t.outing.writes()).toHaveLength(0);

    fireEvent.input(allergy, { target: { value: 'Shellfish' } });
    fireEvent.change(screen.getByLabelText('Wetsuit size'), { target: { value: 'M' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create booking' }));
    await screen.findByRole('heading', { level: 1, name: /^Booking BK-NEW/ });
    expect(t.outing.writes()[0]!.body).toMatchObject({
      participants: 2,
      answers: [
        { questionId: 'q_allergy', value: 'Shellfish' },
        { questionId: 'q_size', value: 'M' },
        { questionId: 'q_waiver', value: false },
      ],
      extras: [{ extraId: 'ex_lunch', quantity: 2 }],
    });
  });

  it('shows the API’s refusal on an answer or an extra beside its field', async () => {
    const t = await openForm();
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '2026-12-01T17:00:00.000Z' } });
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Rui Sousa' } });
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'rui@example.com' } });
    fireEvent.input(screen.getByLabelText('Any food allergies? (required)'), { target: { value: 'None' } });
    fireEvent.input(screen.getByLabelText('Photos, €20.00'), { target: { value: '1' } });
    t.outing.refusals.set(
      'POST /v1/bookings',
      new ApiError(400, 'VALIDATION_ERROR', 'Invalid body', [
        { path: 'answers.q_allergy', message: 'This question needs an answer' },
        { path: 'extras[0].extraId', message: 'Not an extra of this experience' },
      ]),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create booking' }));
    const summary = await screen.findByRole('region', { name: 'There is a problem' });
    expect(summary.textContent).toContain('Any food allergies?: This question needs an answer.');
    expect(summary.textContent).toContain('Photos: Not an extra of this experience.');
    expect(screen.getByLabelText('Photos, €20.00').getAttribute('aria-invalid')).toBe('true');
  });
});
