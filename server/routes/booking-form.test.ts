import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, everyDay, expectData, expectList, expectValidationError, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { Experience, PublicExperience } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 UTC = 08:00 in Lisbon; the walk runs every day at 10:00 and 15:00.
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);

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
