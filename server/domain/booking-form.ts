/**
 * The booking form: the questions an experience asks its guests and the extras it sells beside the
 * ticket, and what a booking keeps of them (answers and extras as at booking time).
 */
import { Refusal } from './refusal.js';
import { keepEntries } from './kept-entries.js';
import { ticketsOf } from './tickets.js';
import {
  bookingLines,
  isCalendarDate,
  type Answer,
  type AnswerInput,
  type AnswerValue,
  type BookingExtra,
  type BookingExtraInput,
  type BookingLines,
  type DiscountRule,
  type ErrorDetail,
  type Extra,
  type ExtraInput,
  type Question,
  type QuestionInput,
} from '../../shared/index.js';

/** An experience's questions from their stored JSON. */
export const questionsOf = (json: string | undefined): Question[] => (json === undefined ? [] : (JSON.parse(json) as Question[]));
/** An experience's extras from their stored JSON, inactive ones included. */
export const extrasOf = (json: string | undefined): Extra[] => (json === undefined ? [] : (JSON.parse(json) as Extra[]));
/** A booking's answers as stored; null (none, or a booking older than the form) is `[]`. */
export const answersOf = (json: string | null): Answer[] => (json === null ? [] : (JSON.parse(json) as Answer[]));
/** A booking's extras as stored; null is `[]`. */
export const bookingExtrasOf = (json: string | null): BookingExtra[] => (json === null ? [] : (JSON.parse(json) as BookingExtra[]));

/** A text shown under a field or an extra: blank (or absent) is null, so nobody sees an empty line. */
const noteOf = (text: string | null | undefined): string | null => (text == null || text.trim() === '' ? null : text.trim());

/**
 * An experience's questions to store from the list sent: a new entry gets an id and the defaults; an
 * entry with an id must name a question of this experience and keeps it (bookings' answers refer to
 * it); any other id is refused at `questions[i].id`.
 */
export function resolveQuestions(sent: readonly QuestionInput[], current: readonly Question[], newId: () => string): Question[] {
  return keepEntries(sent, current, newId, { list: 'questions', noun: 'a question' }, (q, id) => ({
    id,
    label: q.label.trim(),
    type: q.type,
    options: q.type === 'SELECT' ? [...(q.options ?? [])] : [],
    required: q.required ?? false,
    help: noteOf(q.help),
  }));
}

/** An experience's extras to store from the list sent, ids kept as `resolveQuestions` keeps them. */
export function resolveExtras(sent: readonly ExtraInput[], current: readonly Extra[], newId: () => string): Extra[] {
  return keepEntries(sent, current, newId, { list: 'extras', noun: 'an extra' }, (e, id) => ({
    id,
    name: e.name.trim(),
    description: noteOf(e.description),
    price: e.price,
    per: e.per ?? 'BOOKING',
    maxQuantity: e.maxQuantity ?? 10,
    active: e.active ?? true,
  }));
}

/** One field at fault; several of them make one refusal, so a form can show every one at once. */
type Issue = ErrorDetail;

const refusalOf = (issues: readonly Issue[]): Refusal =>
  new Refusal(
    'VALIDATION_ERROR',
    issues.length === 1 ? `Invalid ${issues[0]!.path}: ${issues[0]!.message}` : `Invalid ${issues.map((i) => i.path).join(', ')}`,
    [...issues],
  );

const PHONE_RE = /^[0-9 +\-()]{1,40}$/;
const DIGIT_RE = /[0-9]/;

/**
 * What is wrong with an answer's value for its question, or null; and the value as the booking keeps
 * it (text trimmed of outer spaces; a choice, a date, a box and a number as sent).
 */
