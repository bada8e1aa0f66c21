import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { ChunkScript } from './chunks.js';
import { forms, type FormsChunk } from './forms.js';
import { kayak, walk } from './test-helpers/fake-outing.js';
import { fill, mountForTest, pinned, useWidgetTests } from './test-helpers/widget-under-test.js';
import type { WidgetUnderTest } from './test-helpers/widget-under-test.js';

useWidgetTests();

const CHUNK = 'https://outing.test/widget/forms.js';

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

const kayakTrip = (locale = 'en') => mountForTest({ ...pinned, experience: 'exp_kayak', locale }, { experiences: [walk, kayak] });

/** Through the calendar and the times to the booking form's step, its chunk arrived. */
async function toForm(s: WidgetUnderTest, heading = 'Extras and questions'): Promise<void> {
  await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
  await arrives<FormsChunk>(CHUNK, forms);
  fireEvent.click(s.day('2026-12-02'));
  await waitFor(() => expect(s.root.querySelector('.time')).toBeTruthy());
  fireEvent.click(s.root.querySelector('.time')!);
  await s.ui.findByRole('heading', { name: heading });
}

const field = (s: WidgetUnderTest, id: string) => s.root.getElementById(id) as HTMLInputElement;
const described = (s: WidgetUnderTest, id: string) =>
  (field(s, id).getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((d) => s.root.getElementById(d)!.textContent);
const press = (s: WidgetUnderTest, name: string, times = 1) => {
  for (let i = 0; i < times; i++) fireEvent.click(s.ui.getByRole('button', { name }));
};
const total = (s: WidgetUnderTest) => s.root.querySelector('.total')!.textContent;
const lines = (s: WidgetUnderTest) => [...s.root.querySelectorAll('.lines li')].map((li) => li.textContent);
const cont = (s: WidgetUnderTest, name = 'Continue') => fireEvent.click(s.ui.getByRole('button', { name }));

/** Answers the two required questions. */
function answerRequired(s: WidgetUnderTest): void {
  fireEvent.input(field(s, 'q-q_diet'), { target: { value: 'Vegetarian' } });
  fireEvent.click(field(s, 'q-q_waiver'));
}

describe('the booking form step', () => {
  it('is not there for an experience without questions or extras, whose booking loads no chunk before it is confirmed', async () => {
    const s = mountForTest(pinned, { experiences: [walk, kayak] });
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(s.day('2026-12-02'));
    await waitFor(() => expect(s.root.querySelector('.time')).toBeTruthy());
    fireEvent.click(s.root.querySelector('.time')!);
    await s.ui.findByRole('heading', { name: 'Your details' });
    expect(s.root.querySelector('.position')!.textContent).toBe('Step 3 of 4');
    expect(s.ui.getByLabelText('Participants')).toBeTruthy();
    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    expect(document.head.querySelector(`script[src="${CHUNK}"]`)).toBeNull();
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    // The confirmation's part (guest information, Add to calendar) is in the chunk, asked for now.
    expect(document.head.querySelector(`script[src="${CHUNK}"]`)).not.toBeNull();
    const post = s.outing.requests.find((r) => r.method === 'POST')!;
    expect(post.body).not.toHaveProperty('answers');
    expect(post.body).not.toHaveProperty('extras');
  });

  it('comes after the times, asks the party, offers each extra and asks each question with a field of its type', async () => {
    const s = kayakTrip();
    await toForm(s);
    expect(s.root.querySelector('.position')!.textContent).toBe('Step 3 of 5');
    // The party is asked here, not again with the name and e-mail.
    expect(s.ui.getByLabelText('Participants')).toBeTruthy();
    expect(s.ui.getByRole('group', { name: 'Extras' })).toBeTruthy();
    expect(s.ui.getByRole('group', { name: 'Questions' })).toBeTruthy();

    expect(field(s, 'x-ex_lunch').value).toBe('0');
    expect(s.ui.getByLabelText('Lunch, €12.00 per person')).toBe(field(s, 'x-ex_lunch'));
    expect(s.ui.getByLabelText('Photos, €15.00')).toBe(field(s, 'x-ex_photos'));
    expect(described(s, 'x-ex_lunch')).toEqual(['Sandwich and fruit']);
    expect(s.ui.getByRole('button', { name: 'Lunch: one more' })).toBeTruthy();

    const kinds = Object.fromEntries(
      kayak.questions.map((q) => {
        const el = field(s, `q-${q.id}`);
        return [q.type, `${el.tagName.toLowerCase()}${el instanceof HTMLInputElement ? `:${el.type}` : ''}`];
      }),
    );
    expect(kinds).toEqual({
      TEXT: 'input:text',
      LONG_TEXT: 'textarea',
      SELECT: 'select',
      CHECKBOX: 'input:checkbox',
      NUMBER: 'input:number',
      DATE: 'input:date',
      PHONE: 'input:tel',
    });
    expect([...(field(s, 'q-q_size') as unknown as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['Choose…', 'S', 'M', 'L']);
    // Labels name the fields; required ones say so and carry required and aria-required.
    expect(s.ui.getByLabelText('Dietary needs (required)')).toBe(field(s, 'q-q_diet'));
    expect(s.ui.getByLabelText('I accept the safety rules (required)')).toBe(field(s, 'q-q_waiver'));
    expect(s.ui.getByLabelText('Anything else')).toBe(field(s, 'q-q_notes'));
    for (const id of ['q-q_diet', 'q-q_waiver']) {
      expect(field(s, id).required).toBe(true);
      expect(field(s, id).getAttribute('aria-required')).toBe('true');
    }
    expect(field(s, 'q-q_notes').required).toBe(false);
    expect(field(s, 'q-q_notes').getAttribute('aria-required')).toBe('false');
    // Help describes its field.
    expect(described(s, 'q-q_diet')).toEqual(['Allergies, vegetarian…']);
    expect(total(s)).toBe('Total: €40.00');
  });

  it('keeps Continue enabled, and says beside a required field left empty what it needs, focus on it', async () => {
    const s = kayakTrip();
    await toForm(s);
    const button = s.ui.getByRole('button', { name: 'Continue' });
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(button.getAttribute('aria-disabled')).toBeNull();
    cont(s);
    await waitFor(() => expect(s.root.activeElement).toBe(field(s, 'q-q_diet')));
    expect(s.ui.getByRole('heading', { level: 2 }).textContent).toBe('Extras and questions');
    expect(field(s, 'q-q_diet').getAttribute('aria-invalid')).toBe('true');
    expect(described(s, 'q-q_diet')).toEqual(['Allergies, vegetarian…', 'Answer “Dietary needs”']);
    expect(described(s, 'q-q_waiver')).toEqual(['Tick “I accept the safety rules” to continue']);

    // A blank answer is none; a real one clears its message.
    fireEvent.input(field(s, 'q-q_diet'), { target: { value: '   ' } });
    cont(s);
    await waitFor(() => expect(s.root.activeElement).toBe(field(s, 'q-q_diet')));
    fireEvent.input(field(s, 'q-q_diet'), { target: { value: 'None' } });
    expect(field(s, 'q-q_diet').getAttribute('aria-invalid')).toBe('false');
    cont(s);
    // The unticked waiver is next.
    await waitFor(() => expect(s.root.activeElement).toBe(field(s, 'q-q_waiver')));
    expect(s.root.querySelectorAll('.field-error')).toHaveLength(1);
    fireEvent.click(field(s, 'q-q_waiver'));
    cont(s);
    await s.ui.findByRole('heading', { name: 'Your details' });
    // The party was asked on the step before.
    expect(s.ui.queryByLabelText('Participants')).toBeNull();
  });

  it('caps each extra at its maximum, and a per-person one at the party, lowering it when the party shrinks', async () => {
    const s = kayakTrip();
    await toForm(s);
    press(s, 'Lunch: one more', 3);
    expect(field(s, 'x-ex_lunch').value).toBe('1');
    expect(s.ui.getByRole('button', { name: 'Lunch: one more' }).getAttribute('aria-disabled')).toBe('true');
    press(s, 'One participant more', 3);
    press(s, 'Lunch: one more', 5);
    expect(field(s, 'x-ex_lunch').value).toBe('4');
    press(s, 'One participant fewer', 2);
    await waitFor(() => expect(field(s, 'x-ex_lunch').value).toBe('2'));
    press(s, 'Photos: one more', 5);
    expect(field(s, 'x-ex_photos').value).toBe('2');
    // Typed past the maximum: the maximum.
    fireEvent.input(field(s, 'x-ex_photos'), { target: { value: '9' } });
    expect(field(s, 'x-ex_photos').value).toBe('2');
    // 2 × €40 + 2 × €12 + 2 × €15
    expect(total(s)).toBe('Total: €134.00');
  });

  it('counts the extras in the total, lists them as lines, sends answers and extras, and shows them once booked', async () => {
    const s = kayakTrip();
    await toForm(s);
    press(s, 'One participant more');
    press(s, 'Lunch: one more', 2);
    press(s, 'Photos: one more');
    expect(total(s)).toBe('Total: €119.00');
    answerRequired(s);
    fireEvent.change(field(s, 'q-q_size'), { target: { value: 'M' } });
    fireEvent.input(field(s, 'q-q_age'), { target: { value: '12' } });
    fireEvent.input(field(s, 'q-q_born'), { target: { value: '2014-05-01' } });
    fireEvent.input(field(s, 'q-q_phone'), { target: { value: '+351 912 345 678' } });
    fireEvent.input(field(s, 'q-q_notes'), { target: { value: 'First time\non water' } });
    cont(s);
    await s.ui.findByRole('heading', { name: 'Your details' });
    expect(lines(s)).toEqual(['2 × Lunch €24.00', '1 × Photos €15.00']);
    expect(total(s)).toBe('Total: €119.00');
    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    const post = s.outing.requests.find((r) => r.method === 'POST')!;
    expect(post.body).toMatchObject({
      participants: 2,
      expectedTotal: '119.00',
      // In the questions' order, the answered ones; the extras chosen, none at zero.
      answers: [
        { questionId: 'q_diet', value: 'Vegetarian' },
        { questionId: 'q_notes', value: 'First time\non water' },
        { questionId: 'q_size', value: 'M' },
        { questionId: 'q_waiver', value: true },
        { questionId: 'q_age', value: 12 },
        { questionId: 'q_born', value: '2014-05-01' },
        { questionId: 'q_phone', value: '+351 912 345 678' },
      ],
      extras: [
        { extraId: 'ex_lunch', quantity: 2 },
        { extraId: 'ex_photos', quantity: 1 },
      ],
    });
    expect(s.root.querySelector('.summary')!.textContent).toContain('€119.00');
    // The confirmation's part is in forms.js, here already.
    await waitFor(() => expect(lines(s)).toEqual(['2 × Lunch €24.00', '1 × Photos €15.00']));
  });

  it('sends no extra left at zero and no question left unanswered', async () => {
    const s = kayakTrip();
    await toForm(s);
    press(s, 'Photos: one more');
    press(s, 'Photos: one fewer');
    answerRequired(s);
    fireEvent.input(field(s, 'q-q_notes'), { target: { value: 'x' } });
    fireEvent.input(field(s, 'q-q_notes'), { target: { value: '' } });
    cont(s);
    await s.ui.findByRole('heading', { name: 'Your details' });
    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(s.outing.requests.find((r) => r.method === 'POST')!.body).toMatchObject({
      answers: [
        { questionId: 'q_diet', value: 'Vegetarian' },
        { questionId: 'q_waiver', value: true },
      ],
      extras: [],
      expectedTotal: '40.00',
    });
  });

  it('takes the guest back to the step when the server refuses an answer or an extra, said beside it, focus on it', async () => {
    const s = kayakTrip();
    await toForm(s);
    answerRequired(s);
    fireEvent.change(field(s, 'q-q_size'), { target: { value: 'L' } });
    cont(s);
    await s.ui.findByRole('heading', { name: 'Your details' });
    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    s.outing.failNext('bookings', {
      status: 400,
      code: 'VALIDATION_ERROR',
      details: [{ path: 'answers.q_size', message: 'Not one of the options' }],
    });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Extras and questions' });
    await waitFor(() => expect(s.root.activeElement).toBe(field(s, 'q-q_size')));
    expect(described(s, 'q-q_size')).toEqual(['Check your answer to “Wetsuit size”']);
    expect(s.root.querySelector('[role="alert"]')).toBeNull();

    // A required question the server names: "Answer …"; an extra by its place in the list sent.
    press(s, 'Photos: one more');
    cont(s);
    await s.ui.findByRole('heading', { name: 'Your details' });
    s.outing.failNext('bookings', {
      status: 400,
      code: 'VALIDATION_ERROR',
      details: [
        { path: 'extras[0].quantity', message: 'Too many' },
        { path: 'answers.q_born', message: 'Required' },
      ],
    });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Extras and questions' });
    await waitFor(() => expect(s.root.activeElement).toBe(field(s, 'x-ex_photos')));
    expect(described(s, 'x-ex_photos')).toEqual(['Choose fewer of “Photos”']);
    expect(described(s, 'q-q_born')).toEqual(['Answer “Date of birth”']);
  });

  it('prices the extras anew when the server says the total changed, and books at the new total', async () => {
    const s = kayakTrip();
    await toForm(s);
    press(s, 'Photos: one more');
    answerRequired(s);
    cont(s);
    await s.ui.findByRole('heading', { name: 'Your details' });
    expect(total(s)).toBe('Total: €55.00');
    s.outing.repriceExtra('exp_kayak', 'ex_photos', 2000);
    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByText(/the total is now €60\.00\./);
    expect(total(s)).toBe('Total: €60.00');
    expect(lines(s)).toEqual(['1 × Photos €20.00']);
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    const posts = s.outing.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => (r.body as { expectedTotal: string }).expectedTotal)).toEqual(['55.00', '60.00']);
  });

  it('speaks Portuguese', async () => {
    const s = kayakTrip('pt');
    await toForm(s, 'Extras e perguntas');
    expect(s.root.querySelector('label[for="x-ex_lunch"]')!.textContent).toMatch(/^Lunch, \S*\s?12,00\s?\S* por pessoa$/);
    expect(s.ui.getByLabelText('Dietary needs (obrigatório)')).toBe(field(s, 'q-q_diet'));
    expect(s.ui.getByRole('group', { name: 'Perguntas' })).toBeTruthy();
    expect(s.ui.getByRole('button', { name: 'Lunch: mais um' })).toBeTruthy();
    expect((field(s, 'q-q_size') as unknown as HTMLSelectElement).options[0]!.textContent).toBe('Escolha…');
    cont(s, 'Continuar');
    await waitFor(() => expect(s.root.activeElement).toBe(field(s, 'q-q_diet')));
    expect(described(s, 'q-q_diet')).toEqual(['Allergies, vegetarian…', 'Responda a «Dietary needs»']);
    expect(described(s, 'q-q_waiver')).toEqual(['Assinale «I accept the safety rules» para continuar']);
  });
});
