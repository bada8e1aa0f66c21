/**
 * The booking form's step (part of widget/forms.js, widget/forms.ts), for an experience that asks questions or sells
 * extras. Between the times and the guest's name and e-mail it asks the party (widget.js's own
 * control), offers each extra as a quantity and asks each question with a field of its type; its
 * "Continue" checks the required questions, GOV.UK style: each problem beside its field, focus on
 * the first. widget.js loads it (forms.js, as a classic script) only for such an experience
 * (widget/chunks.ts), so that widget.js stays within its size budget. It renders with the `h` of
 * that widget.js (no JSX: that would need a Preact of its own).
 */
import type { ComponentChildren, FunctionComponent, h as H } from 'preact';
import type { AnswerValue, PublicBookingCreate, PublicExperience } from '../../shared/index.js';
import type { Props, Widget } from '../components/widget.js';
import type { Messages } from '../i18n/messages.js';
import type { BookingModel } from '../state/booking.js';
import type { FormState } from '../state/state.js';
import { partyLines, type BookingLines } from '../../shared/lines.js';
import { formTexts, type Problem } from './texts.js';

type Question = PublicExperience['questions'][number];

/** What widget.js lends the step (widget/components): the party's field (tickets or participants) and its number stepper. */
export interface Parts {
  Party: FunctionComponent<Props>;
  Stepper: typeof import('../components/Stepper.js').Stepper;
}

const fill = (text: string, name: string): string => text.replace('{0}', name);

/**
 * The step's own styles, beside widget.js's (which style its inputs, selects and text areas): a
 * checkbox beside its label. Adopted by the widget's shadow root as a constructed sheet, which a
 * strict CSP allows as it does widget.js's own.
 */
const CSS =
  '.check{display:grid;grid-template-columns:auto 1fr;gap:0 .5em;align-items:center}' +
  '.check input{width:1.5em;height:1.5em;min-height:0;margin:0}' +
  '.check label{margin:0}' +
  '.check p{grid-column:1/-1}';

/** What is wrong with a question's answer as it stands, if anything the guest can see is. */
function problemOf(q: Question, value: AnswerValue | undefined): Problem | undefined {
  if (q.type === 'CHECKBOX') return q.required && value !== true ? 'tick' : undefined;
  return q.required && value === undefined ? 'required' : undefined;
}

/** The fields in the order the step shows them: the extras, then the questions. */
const fieldIds = (e: PublicExperience): string[] => [...e.extras.map((x) => `x-${x.id}`), ...e.questions.map((q) => `q-${q.id}`)];

type Extras = NonNullable<FormState['extras']>;
const extrasOf = (m: BookingModel): Extras => m.form.value.extras ?? [];
const answersOf = (m: BookingModel): Record<string, AnswerValue> => m.form.value.answers ?? {};
const problemsOf = (m: BookingModel): Record<string, string | undefined> => m.form.value.problems ?? {};
const setProblems = (m: BookingModel, problems: Record<string, string | undefined>): void => {
  m.form.value = { ...m.form.value, problems };
};

/**
 * Shows problems beside their fields, focus on the first; false when there are none. Back on this
 * step first (its render sends focus to the heading), then the request for the field, which the
 * next render takes (widget/mount.tsx).
 */
function show(m: BookingModel, problems: Record<string, Problem>, toStep: boolean): boolean {
  const first = fieldIds(m.experience.value!).find((id) => problems[id]);
  if (!first) return false;
  if (toStep) {
    m.trouble.value = null;
    m.step.value = 'form';
  }
  m.session.focusId = first;
  setProblems(m, problems);
  return true;
}

/** "Continue": on to the name and e-mail unless a required question is unanswered. */
function next(m: BookingModel): void {
  const problems: Record<string, Problem> = {};
  for (const q of m.experience.value!.questions) {
    const problem = problemOf(q, answersOf(m)[q.id]);
    if (problem) problems[`q-${q.id}`] = problem;
  }
  if (show(m, problems, false)) return;
  setProblems(m, {});
  m.step.value = 'details';
}

/**
 * A booking refused with details on `answers…` or `extras…` (400 VALIDATION_ERROR): back on this
 * step, each beside its field. A path names the question or extra by id (`answers.q_…`), or by its
 * place in the lists sent (`extras[0].quantity`); one that names neither points at the first.
 */