function valueOf(q: Question, value: AnswerValue): { value: AnswerValue } | { problem: string } {
  if (q.type === 'CHECKBOX') return typeof value === 'boolean' ? { value } : { problem: 'Expected true or false' };
  if (q.type === 'NUMBER') return typeof value === 'number' && Number.isFinite(value) ? { value } : { problem: 'Expected a number' };
  if (typeof value !== 'string') return { problem: 'Expected text' };
  const text = value.trim();
  if (text === '') return { problem: 'Must not be empty' };
  switch (q.type) {
    case 'TEXT':
      return text.length <= 500 ? { value: text } : { problem: 'At most 500 characters' };
    case 'LONG_TEXT':
      return text.length <= 2000 ? { value: text } : { problem: 'At most 2000 characters' };
    case 'SELECT':
      return q.options.includes(value) ? { value } : { problem: `Expected one of: ${q.options.join(', ')}` };
    case 'DATE':
      return isCalendarDate(value) ? { value } : { problem: 'Expected a date as YYYY-MM-DD' };
    case 'PHONE':
      return PHONE_RE.test(text) && DIGIT_RE.test(text)
        ? { value: text }
        : { problem: 'At most 40 digits, spaces, +, -, ( and ), with at least one digit' };
  }
}

/** The answers a booking keeps, in the experience's question order, and what is wrong with those sent. */
function answersAndIssues(questions: readonly Question[], sent: readonly AnswerInput[], issues: Issue[]): Answer[] {
  if (questions.length === 0 && sent.length === 0) return [];
  const byId = new Map(questions.map((q) => [q.id, q]));
  const given = new Map<string, Answer>();
  const faulty = new Set<string>();
  sent.forEach((a, i) => {
    const q = byId.get(a.questionId);
    if (!q) return void issues.push({ path: `answers[${i}].questionId`, message: 'Not a question of this experience' });
    if (given.has(q.id) || faulty.has(q.id)) return void issues.push({ path: `answers[${i}].questionId`, message: 'This question is answered twice' });
    const checked = valueOf(q, a.value);
    if ('problem' in checked) {
      faulty.add(q.id);
      return void issues.push({ path: `answers.${q.id}`, message: checked.problem });
    }
    given.set(q.id, { questionId: q.id, label: q.label, type: q.type, value: checked.value });
  });
  const answers: Answer[] = [];
  for (const q of questions) {
    const answer = given.get(q.id);
    if (answer) answers.push(answer);
    if (!q.required || faulty.has(q.id)) continue;
    if (!answer) issues.push({ path: `answers.${q.id}`, message: `Required: ${q.label}` });
    else if (answer.value === false) issues.push({ path: `answers.${q.id}`, message: `Must be ticked: ${q.label}` });
  }
  return answers;
}

/**
 * Checks a booking's answers against the experience's current questions: each a question of it,
 * once, with a value of its type; every required question answered (a required CHECKBOX true).
 * Returns the answers to keep, in the questions' order, with their labels as they are now.
 * Every fault is one detail of one refusal: a form shows them all at once.
 */
export function checkAnswers(questions: readonly Question[], sent: readonly AnswerInput[]): Answer[] {
  const issues: Issue[] = [];
  const answers = answersAndIssues(questions, sent, issues);
  if (issues.length) throw refusalOf(issues);
  return answers;
}

/** The extras a booking keeps, in the experience's order, and what is wrong with those asked for. */
function extrasAndIssues(
  offered: readonly Extra[],
  requested: readonly BookingExtraInput[],
  participants: number,
  own: readonly BookingExtra[],
  issues: Issue[],
): BookingExtra[] {
  if (requested.length === 0) return [];
  const byId = new Map(offered.map((e) => [e.id, e]));
  const ownById = new Map(own.map((e) => [e.extraId, e]));
  const seen = new Set<string>();
  const kept: BookingExtra[] = [];
  requested.forEach((r, i) => {
    const extra = byId.get(r.extraId);
    const had = ownById.get(r.extraId);
    const onOffer = extra !== undefined && extra.active;
    if (seen.has(r.extraId)) return void issues.push({ path: `extras[${i}].extraId`, message: 'This extra is listed twice' });
    seen.add(r.extraId);
    // An extra the booking has stays at its own name and price; one no longer offered may stay, but not grow.
    if (!onOffer && !had) return void issues.push({ path: `extras[${i}].extraId`, message: 'Not an extra this experience offers' });
    const max = onOffer ? extra.maxQuantity : had!.quantity;
    const per = had?.per ?? extra!.per;
    if (r.quantity > max) {
      issues.push({ path: `extras[${i}].quantity`, message: onOffer ? `At most ${max}` : `No longer offered: at most the ${max} booked` });
    } else if (per === 'PERSON' && r.quantity > participants) {
      issues.push({ path: `extras[${i}].quantity`, message: `At most one per participant (${participants})` });
    } else {
      kept.push(had ? { ...had, quantity: r.quantity } : { extraId: extra!.id, name: extra!.name, per, quantity: r.quantity, unitPrice: extra!.price });
    }
  });
  return inOrderOf(offered, kept);
}

