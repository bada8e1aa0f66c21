import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, everyDay, expectData, expectError, expectList, expectPriceChanged, expectValidationError, manualClock,
  type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { issueManageToken } from '../services/messages.js';
import { Booking, Experience, ManagedBooking, Payment, PublicBooking, PublicBookingStatus, PublicExperience, WebhookEvent } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 UTC = 08:00 in Lisbon; the walk runs every day at 10:00 and 15:00.
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const S1 = '2027-03-02T10:00:00.000Z';
const S2 = '2027-03-02T15:00:00.000Z';

let t: TestApp;
let clock: ManualClock;

const WALK = {
  name: 'Alfama walk',
  description: 'Two hours in the old town',
  duration: 120,
  price: 2000,
  maxParticipants: 10,
  schedule: { weekly: everyDay(['10:00', '15:00']) },
};

async function newExperience(fields: Record<string, unknown> = {}): Promise<Experience> {
  const res = await t.request('POST', '/v1/experiences', { body: { ...WALK, ...fields } });
  clock.advance(1000);
  return expectData(res, Experience, 201);
}
const patchExperience = (id: string, body: unknown, base = '/v1') => t.request('PATCH', `${base}/experiences/${id}`, { body });
const getExperience = async (id: string) => expectData(await t.request('GET', `/v1/experiences/${id}`), Experience);

beforeEach(async () => {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
});
afterEach(() => t.close());