function refused(m: BookingModel, e: unknown): boolean {
  const details = (e as { details?: unknown } | null)?.details;
  const exp = m.experience.value;
  if (!Array.isArray(details) || !exp) return false;
  const answers = answersOf(m);
  const problems: Record<string, Problem> = {};
  for (const d of details as { path?: unknown }[]) {
    // `answers.q_…`, `answers[0].questionId`, `extras[1].quantity`, `extras` (the server's), `extras.1.quantity` (a body's).
    const [head, key = ''] = String(d.path).split(/[.[\]]+/);
    if (head === 'answers') {
      const q = exp.questions.find((x) => x.id === key) ?? exp.questions.filter((x) => x.id in answers)[+key] ?? exp.questions[0];
      if (q) problems[`q-${q.id}`] = problemOf({ ...q, required: true }, answers[q.id]) ?? 'invalid';
    } else if (head === 'extras') {
      const id = exp.extras.find((x) => x.id === key)?.id ?? chosen(m)[+key]?.extraId ?? exp.extras[0]?.id;
      if (id) problems[`x-${id}`] = 'extra';
    }
  }
  return show(m, problems, true);
}

/** The party: every ticket, or the participants (a booking's totalParticipants). */
const partyOf = (m: BookingModel): number =>
  m.tickets.value.length ? m.tickets.value.reduce((n, c) => n + c.quantity, 0) : m.participants.value;

/** The extras chosen as they stand now: today's names and prices (after a 409 PRICE_CHANGED too), within today's limits. */
const chosen = (m: BookingModel): Extras => (m.experience.value ? fitted(m, m.experience.value, partyOf(m)) : []);

/** What a booking sends of the form: the answers in the questions' order, the extras chosen. */
function body(m: BookingModel): Pick<PublicBookingCreate, 'answers' | 'extras'> {
  const exp = m.experience.value;
  const answers = answersOf(m);
  if (!exp || !m.hasForm.value) return {};
  return {
    answers: exp.questions.filter((q) => q.id in answers).map((q) => ({ questionId: q.id, value: answers[q.id]! })),
    extras: chosen(m).map(({ extraId, quantity }) => ({ extraId, quantity })),
  };
}

/**
 * The booking's money lines as the server makes them: the party, then each extra chosen. No code
 * here (the code box's chunk adds the discount and the voucher): the total is their sum.
 */
function lines(m: BookingModel): BookingLines {
  const { lines, subtotal } = partyLines({
    tickets: m.tickets.value.map((c) => ({ categoryId: c.id, name: c.name, quantity: c.quantity, unitPrice: c.price })),
    participants: m.participants.value,
    unitPrice: m.experience.value?.price ?? 0,
    extras: chosen(m),
  });
  // Participants at the experience's price are said beside the total, not as a line.
  return { lines: lines.filter((l) => l.name), subtotal, discount: 0, total: subtotal, voucherAmount: 0, due: subtotal };
}

function setAnswer(m: BookingModel, q: Question, value: AnswerValue | undefined): void {
  const answers = { ...answersOf(m) };
  // A blank answer is no answer: the server takes none.
  if (value === undefined || (typeof value === 'string' && !value.trim())) delete answers[q.id];
  else answers[q.id] = value;
  m.form.value = { ...m.form.value, answers, problems: { ...problemsOf(m), [`q-${q.id}`]: undefined } };
}

/**
 * The extras as chosen, each within what it may be now: an extra of this experience, at most its
 * maximum and, per person, at most one per participant (a smaller party lowers it).
 */
function fitted(m: BookingModel, exp: PublicExperience, party: number, change?: [string, number]): Extras {
  return exp.extras.flatMap((x) => {
    const chosen = change?.[0] === x.id ? change[1] : (extrasOf(m).find((e) => e.extraId === x.id)?.quantity ?? 0);
    const quantity = Math.min(chosen, x.maxQuantity, x.per === 'PERSON' ? party : 99);
    return quantity > 0 ? [{ extraId: x.id, name: x.name, quantity, unitPrice: x.price }] : [];
  });
}