/** Booked extras in the order the experience lists them; any it no longer lists after, as they were. */
function inOrderOf(offered: readonly Extra[], extras: BookingExtra[]): BookingExtra[] {
  if (extras.length < 2) return extras;
  const rank = new Map(offered.map((e, i) => [e.id, i]));
  return extras
    .map((e, i) => ({ e, at: rank.get(e.extraId) ?? offered.length + i }))
    .sort((a, b) => a.at - b.at)
    .map(({ e }) => e);
}

/**
 * Prices the extras a booking asks for. Each must be an active extra of the experience, once, at
 * most its `maxQuantity`, and for a `PERSON` extra at most `participants`. Extras the booking already
 * has (`own`, on a change) keep the name, `per` and unit price they were booked at; new ones take
 * today's. Returns them in the experience's order.
 */
export function priceExtras(
  offered: readonly Extra[],
  requested: readonly BookingExtraInput[],
  participants: number,
  own: readonly BookingExtra[] = [],
): BookingExtra[] {
  const issues: Issue[] = [];
  const extras = extrasAndIssues(offered, requested, participants, own, issues);
  if (issues.length) throw refusalOf(issues);
  return extras;
}

/** A booking's answers and extras, checked together: one refusal lists the faults of both. */
export function checkBookingForm(
  exp: { questions?: string; extras?: string },
  sent: { answers?: readonly AnswerInput[] | undefined; extras?: readonly BookingExtraInput[] | undefined },
  participants: number,
  own: readonly BookingExtra[] = [],
): { answers: Answer[]; extras: BookingExtra[] } {
  const noQuestions = exp.questions === undefined || exp.questions === '[]';
  // The common case (an experience that asks nothing, a booking that adds nothing) parses nothing.
  if (noQuestions && !sent.answers?.length && !sent.extras?.length) return { answers: [], extras: [] };
  const issues: Issue[] = [];
  const answers = answersAndIssues(noQuestions ? [] : questionsOf(exp.questions), sent.answers ?? [], issues);
  const extras = sent.extras?.length ? extrasAndIssues(extrasOf(exp.extras), sent.extras, participants, own, issues) : [];
  if (issues.length) throw refusalOf(issues);
  return { answers, extras };
}

/** A list as a booking stores it: none is null (read back as []). */
export const formJson = (list: readonly unknown[]): string | null => (list.length === 0 ? null : JSON.stringify(list));

/**
 * A change of a booking's answers and extras, each checked only when sent (the whole new list):
 * answers against the current questions, required ones included; extras as `priceExtras` prices
 * them, the booking's own keeping their price. Faults of both in one refusal.
 */
export function checkFormChange(
  exp: { questions?: string; extras?: string },
  sent: { answers?: readonly AnswerInput[] | undefined; extras?: readonly BookingExtraInput[] | undefined },
  participants: number,
  own: readonly BookingExtra[],
): { answers?: Answer[]; extras?: BookingExtra[] } {
  const issues: Issue[] = [];
  const answers = sent.answers === undefined ? undefined : answersAndIssues(questionsOf(exp.questions), sent.answers, issues);
  const extras = sent.extras === undefined ? undefined : extrasAndIssues(extrasOf(exp.extras), sent.extras, participants, own, issues);
  if (issues.length) throw refusalOf(issues);
  return { ...(answers ? { answers } : {}), ...(extras ? { extras } : {}) };
}

/** The booking's `PERSON` extras above `participants`: what a smaller party leaves too many of. */
export const personExtrasAbove = (extras: readonly BookingExtra[], participants: number): BookingExtra[] =>
  extras.filter((e) => e.per === 'PERSON' && e.quantity > participants);