describe('questions and extras on experiences', () => {
  it('gives new entries ids and the defaults, trims labels and names, and shows [] when none', async () => {
    const plain = await newExperience();
    expect(plain).toMatchObject({ questions: [], extras: [] });

    const exp = await newExperience({
      questions: [
        { label: '  Dietary needs ', type: 'TEXT' },
        { label: 'Shoe size', type: 'SELECT', options: ['38', '40', '42'], required: true, help: 'EU sizes' },
        { label: 'I accept the waiver', type: 'CHECKBOX', required: true, options: [] },
        { label: 'Notes', type: 'LONG_TEXT', help: '   ' },
      ],
      extras: [
        { name: ' Lunch ', price: 1200 },
        { name: 'Photos', description: 'A USB stick of the day', price: 2500, per: 'PERSON', maxQuantity: 3, active: false },
      ],
    });
    expect(exp.questions).toEqual([
      { id: expect.stringMatching(/^q_[A-Za-z0-9]+$/), label: 'Dietary needs', type: 'TEXT', options: [], required: false, help: null },
      { id: expect.stringMatching(/^q_/), label: 'Shoe size', type: 'SELECT', options: ['38', '40', '42'], required: true, help: 'EU sizes' },
      { id: expect.stringMatching(/^q_/), label: 'I accept the waiver', type: 'CHECKBOX', options: [], required: true, help: null },
      { id: expect.stringMatching(/^q_/), label: 'Notes', type: 'LONG_TEXT', options: [], required: false, help: null },
    ]);
    expect(exp.extras).toEqual([
      { id: expect.stringMatching(/^ex_[A-Za-z0-9]+$/), name: 'Lunch', description: null, price: 1200, per: 'BOOKING', maxQuantity: 10, active: true },
      { id: expect.stringMatching(/^ex_/), name: 'Photos', description: 'A USB stick of the day', price: 2500, per: 'PERSON', maxQuantity: 3, active: false },
    ]);
    expect(new Set([...exp.questions.map((q) => q.id), ...exp.extras.map((e) => e.id)]).size).toBe(6);
    expect(await getExperience(exp.id)).toEqual(exp);
  });

  it('keeps ids across PATCH, replaces the whole list, and keeps a list the PATCH leaves out (also under /api/v1)', async () => {
    const exp = await newExperience({
      questions: [{ label: 'Dietary needs', type: 'TEXT' }, { label: 'Shoe size', type: 'SELECT', options: ['38', '40'] }],
      extras: [{ name: 'Lunch', price: 1200 }, { name: 'Photos', price: 2500 }],
    });
    const [diet, shoe] = exp.questions;
    const [lunch] = exp.extras;
    const next = expectData(
      await patchExperience(exp.id, {
        questions: [{ id: shoe!.id, label: 'Shoe size (EU)', type: 'SELECT', options: ['38', '40', '44'] }, { label: 'Phone on the day', type: 'PHONE', required: true }],
        extras: [{ id: lunch!.id, name: 'Picnic lunch', price: 1400, per: 'PERSON' }],
      }),
      Experience,
    );
    expect(next.questions.map((q) => q.label)).toEqual(['Shoe size (EU)', 'Phone on the day']);
    expect(next.questions[0]).toEqual({ id: shoe!.id, label: 'Shoe size (EU)', type: 'SELECT', options: ['38', '40', '44'], required: false, help: null });
    expect(next.questions[1]!.id).not.toBe(diet!.id);
    expect(next.extras).toEqual([{ id: lunch!.id, name: 'Picnic lunch', description: null, price: 1400, per: 'PERSON', maxQuantity: 10, active: true }]);

    // A PATCH without the lists keeps them; under /api/v1 the same.
    const renamed = expectData(await patchExperience(exp.id, { name: 'Alfama by day' }, '/api/v1'), Experience);
    expect(renamed.questions).toEqual(next.questions);
    expect(renamed.extras).toEqual(next.extras);
    // [] empties a list.
    expect(expectData(await patchExperience(exp.id, { extras: [] }, '/api/v1'), Experience).extras).toEqual([]);
  });

  it('refuses an id that is not an entry of this experience, dropped or of another, and stores nothing', async () => {
    const exp = await newExperience({ questions: [{ label: 'Dietary needs', type: 'TEXT' }], extras: [{ name: 'Lunch', price: 1200 }] });
    const other = await newExperience({ name: 'Other', questions: [{ label: 'Age', type: 'NUMBER' }], extras: [{ name: 'Gear', price: 500 }] });
    expectValidationError(await patchExperience(exp.id, { questions: [{ id: other.questions[0]!.id, label: 'Age', type: 'NUMBER' }] }), 'questions[0].id');
    expectValidationError(
      await patchExperience(exp.id, { extras: [{ id: exp.extras[0]!.id, name: 'Lunch', price: 1 }, { id: other.extras[0]!.id, name: 'Gear', price: 1 }] }),
      'extras[1].id',
    );
    // An id is kept only while its entry is on the list: once dropped it cannot come back.
    expectData(await patchExperience(exp.id, { extras: [] }), Experience);
    expectValidationError(await patchExperience(exp.id, { extras: [{ id: exp.extras[0]!.id, name: 'Lunch', price: 1200 }] }), 'extras[0].id');
    // On create there is nothing to keep.
    expectValidationError(await t.request('POST', '/v1/experiences', { body: { ...WALK, questions: [{ id: 'q_abc', label: 'A', type: 'TEXT' }] } }), 'questions[0].id');
    expect((await getExperience(exp.id)).questions).toEqual(exp.questions);
  });

  it('refuses each bad entry with its path', async () => {
    const exp = await newExperience();
    const questions = (list: unknown) => patchExperience(exp.id, { questions: list });
    const extras = (list: unknown) => patchExperience(exp.id, { extras: list });
    expectValidationError(await questions([{ label: 'Shoe size', type: 'SELECT' }]), 'questions[0].options');
    expectValidationError(await questions([{ label: 'Shoe size', type: 'SELECT', options: [] }]), 'questions[0].options');
    expectValidationError(await questions([{ label: 'Shoe size', type: 'SELECT', options: ['38', '38'] }]), 'questions[0].options[1]');
    expectValidationError(await questions([{ label: 'Notes', type: 'TEXT', options: ['a'] }]), 'questions[0].options');
    expectValidationError(await questions([{ label: 'Size', type: 'SELECT', options: Array.from({ length: 51 }, (_, i) => `${i}`) }]), 'questions[0].options');
    expectValidationError(await questions([{ label: 'Size', type: 'SELECT', options: ['x'.repeat(101)] }]), 'questions[0].options[0]');
    expectValidationError(await questions([{ label: ' ', type: 'TEXT' }]), 'questions[0].label');
    expectValidationError(await questions([{ label: 'x'.repeat(201), type: 'TEXT' }]), 'questions[0].label');
    expectValidationError(await questions([{ label: 'Colour', type: 'COLOUR' }]), 'questions[0].type');
    expectValidationError(await questions([{ label: 'Colour' }]), 'questions[0].type');
    expectValidationError(await questions([{ label: 'Notes', type: 'TEXT', help: 'x'.repeat(301) }]), 'questions[0].help');
    expectValidationError(await questions([{ label: 'Notes', type: 'TEXT', colour: 'red' }]), 'questions[0].colour');
    expectValidationError(await questions(Array.from({ length: 21 }, (_, i) => ({ label: `Q${i}`, type: 'TEXT' }))), 'questions');

    expectValidationError(await extras([{ name: 'Lunch', price: 1200 }, { name: ' lunch', price: 900 }]), 'extras[1].name');
    expectValidationError(await extras(Array.from({ length: 21 }, (_, i) => ({ name: `E${i}`, price: 100 }))), 'extras');
    expectValidationError(await extras([{ name: 'Lunch', price: -1 }]), 'extras[0].price');
    expectValidationError(await extras([{ name: 'Lunch', price: 12.5 }]), 'extras[0].price');
    expectValidationError(await extras([{ name: 'Lunch' }]), 'extras[0].price');
    expectValidationError(await extras([{ name: 'Lunch', price: 100, per: 'GROUP' }]), 'extras[0].per');
    expectValidationError(await extras([{ name: 'Lunch', price: 100, maxQuantity: 0 }]), 'extras[0].maxQuantity');
    expectValidationError(await extras([{ name: 'Lunch', price: 100, maxQuantity: 100 }]), 'extras[0].maxQuantity');
    expectValidationError(await extras([{ name: 'x'.repeat(81), price: 100 }]), 'extras[0].name');
    expectValidationError(await extras([{ name: 'Lunch', price: 100, description: 'x'.repeat(301) }]), 'extras[0].description');
    expect(await getExperience(exp.id)).toMatchObject({ questions: [], extras: [] });
  });

  it('refuses a NUL or a bidirectional control in a name, a NUL in a label', async () => {
    const exp = await newExperience();
    for (const ch of ['\u0000', '\u202E', '\u2066']) {
      expectValidationError(await patchExperience(exp.id, { extras: [{ name: `Lunch${ch}`, price: 100 }] }), 'extras[0].name');
    }
    expectValidationError(await patchExperience(exp.id, { questions: [{ label: 'Diet\u0000', type: 'TEXT' }] }), 'questions[0].label');
    expectValidationError(await patchExperience(exp.id, { questions: [{ label: 'Size', type: 'SELECT', options: ['4\u00002'] }] }), 'questions[0].options[0]');
  });

  it('shows guests the questions and only the active extras on /public/v1', async () => {
    const exp = await newExperience({
      questions: [{ label: 'Dietary needs', type: 'TEXT' }],
      extras: [{ name: 'Lunch', price: 1200 }, { name: 'Photos', price: 2500, active: false }],
    });
    const list = expectList(await t.request('GET', '/public/v1/experiences', { key: t.publishableKey }), PublicExperience);
    const shown = list.data.find((e) => e.id === exp.id)!;
    expect(shown.questions).toEqual(exp.questions);
    expect(shown.extras).toEqual([exp.extras[0]]);
    const one = expectData(await t.request('GET', `/public/v1/experiences/${exp.id}`, { key: t.publishableKey }), PublicExperience);
    expect(one.extras.map((e) => e.name)).toEqual(['Lunch']);
    // The operator sees both.
    expect((await getExperience(exp.id)).extras.map((e) => e.name)).toEqual(['Lunch', 'Photos']);
  });
});

