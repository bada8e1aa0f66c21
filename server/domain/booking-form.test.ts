import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Refusal } from './refusal.js';
import { checkAnswers, checkBookingForm, formJson, priceExtras, resolveExtras, resolveQuestions } from './booking-form.js';
import type { BookingExtra, Extra, Question } from '../../shared/index.js';

function refusal(work: () => unknown): Refusal {
  try {
    work();
  } catch (err) {
    if (err instanceof Refusal) return err;
    throw err;
  }
  throw new Error('Expected a refusal');
}
const paths = (work: () => unknown) => (refusal(work).details as { path: string }[]).map((d) => d.path);

const question = (id: string, type: Question['type'], fields: Partial<Question> = {}): Question => ({
  id, label: id.toUpperCase(), type, options: type === 'SELECT' ? ['S', 'M', 'L'] : [], required: false, help: null, ...fields,
});
const extra = (id: string, fields: Partial<Extra> = {}): Extra => ({
  id, name: id.toUpperCase(), description: null, price: 1000, per: 'BOOKING', maxQuantity: 10, active: true, ...fields,
});

describe('resolveQuestions and resolveExtras', () => {
  let n = 0;
  const next = () => `new_${++n}`;
  it('gives new entries ids and defaults, keeps known ids, refuses others by index', () => {
    const current = [question('q_a', 'TEXT')];
    expect(resolveQuestions([{ label: ' Size ', type: 'SELECT', options: ['S'] }, { id: 'q_a', label: 'A', type: 'NUMBER', help: ' ' }], current, next)).toEqual([
      { id: 'new_1', label: 'Size', type: 'SELECT', options: ['S'], required: false, help: null },
      { id: 'q_a', label: 'A', type: 'NUMBER', options: [], required: false, help: null },
    ]);
    expect(paths(() => resolveQuestions([{ label: 'A', type: 'TEXT' }, { id: 'q_b', label: 'B', type: 'TEXT' }], current, next))).toEqual(['questions[1].id']);
    expect(resolveExtras([{ name: ' Lunch ', price: 0 }], [], next)).toEqual([
      { id: expect.stringMatching(/^new_/), name: 'Lunch', description: null, price: 0, per: 'BOOKING', maxQuantity: 10, active: true },
    ]);
    expect(paths(() => resolveExtras([{ id: 'ex_z', name: 'Z', price: 1 }], [extra('ex_a')], next))).toEqual(['extras[0].id']);
  });
});

describe('checkAnswers', () => {
  const questions = [question('q_size', 'SELECT', { required: true }), question('q_note', 'TEXT'), question('q_ok', 'CHECKBOX', { required: true })];

  it('keeps answered questions in the questions’ order, with their labels and types', () => {
    expect(checkAnswers(questions, [{ questionId: 'q_ok', value: true }, { questionId: 'q_size', value: 'M' }])).toEqual([
      { questionId: 'q_size', label: 'Q_SIZE', type: 'SELECT', value: 'M' },
      { questionId: 'q_ok', label: 'Q_OK', type: 'CHECKBOX', value: true },
    ]);
    expect(checkAnswers([], [])).toEqual([]);
  });

  it('lists every fault in one refusal: unknown, twice, wrong value, each unanswered required question', () => {
    const r = refusal(() =>
      checkAnswers(questions, [
        { questionId: 'q_x', value: 'a' },
        { questionId: 'q_note', value: ' ' },
        { questionId: 'q_note', value: 'again' },
      ]),
    );
    expect(r.code).toBe('VALIDATION_ERROR');
    expect(r.details).toEqual([
      { path: 'answers[0].questionId', message: 'Not a question of this experience' },
      { path: 'answers.q_note', message: 'Must not be empty' },
      { path: 'answers[2].questionId', message: 'This question is answered twice' },
      { path: 'answers.q_size', message: 'Required: Q_SIZE' },
      { path: 'answers.q_ok', message: 'Required: Q_OK' },
    ]);
    // A required question answered wrongly has one detail, not two.
    expect(paths(() => checkAnswers(questions, [{ questionId: 'q_size', value: 'XL' }, { questionId: 'q_ok', value: false }]))).toEqual([
      'answers.q_size',
      'answers.q_ok',
    ]);
  });

  it('takes any real calendar date and refuses any other string as a DATE', () => {
    const date = [question('q_d', 'DATE')];
    fc.assert(
      fc.property(fc.date({ min: new Date('1900-01-01'), max: new Date('9998-12-31'), noInvalidDate: true }), (d) => {
        const value = d.toISOString().slice(0, 10);
        expect(checkAnswers(date, [{ questionId: 'q_d', value }])[0]!.value).toBe(value);
      }),
    );
    for (const value of ['2027-02-29', '2027-04-31', '2027-1-01', '2027-01-01T00:00:00Z']) {
      expect(paths(() => checkAnswers(date, [{ questionId: 'q_d', value }]))).toEqual(['answers.q_d']);
    }
  });
});