/** The extras with every `PERSON` one lowered to at most `participants` (a guest's smaller party). */
export const lowerPersonExtras = (extras: readonly BookingExtra[], participants: number): BookingExtra[] =>
  extras.map((e) => (e.per === 'PERSON' && e.quantity > participants ? { ...e, quantity: participants } : e));

/** `2 × Lunch, 1 × Photos`: a booking's extras in a line of text (manifest CSV, iCal, e-mails). */
export const extrasLine = (extras: readonly Pick<BookingExtra, 'quantity' | 'name'>[], between = ', '): string =>
  extras.map((e) => `${e.quantity} × ${e.name}`).join(between);

/** An answer's value as text: a checkbox as the given words for yes and no, a number as written. */
export const answerValueText = (a: Pick<Answer, 'value'>, yes = 'yes', no = 'no'): string =>
  typeof a.value === 'boolean' ? (a.value ? yes : no) : String(a.value);

/** `label: value; label: value`: a booking's answers in a line of text (manifest CSV). */
export const answersLine = (answers: readonly Answer[], between = '; ', yes = 'yes', no = 'no'): string =>
  answers.map((a) => `${a.label}: ${answerValueText(a, yes, no)}`).join(between);

/** The fields of a stored booking its money lines are made from. */
export interface StoredMoney {
  tickets: string | null;
  participants: number;
  unitPrice: number | null;
  extras: string | null;
  discountCode?: string | null;
  discountType?: 'PERCENT' | 'AMOUNT' | null;
  discountValue?: number | null;
  voucherMask?: string | null;
  voucherCents?: number | null;
}

/** The booking's own copy of its promo code's rule (kept whatever becomes of the code); null without one. */
export const discountRuleOf = (b: Pick<StoredMoney, 'discountCode' | 'discountType' | 'discountValue'>): DiscountRule | null =>
  b.discountCode && b.discountType && b.discountValue ? { code: b.discountCode, type: b.discountType, value: b.discountValue } : null;

/**
 * The money lines of a booking as stored (tickets and extras as JSON, null as none): `bookingLines()`
 * over the record's own fields, its own copy of its promo code's rule and what its voucher paid, for
 * every reader that shows or charges a booking's amounts.
 */
export const storedBookingLines = (b: StoredMoney): BookingLines =>
  bookingLines({
    tickets: ticketsOf(b.tickets),
    participants: b.participants,
    unitPrice: b.unitPrice,
    extras: bookingExtrasOf(b.extras),
    discount: discountRuleOf(b),
    voucher: b.voucherMask && b.voucherCents ? { mask: b.voucherMask, balance: b.voucherCents } : null,
  });

/** A booking's figures in cents, as its record shows them (§19): subtotal, discount, total, voucher and due. */
export interface BookingFigures {
  subtotal: number;
  /** What its promo code took off, with the code; null without one. */
  discount: { code: string; cents: number } | null;
  total: number;
  /** What its voucher paid, with the voucher's mask; null without one. */
  voucher: { mask: string; cents: number } | null;
  /** total − its SUCCEEDED payments, at least 0; 0 once CANCELLED. */
  due: number;
}

/**
 * A stored booking's figures. The total is the stored one (kept from the lines by every writer); a
 * booking without a code is its own subtotal, so its JSON is read only when it took a code.
 */
export function bookingFigures(
  b: StoredMoney & { status: string; totalCents: number | null; unitPrice: number; amountPaid: number },
): BookingFigures {
  const total = b.totalCents ?? b.unitPrice * b.participants;
  const lines = b.discountCode ? storedBookingLines(b) : null;
  return {
    subtotal: lines ? lines.subtotal : total,
    discount: lines && b.discountCode ? { code: b.discountCode, cents: lines.discount } : null,
    total,
    voucher: b.voucherMask && b.voucherCents ? { mask: b.voucherMask, cents: b.voucherCents } : null,
    due: b.status === 'CANCELLED' ? 0 : Math.max(0, total - b.amountPaid),
  };
}