/** The step: the party, the extras, the questions, the running total and "Continue". */
export function step(h: typeof H, w: Widget, Party: Parts['Party'], Stepper: Parts['Stepper']): ComponentChildren {
  const { model: m, fmt } = w;
  const exp = m.experience.value;
  if (!exp) return null;
  const T = formTexts(w.t);
  m.session.form = { body: () => body(m), refused: (e) => refused(m, e), lines: () => lines(m) };
  const problems = problemsOf(m);
  const answers = answersOf(m);
  const party = partyOf(m);
  // A party made smaller than a per-person extra's quantity lowers it (this render then runs again).
  const fit = fitted(m, exp, party);
  if (JSON.stringify(fit) !== JSON.stringify(extrasOf(m))) m.form.value = { ...m.form.value, extras: fit };
  const money = (cents: number): string => fmt.money(cents / 100, exp.currency);

  /** Ids of the texts that describe a field: its help, its problem. */
  const describedBy = (id: string, help: string | null): string | undefined =>
    [help && `${id}-help`, problems[id] && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const hint = (id: string, help: string | null): ComponentChildren => help && h('p', { id: `${id}-help`, class: 'hint' }, help);
  const error = (id: string, name: string): ComponentChildren =>
    problems[id] && h('p', { id: `${id}-error`, class: 'field-error' }, fill(T.problems[problems[id] as Problem], name));

  const extra = (x: PublicExperience['extras'][number]): ComponentChildren => {
    const id = `x-${x.id}`;
    const chosen = extrasOf(m).find((e) => e.extraId === x.id)?.quantity ?? 0;
    // A row as a ticket category's (widget/components/Tickets.tsx): the extra on the left, its stepper on the right.
    return h(
      'div',
      { class: 'ticket', key: id },
      h(
        'div',
        null,
        h('label', { for: id }, `${x.name}, ${money(x.price)}${x.per === 'PERSON' ? ` ${T.perPerson}` : ''}`),
        hint(id, x.description),
        error(id, x.name),
      ),
      h(Stepper, {
        id,
        value: chosen,
        min: 0,
        max: Math.min(x.maxQuantity, x.per === 'PERSON' ? party : 99),
        fewer: fill(T.fewer, x.name),
        more: fill(T.more, x.name),
        describedBy: describedBy(id, x.description),
        set: (n: number) => {
          m.form.value = { ...m.form.value, problems: { ...problems, [id]: undefined }, extras: fitted(m, exp, party, [x.id, n]) };
        },
      }),
    );
  };

  const question = (q: Question): ComponentChildren => {
    const id = `q-${q.id}`;
    const value = answers[q.id];
    const text = value === undefined || typeof value === 'boolean' ? '' : String(value);
    const set = (v: AnswerValue | undefined) => setAnswer(m, q, v);
    const common = {
      id,
      name: id,
      required: q.required,
      'aria-required': q.required,
      'aria-invalid': !!problems[id],
      'aria-describedby': describedBy(id, q.help),
    };
    const label = h('label', { for: id }, q.label, q.required && ` ${T.required}`);
    const input = (type: string, maxLength?: number, autoComplete?: string) =>
      h('input', { ...common, type, maxLength, autoComplete, value: text, onInput: (e: Event) => set((e.currentTarget as HTMLInputElement).value) });
    let control: ComponentChildren;
    switch (q.type) {
      case 'CHECKBOX':
        control = h('input', { ...common, type: 'checkbox', checked: value === true, onChange: (e: Event) => set((e.currentTarget as HTMLInputElement).checked) });
        return h('div', { class: 'field check', key: id }, control, ' ', label, hint(id, q.help), error(id, q.label));
      case 'LONG_TEXT':
        control = h('textarea', { ...common, maxLength: 2000, rows: 3, value: text, onInput: (e: Event) => set((e.currentTarget as HTMLTextAreaElement).value) });
        break;
      case 'SELECT':
        control = h(
          'select',
          { ...common, value: text, onChange: (e: Event) => set((e.currentTarget as HTMLSelectElement).value) },
          h('option', { value: '' }, T.choose),
          ...q.options.map((o) => h('option', { value: o, key: o }, o)),
        );
        break;
      case 'NUMBER':
        // Not held by the render while typed: "1." is on its way to 1.5, not a number to put back.
        control = h('input', {
          ...common,
          type: 'number',
          step: 'any',
          defaultValue: text,
          onInput: (e: Event) => {
            const n = (e.currentTarget as HTMLInputElement).valueAsNumber;
            set(Number.isFinite(n) ? n : undefined);
          },
        });
        break;
      case 'DATE':
        control = input('date');
        break;
      case 'PHONE':
        control = input('tel', 40, 'tel');
        break;
      default:
        control = input('text', 500);
    }
    return h('div', { class: 'field', key: id }, label, hint(id, q.help), control, error(id, q.label));
  };

  return h(
    'form',
    {
      noValidate: true,
      // The step's styles, adopted by widget.js's helper.
      ref: (el: Element | null) => w.css(el, CSS),
      onSubmit: (e: Event) => {
        e.preventDefault();
        next(m);
      },
    },
    h(Party, { w }),
    // A full time's waitlist (widget/waitlist/chunk.ts) takes the party and the answers, not extras.
    exp.extras.length > 0 && m.slot.value?.available && h('fieldset', null, h('legend', null, T.extras), ...exp.extras.map(extra)),
    exp.questions.length > 0 && h('fieldset', null, h('legend', null, T.questions), ...exp.questions.map(question)),
    w.total(w.t.total, money(m.totalCents.value), true),
    h('button', { type: 'submit', class: 'primary' }, T.continue),
  );
}

/** The step's heading. */
export const title = (t: Messages): string => formTexts(t).title;

export const bookingForm = { step, title };
export type BookingFormChunk = typeof bookingForm;