describe('priceExtras', () => {
  const offered = [extra('ex_lunch', { per: 'PERSON', price: 1200 }), extra('ex_photo', { maxQuantity: 2 }), extra('ex_gear', { active: false })];

  it('prices new extras at today’s price, in the experience’s order', () => {
    expect(priceExtras(offered, [{ extraId: 'ex_photo', quantity: 2 }, { extraId: 'ex_lunch', quantity: 3 }], 3)).toEqual([
      { extraId: 'ex_lunch', name: 'EX_LUNCH', per: 'PERSON', quantity: 3, unitPrice: 1200 },
      { extraId: 'ex_photo', name: 'EX_PHOTO', per: 'BOOKING', quantity: 2, unitPrice: 1000 },
    ]);
  });

  it('refuses unknown, inactive, twice, above maxQuantity and PERSON above the party, naming each', () => {
    expect(
      paths(() =>
        priceExtras(offered, [
          { extraId: 'ex_none', quantity: 1 },
          { extraId: 'ex_gear', quantity: 1 },
          { extraId: 'ex_photo', quantity: 3 },
          { extraId: 'ex_lunch', quantity: 3 },
          { extraId: 'ex_lunch', quantity: 1 },
        ], 2),
      ),
    ).toEqual(['extras[0].extraId', 'extras[1].extraId', 'extras[2].quantity', 'extras[3].quantity', 'extras[4].extraId']);
  });

  it('keeps a booking’s own name, per and price; one no longer offered may stay at its quantity but not grow', () => {
    const own: BookingExtra[] = [
      { extraId: 'ex_lunch', name: 'Old lunch', per: 'PERSON', quantity: 2, unitPrice: 900 },
      { extraId: 'ex_gear', name: 'Gear', per: 'BOOKING', quantity: 1, unitPrice: 500 },
    ];
    expect(priceExtras(offered, [{ extraId: 'ex_gear', quantity: 1 }, { extraId: 'ex_lunch', quantity: 1 }], 2, own)).toEqual([
      { extraId: 'ex_lunch', name: 'Old lunch', per: 'PERSON', quantity: 1, unitPrice: 900 },
      { extraId: 'ex_gear', name: 'Gear', per: 'BOOKING', quantity: 1, unitPrice: 500 },
    ]);
    expect(paths(() => priceExtras(offered, [{ extraId: 'ex_gear', quantity: 2 }], 2, own))).toEqual(['extras[0].quantity']);
  });
});

describe('checkBookingForm', () => {
  it('reads nothing for an experience that asks nothing and a booking that adds nothing', () => {
    expect(checkBookingForm({ questions: '[]', extras: 'not even JSON' }, {}, 2)).toEqual({ answers: [], extras: [] });
    expect(checkBookingForm({}, { answers: [], extras: [] }, 2)).toEqual({ answers: [], extras: [] });
  });

  it('refuses the answers’ and the extras’ faults together', () => {
    const exp = { questions: JSON.stringify([question('q_a', 'TEXT', { required: true })]), extras: JSON.stringify([extra('ex_a')]) };
    expect(paths(() => checkBookingForm(exp, { extras: [{ extraId: 'ex_b', quantity: 1 }] }, 1))).toEqual(['answers.q_a', 'extras[0].extraId']);
  });

  it('stores an empty list as null', () => {
    expect(formJson([])).toBeNull();
    expect(formJson([1])).toBe('[1]');
  });
});