/** The experience most booking tests book: four questions (two required) and three extras (one inactive). */
const FORM = {
  questions: [
    { label: 'Dietary needs', type: 'TEXT' },
    { label: 'Shoe size', type: 'SELECT', options: ['38', '40', '42'], required: true },
    { label: 'I accept the waiver', type: 'CHECKBOX', required: true },
    { label: 'Phone on the day', type: 'PHONE' },
  ],
  extras: [
    { name: 'Lunch', price: 1200, per: 'PERSON', maxQuantity: 6 },
    { name: 'Photos', price: 2500 },
    { name: 'Gear', price: 800, active: false },
  ],
};

describe('booking with answers and extras', () => {
  let exp: Experience;
  const q = (label: string, e: Experience = exp) => e.questions.find((x) => x.label === label)!.id;
  const x = (name: string, e: Experience = exp) => e.extras.find((y) => y.name === name)!.id;
  /** The answers every booking of `exp` needs: its two required questions. */
  const required = () => [
    { questionId: q('Shoe size'), value: '40' },
    { questionId: q('I accept the waiver'), value: true },
  ];
  const body = (fields: Record<string, unknown> = {}) => ({
    experienceId: exp.id, startTime: S1, participants: 2, customerName: 'Ana Costa', customerEmail: 'ana@example.com', answers: required(), ...fields,
  });
  const post = (fields: Record<string, unknown> = {}, path = '/v1/bookings') =>
    t.request('POST', path, { body: body(fields), ...(path.startsWith('/public') ? { key: t.publishableKey } : {}) });
  const book = async (fields: Record<string, unknown> = {}) => expectData(await post(fields), Booking, 201);

  /** Rows that a refused request must not have written. */
  async function written() {
    const page = { limit: 1, offset: 0 };
    return {
      bookings: (await t.store.bookings.listBookings(t.orgId, {}, page)).total,
      events: (await t.store.events.listEvents(t.orgId, {}, page)).total,
      places: [...(await t.store.bookings.bookedPlacesBetween(exp.id, 0, 8.64e15)).values()].reduce((a, b) => a + b, 0),
    };
  }

  beforeEach(async () => {
    exp = await newExperience(FORM);
  });

  it('keeps the answers in the questions’ order (answered ones only) and the extras in the experience’s, and totals them', async () => {
    const b = await book({
      answers: [
        { questionId: q('Phone on the day'), value: ' +351 912 345 678 ' },
        { questionId: q('I accept the waiver'), value: true },
        { questionId: q('Shoe size'), value: '42' },
      ],
      extras: [{ extraId: x('Photos'), quantity: 1 }, { extraId: x('Lunch'), quantity: 2 }],
    });
    expect(b.answers).toEqual([
      { questionId: q('Shoe size'), label: 'Shoe size', type: 'SELECT', value: '42' },
      { questionId: q('I accept the waiver'), label: 'I accept the waiver', type: 'CHECKBOX', value: true },
      { questionId: q('Phone on the day'), label: 'Phone on the day', type: 'PHONE', value: '+351 912 345 678' },
    ]);
    expect(b.extras).toEqual([
      { extraId: x('Lunch'), name: 'Lunch', per: 'PERSON', quantity: 2, unitPrice: 1200 },
      { extraId: x('Photos'), name: 'Photos', per: 'BOOKING', quantity: 1, unitPrice: 2500 },
    ]);
    // 2 × 20.00 + 2 × 12.00 + 1 × 25.00
    expect(b).toMatchObject({ unitPrice: 2000, totalParticipants: 2, total: '89.00' });
    expect(expectData(await t.request('GET', `/v1/bookings/${b.id}`), Booking)).toEqual(b);
    expect(expectData(await t.request('GET', `/api/v1/bookings/${b.bookingNumber}`), Booking)).toEqual(b);

    // The event (and so the webhook) carries them.
    const events = expectList(await t.request('GET', '/v1/events?type=BOOKING_CREATED'), WebhookEvent).data;
    expect(events[0]!.data.booking).toMatchObject({ answers: b.answers, extras: b.extras, total: '89.00' });

    // The guest's view of its state too.
    const pub = expectData(await t.request('GET', `/public/v1/bookings/${b.bookingNumber}`, { key: t.publishableKey }), PublicBookingStatus);
    expect(pub).toMatchObject({ answers: b.answers, extras: b.extras, total: '89.00' });
  });

  it('shows [] for a booking without any, and keeps its total as before', async () => {
    const plain = await newExperience({ name: 'Plain' });
    const b = expectData(
      await t.request('POST', '/v1/bookings', { body: { ...body(), experienceId: plain.id, answers: undefined } }),
      Booking,
      201,
    );
    expect(b).toMatchObject({ answers: [], extras: [], total: '40.00' });
    const row = await t.store.bookings.getBooking(t.orgId, b.id);
    expect(row).toMatchObject({ answers: null, extras: null, totalCents: null });
    // Only the required answers: the booking keeps those, and no extras.
    expect(await book()).toMatchObject({ answers: [{ value: '40' }, { value: true }], extras: [], total: '40.00' });
  });

  it('adds extras to a ticketed booking’s tickets', async () => {
    const ticketed = await newExperience({ name: 'Ticketed', ...FORM, questions: [], priceCategories: [{ name: 'Adult', price: 2500 }, { name: 'Child', price: 1000 }] });
    const res = await t.request('POST', '/v1/bookings', {
      body: {
        ...body(), experienceId: ticketed.id, participants: undefined, answers: undefined,
        tickets: ticketed.priceCategories.map((c) => ({ categoryId: c.id, quantity: 1 })),
        extras: [{ extraId: x('Lunch', ticketed), quantity: 2 }],
      },
    });
    const b = expectData(res, Booking, 201);
    // 25.00 + 10.00 + 2 × 12.00
    expect(b).toMatchObject({ totalParticipants: 2, unitPrice: null, total: '59.00' });
    expectValidationError(
      await t.request('POST', '/v1/bookings', {
        body: { ...body(), experienceId: ticketed.id, participants: undefined, answers: undefined, tickets: [{ categoryId: ticketed.priceCategories[0]!.id, quantity: 1 }], extras: [{ extraId: x('Lunch', ticketed), quantity: 2 }] },
      }),
      'extras[0].quantity',
    );
  });

  it('keeps a booking as it was made when a label, a price or the lists change later', async () => {
    const b = await book({ extras: [{ extraId: x('Lunch'), quantity: 2 }] });
    expectData(
      await patchExperience(exp.id, {
        questions: [{ id: q('Shoe size'), label: 'Shoe size (EU)', type: 'SELECT', options: ['40'] }],
        extras: [{ id: x('Lunch'), name: 'Picnic', price: 9900, per: 'BOOKING' }],
      }),
      Experience,
    );
    const again = expectData(await t.request('GET', `/v1/bookings/${b.id}`), Booking);
    expect(again.answers).toEqual(b.answers);
    expect(again.extras).toEqual(b.extras);
    expect(again.total).toBe('64.00');
  });

  it('refuses every unanswered required question, one detail each, and a required box left unticked', async () => {
    const before = await written();
    const res = await post({ answers: [] });
    const details = expectValidationError(res, `answers.${q('Shoe size')}`);
    expect(details).toEqual([
      { path: `answers.${q('Shoe size')}`, message: 'Required: Shoe size' },
      { path: `answers.${q('I accept the waiver')}`, message: 'Required: I accept the waiver' },
    ]);
    const unticked = expectValidationError(await post({ answers: [{ questionId: q('Shoe size'), value: '38' }, { questionId: q('I accept the waiver'), value: false }] }), `answers.${q('I accept the waiver')}`);
    expect(unticked).toHaveLength(1);
    // Absent answers are no answers.
    expectValidationError(await post({ answers: undefined }), `answers.${q('Shoe size')}`);
    expect(await written()).toEqual(before);
  });

  it('refuses unknown, twice-answered and inactive entries, quantities above the limits, naming each', async () => {
    const other = await newExperience({ name: 'Other', ...FORM });
    const before = await written();
    const answer = (questionId: string, value: unknown) => ({ questionId, value });
    expectValidationError(await post({ answers: [...required(), answer('q_nope', 'x')] }), 'answers[2].questionId');
    expectValidationError(await post({ answers: [...required(), answer(q('Dietary needs', other), 'x')] }), 'answers[2].questionId');
    expectValidationError(await post({ answers: [...required(), answer(q('Shoe size'), '38')] }), 'answers[2].questionId');
    expectValidationError(await post({ extras: [{ extraId: 'ex_nope', quantity: 1 }] }), 'extras[0].extraId');
    expectValidationError(await post({ extras: [{ extraId: x('Photos', other), quantity: 1 }] }), 'extras[0].extraId');
    expectValidationError(await post({ extras: [{ extraId: x('Gear'), quantity: 1 }] }), 'extras[0].extraId');
    expectValidationError(await post({ extras: [{ extraId: x('Photos'), quantity: 1 }, { extraId: x('Photos'), quantity: 2 }] }), 'extras[1].extraId');
    expectValidationError(await post({ extras: [{ extraId: x('Photos'), quantity: 11 }] }), 'extras[0].quantity');
    expectValidationError(await post({ participants: 8, extras: [{ extraId: x('Lunch'), quantity: 7 }] }), 'extras[0].quantity');
    expectValidationError(await post({ extras: [{ extraId: x('Lunch'), quantity: 3 }] }), 'extras[0].quantity');
    expectValidationError(await post({ extras: [{ extraId: x('Lunch'), quantity: 0 }] }), 'extras[0].quantity');
    expectValidationError(await post({ extras: [{ extraId: x('Lunch'), quantity: 1.5 }] }), 'extras[0].quantity');
    expectValidationError(await post({ extras: [{ extraId: x('Lunch') }] }), 'extras[0].quantity');
    expectValidationError(await post({ answers: [{ questionId: q('Shoe size') }] }), 'answers[0].value');
    // Every fault at once: a form shows them all.
    const all = expectValidationError(
      await post({ answers: [answer(q('Shoe size'), '39')], extras: [{ extraId: 'ex_nope', quantity: 1 }, { extraId: x('Photos'), quantity: 20 }] }),
      'extras[0].extraId',
    );
    expect(all.map((d) => d.path)).toEqual([`answers.${q('Shoe size')}`, `answers.${q('I accept the waiver')}`, 'extras[0].extraId', 'extras[1].quantity']);
    expect(await written()).toEqual(before);
    // The limits themselves are taken.
    expect(await book({ participants: 6, extras: [{ extraId: x('Lunch'), quantity: 6 }, { extraId: x('Photos'), quantity: 10 }] })).toMatchObject({ total: '442.00' });
  });

  describe('values, by the question’s type', () => {
    const TYPES = {
      TEXT: { ok: ['Vegetarian', 'x'.repeat(500), ' trimmed '], bad: ['', '   ', 'x'.repeat(501), 3, true] },
      LONG_TEXT: { ok: ['Line one\nLine two', 'x'.repeat(2000)], bad: [' \n ', 'x'.repeat(2001), false] },
      SELECT: { ok: ['B'], bad: ['b', ' B', 'B ', 'D', '', 2] },
      DATE: { ok: ['1990-02-28', '2000-02-29'], bad: ['1990-02-29', '1990-2-28', '28/02/1990', '2027-13-01', '', 19900228] },
      PHONE: { ok: ['+351 912 345 678', '(21) 555-0100', '1', '9'.repeat(40)], bad: ['phone', '+-() ', '9'.repeat(41), '+351 912 x', '', 351] },
      CHECKBOX: { ok: [true, false], bad: ['true', 1, 0] },
      NUMBER: { ok: [0, -3, 4.5, 1e20], bad: ['4', true] },
    } as const;

    for (const [type, { ok, bad }] of Object.entries(TYPES)) {
      it(`${type}: takes ${ok.length} good values, refuses ${bad.length} bad ones at answers.{questionId}`, async () => {
        const typed = await newExperience({ name: type, questions: [{ label: 'Q', type, ...(type === 'SELECT' ? { options: ['A', 'B', 'C'] } : {}) }] });
        const questionId = typed.questions[0]!.id;
        const send = (value: unknown) =>
          t.request('POST', '/v1/bookings', { body: { ...body(), experienceId: typed.id, answers: [{ questionId, value }] } });
        for (const value of ok) {
          const b = expectData(await send(value), Booking, 201);
          expect(b.answers).toEqual([{ questionId, label: 'Q', type, value: typeof value === 'string' && type !== 'SELECT' && type !== 'DATE' ? value.trim() : value }]);
        }
        for (const value of bad) {
          const res = await send(value);
          const detail = expectError(res, 400, 'VALIDATION_ERROR').details!;
          // Values of the wrong JSON kind for any question (an object, an over-long string) fail the body; the rest name the question.
          expect(detail.map((d) => d.path), JSON.stringify(value)).toEqual(
            [typeof value === 'string' && value.length > 2000 ? 'answers[0].value' : `answers.${questionId}`],
          );
        }
      });
    }

    it('refuses a NUL in a value', async () => {
      const res = await post({ answers: [...required(), { questionId: q('Dietary needs'), value: 'Vegan\u0000' }] });
      expectError(res, 400, 'VALIDATION_ERROR');
    });
  });

  it('checks in the agreed order: body, experience, party limits, answers and extras, price, slot, capacity', async () => {
    // S2 full but for one place.
    expectData(await post({ participants: 9, startTime: S2, customerEmail: 'group@example.com' }), Booking, 201);
    expectError(await post({ participants: 2, startTime: S2 }), 409, 'CAPACITY_EXCEEDED');
    expectError(await post({ startTime: '2027-03-02T11:00:00.000Z' }), 409, 'SLOT_UNAVAILABLE');
    const before = await written();
    const bad = { answers: [], extras: [{ extraId: 'ex_nope', quantity: 1 }] };
    // A body fault wins over everything.
    expectValidationError(await post({ ...bad, participants: 0 }), 'participants');
    // An unknown experience: 404 before its questions are looked at.
    expectError(await post({ ...bad, experienceId: 'exp_nope' }), 404, 'NOT_FOUND');
    // The party's limits before the answers.
    const party = expectValidationError(await post({ ...bad, participants: 11 }), 'participants');
    expect(party.map((d) => d.path)).toEqual(['participants']);
    // The answers and extras before PRICE_CHANGED, SLOT_UNAVAILABLE and CAPACITY_EXCEEDED.
    expectValidationError(await post({ ...bad, expectedTotal: '1.00' }), 'extras[0].extraId');
    expectValidationError(await post({ ...bad, startTime: '2027-03-02T11:00:00.000Z' }), 'extras[0].extraId');
    expectValidationError(await post({ ...bad, participants: 2, startTime: S2 }), 'extras[0].extraId');
    expect(await written()).toEqual(before);

    // PRICE_CHANGED compares the total with its extras.
    const extras = [{ extraId: x('Photos'), quantity: 1 }];
    expect(expectPriceChanged(await post({ extras, expectedTotal: '40.00' }))).toBe('65.00');
    expect(await written()).toEqual(before);
    expectData(await post({ extras, expectedTotal: '65.00' }), Booking, 201);
  });

  it('holds the 999,999.99 cap and the payment taken to the total with its extras', async () => {
    const dear = await newExperience({ name: 'Dear', price: 99_990_000, maxParticipants: 1, extras: [{ name: 'Champagne', price: 9_999, maxQuantity: 2 }] });
    const send = (fields: Record<string, unknown>) =>
      t.request('POST', '/v1/bookings', { body: { ...body(), experienceId: dear.id, participants: 1, answers: undefined, ...fields } });
    // 999,900.00 + 99.99 = 999,999.99: the cap itself.
    expect(expectData(await send({ extras: [{ extraId: dear.extras[0]!.id, quantity: 1 }] }), Booking, 201).total).toBe('999999.99');
    expectValidationError(await send({ extras: [{ extraId: dear.extras[0]!.id, quantity: 2 }] }), 'extras');

    // A payment defaults to, and is capped at, the total with extras.
    const paid = await book({ extras: [{ extraId: x('Photos'), quantity: 1 }], payment: { method: 'CASH' } });
    const payments = expectList(await t.request('GET', `/v1/bookings/${paid.id}/payments`), Payment).data;
    expect(payments.map((p) => p.amount)).toEqual(['65.00']);
    expectValidationError(await post({ extras: [{ extraId: x('Photos'), quantity: 1 }], payment: { method: 'CASH', amount: '65.01' } }), 'payment.amount');
    expectData(await post({ extras: [{ extraId: x('Photos'), quantity: 1 }], payment: { method: 'CASH', amount: '65.00' } }), Booking, 201);
  });

  it('takes answers and extras on /public/v1 as on /v1, refusing the same way', async () => {
    const before = await written();
    expectValidationError(await post({ answers: [] }, '/public/v1/bookings'), `answers.${q('Shoe size')}`);
    expectValidationError(await post({ extras: [{ extraId: x('Gear'), quantity: 1 }] }, '/public/v1/bookings'), 'extras[0].extraId');
    expect(await written()).toEqual(before);
    const res = await post({ extras: [{ extraId: x('Lunch'), quantity: 1 }], expectedTotal: '52.00' }, '/public/v1/bookings');
    const b = expectData(res, PublicBooking, 201);
    expect(b).toMatchObject({ total: '52.00', extras: [{ name: 'Lunch', quantity: 1, unitPrice: 1200 }], answers: [{ label: 'Shoe size' }, { label: 'I accept the waiver' }] });
    const record = expectData(await t.request('GET', `/v1/bookings/${b.bookingNumber}`), Booking);
    expect(record).toMatchObject({ source: 'WIDGET', answers: b.answers, extras: b.extras, total: '52.00' });
  });
});

describe('PATCH /v1/bookings/{id} with answers and extras', () => {
  let exp: Experience;
  /** Question ids by their first labels (a test may relabel them). */
  let ids: Record<string, string> = {};
  const q = (label: string) => ids[label] ?? exp.questions.find((x) => x.label === label)!.id;
  const x = (name: string) => exp.extras.find((y) => y.name === name)!.id;
  const required = () => [
    { questionId: q('Shoe size'), value: '40' },
    { questionId: q('I accept the waiver'), value: true },
  ];
  const book = async (fields: Record<string, unknown> = {}) =>
    expectData(
      await t.request('POST', '/v1/bookings', {
        body: { experienceId: exp.id, startTime: S1, participants: 3, customerName: 'Ana Costa', customerEmail: 'ana@example.com', answers: required(), ...fields },
      }),
      Booking,
      201,
    );
  const patch = (ref: string, body: unknown) => t.request('PATCH', `/v1/bookings/${ref}`, { body });
  const updates = async (id: string) =>
    expectList(await t.request('GET', '/v1/events?type=BOOKING_UPDATED&limit=100'), WebhookEvent).data.filter((e) => e.data.booking.id === id);

  beforeEach(async () => {
    exp = await newExperience(FORM);
    ids = Object.fromEntries(exp.questions.map((qq) => [qq.label, qq.id]));
  });

  it('replaces the lists: own extras keep their price, new ones take today’s, answers today’s labels; the event says what changed', async () => {
    const b = await book({ extras: [{ extraId: x('Lunch'), quantity: 2 }] });
    expect(b.total).toBe('84.00'); // 3 × 20.00 + 2 × 12.00
    exp = expectData(
      await patchExperience(exp.id, {
        questions: exp.questions.map((qq) => (qq.label === 'Shoe size' ? { ...qq, label: 'Shoe size (EU)' } : qq)),
        extras: exp.extras.map((e) => ({ ...e, price: e.price + 100 })),
      }),
      Experience,
    );
    const res = await patch(b.id, {
      answers: [...required(), { questionId: q('Dietary needs'), value: 'Vegan' }],
      extras: [{ extraId: x('Photos'), quantity: 1 }, { extraId: x('Lunch'), quantity: 3 }],
    });
    const changed = expectData(res, Booking);
    expect(changed.extras).toEqual([
      { extraId: x('Lunch'), name: 'Lunch', per: 'PERSON', quantity: 3, unitPrice: 1200 },
      { extraId: x('Photos'), name: 'Photos', per: 'BOOKING', quantity: 1, unitPrice: 2600 },
    ]);
    expect(changed.answers.map((a) => [a.label, a.value])).toEqual([['Dietary needs', 'Vegan'], ['Shoe size (EU)', '40'], ['I accept the waiver', true]]);
    expect(changed.total).toBe('122.00'); // 60.00 + 36.00 + 26.00
    const [event] = await updates(b.id);
    expect(event!.data.changes).toEqual({
      answers: { from: b.answers, to: changed.answers },
      extras: { from: b.extras, to: changed.extras },
      subtotal: { from: '84.00', to: '122.00' },
      total: { from: '84.00', to: '122.00' },
      amountDue: { from: '84.00', to: '122.00' },
    });
    expect(expectData(await t.request('GET', `/v1/bookings/${b.id}`), Booking)).toEqual(changed);

    // The same lists again are no change: no event, the record as it was.
    expectData(await patch(b.id, { answers: [{ questionId: q('I accept the waiver'), value: true }, ...required().slice(0, 1), { questionId: q('Dietary needs'), value: 'Vegan' }] }), Booking);
    expectData(await patch(b.id, { extras: [{ extraId: x('Lunch'), quantity: 3 }, { extraId: x('Photos'), quantity: 1 }] }), Booking);
    expect(await updates(b.id)).toHaveLength(1);

    // [] removes them all; the total goes back to the party's.
    const bare = expectData(await patch(b.id, { extras: [] }), Booking);
    expect(bare).toMatchObject({ extras: [], total: '60.00' });
    expect((await updates(b.id))[1]!.data.changes).toEqual({
      extras: { from: changed.extras, to: [] },
      subtotal: { from: '122.00', to: '60.00' },
      total: { from: '122.00', to: '60.00' },
      amountDue: { from: '122.00', to: '60.00' },
    });
  });

  it('checks the lists as a new booking’s, required questions included, and changes nothing when refused', async () => {
    const b = await book({ extras: [{ extraId: x('Lunch'), quantity: 1 }] });
    expectValidationError(await patch(b.id, { answers: [] }), `answers.${q('Shoe size')}`);
    expectValidationError(await patch(b.id, { answers: [{ questionId: q('Shoe size'), value: '39' }, required()[1]] }), `answers.${q('Shoe size')}`);
    expectValidationError(await patch(b.id, { extras: [{ extraId: x('Gear'), quantity: 1 }] }), 'extras[0].extraId');
    expectValidationError(await patch(b.id, { extras: [{ extraId: x('Lunch'), quantity: 4 }] }), 'extras[0].quantity');
    expectValidationError(await patch(b.id, { extras: [{ extraId: x('Photos'), quantity: 11 }] }), 'extras[0].quantity');
    // A new required question: a change of answers must answer it; a change of anything else need not.
    exp = expectData(await patchExperience(exp.id, { questions: [...exp.questions, { label: 'Age', type: 'NUMBER', required: true }] }), Experience);
    expectValidationError(await patch(b.id, { answers: required() }), `answers.${q('Age')}`);
    expectData(await patch(b.id, { internalNote: 'VIP' }), Booking);
    expect(expectData(await t.request('GET', `/v1/bookings/${b.id}`), Booking)).toMatchObject({ answers: b.answers, extras: b.extras, total: b.total });
    expect((await updates(b.id)).map((e) => Object.keys(e.data.changes ?? {}))).toEqual([['internalNote']]);
  });

  it('refuses a smaller party that leaves a per-person extra above it, unless the extras come along', async () => {
    const b = await book({ extras: [{ extraId: x('Lunch'), quantity: 3 }, { extraId: x('Photos'), quantity: 2 }] });
    expectValidationError(await patch(b.id, { participants: 2 }), 'extras');
    expectValidationError(await patch(b.id, { totalParticipants: 2, extras: [{ extraId: x('Lunch'), quantity: 3 }] }), 'extras[0].quantity');
    const both = expectData(await patch(b.id, { participants: 2, extras: [{ extraId: x('Lunch'), quantity: 2 }, { extraId: x('Photos'), quantity: 2 }] }), Booking);
    expect(both).toMatchObject({ totalParticipants: 2, total: '114.00' }); // 40.00 + 24.00 + 50.00
    // A per-booking extra is no limit; nor is a per-person one at or below the party.
    expect(expectData(await patch(b.id, { participants: 5 }), Booking).total).toBe('174.00');
    expect(expectData(await patch(b.id, { participants: 2 }), Booking).total).toBe('114.00');
    const [, , last] = await updates(b.id);
    expect(last!.data.changes).toMatchObject({ totalParticipants: { from: 5, to: 2 }, total: { from: '174.00', to: '114.00' } });
    expect(last!.data.changes).not.toHaveProperty('extras');
  });

  it('the same for tickets', async () => {
    const ticketed = await newExperience({ name: 'Ticketed', extras: FORM.extras, priceCategories: [{ name: 'Adult', price: 2500 }] });
    const adult = ticketed.priceCategories[0]!.id;
    const lunch = ticketed.extras[0]!.id;
    const res = await t.request('POST', '/v1/bookings', {
      body: { experienceId: ticketed.id, startTime: S1, tickets: [{ categoryId: adult, quantity: 2 }], customerName: 'Ana', customerEmail: 'ana@example.com', extras: [{ extraId: lunch, quantity: 2 }] },
    });
    const b = expectData(res, Booking, 201);
    expect(b.total).toBe('74.00');
    expectValidationError(await patch(b.id, { tickets: [{ categoryId: adult, quantity: 1 }] }), 'extras');
    expect(expectData(await patch(b.id, { tickets: [{ categoryId: adult, quantity: 3 }] }), Booking).total).toBe('99.00');
    expect(expectData(await patch(b.id, { extras: [] }), Booking).total).toBe('75.00');
    expect(expectData(await patch(b.id, { extras: [{ extraId: lunch, quantity: 1 }] }), Booking).total).toBe('87.00');
  });

  it('a cancelled booking takes metadata only, its lists unchanged included', async () => {
    const b = await book({ extras: [{ extraId: x('Photos'), quantity: 1 }, { extraId: x('Lunch'), quantity: 3 }] });
    expectData(await t.request('PATCH', `/v1/bookings/${b.id}/cancel`, { body: {} }), Booking);
    expectError(await patch(b.id, { extras: [] }), 409, 'INVALID_STATUS_TRANSITION');
    expectError(await patch(b.id, { participants: 1 }), 409, 'INVALID_STATUS_TRANSITION');
    expectError(await patch(b.id, { answers: [...required(), { questionId: q('Dietary needs'), value: 'None' }] }), 409, 'INVALID_STATUS_TRANSITION');
    expectData(await patch(b.id, { extras: [{ extraId: x('Lunch'), quantity: 3 }, { extraId: x('Photos'), quantity: 1 }], metadata: { ref: 'A1' } }), Booking);
  });

  it('on the manage page, a smaller party lowers the per-person extras with it, and the total follows', async () => {
    const b = await book({ extras: [{ extraId: x('Lunch'), quantity: 3 }, { extraId: x('Photos'), quantity: 1 }] });
    expect(b.total).toBe('121.00'); // 60.00 + 36.00 + 25.00
    const token = await issueManageToken(t.store, b.id, clock.now());
    const res = await t.request('POST', '/public/v1/manage/update', { key: null, headers: { 'x-manage-token': token }, body: { participants: 2 } });
    const managed = expectData(res, ManagedBooking);
    expect(managed.booking).toMatchObject({ totalParticipants: 2, total: '89.00' });
    expect(managed.booking.extras.map((e) => [e.name, e.quantity])).toEqual([['Lunch', 2], ['Photos', 1]]);
    const [event] = await updates(b.id);
    expect(event!.data.changes).toMatchObject({
      totalParticipants: { from: 3, to: 2 },
      extras: { from: b.extras, to: managed.booking.extras },
      total: { from: '121.00', to: '89.00' },
    });
    // Growing again leaves them as they are.
    expect(expectData(await t.request('POST', '/public/v1/manage/update', { key: null, headers: { 'x-manage-token': token }, body: { participants: 3 } }), ManagedBooking).booking)
      .toMatchObject({ total: '109.00' });
  });
});
