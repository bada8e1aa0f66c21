import { z } from 'zod';
import { DisplayName, MAX_AMOUNT_CENTS, NonBlank } from './common.js';

/** The kinds of field a question is answered with. */
export const QUESTION_TYPES = ['TEXT', 'LONG_TEXT', 'SELECT', 'CHECKBOX', 'NUMBER', 'DATE', 'PHONE'] as const;
export const QuestionType = z.enum(QUESTION_TYPES);
export type QuestionType = z.infer<typeof QuestionType>;

/** How an extra is counted: once for the booking, or up to once per participant. */
export const EXTRA_PER = ['BOOKING', 'PERSON'] as const;
export const ExtraPer = z.enum(EXTRA_PER);
export type ExtraPer = z.infer<typeof ExtraPer>;

const EntryId = z.string().min(1).max(100);

/** A question as sent: without `id` it is new; with one, it is that question of this experience, kept. */
export const QuestionInput = z
  .strictObject({
    id: EntryId.optional().describe('Keeps an existing question (its answers refer to it); absent: a new one'),
    label: NonBlank(200).describe('1–200 characters: what the guest is asked'),
    type: QuestionType,
    options: z.array(NonBlank(100)).max(50).optional().describe('SELECT: 1–50 distinct choices of 1–100 characters (required); every other type: absent or []'),
    required: z.boolean().optional().describe('Default false. A required CHECKBOX must be ticked (a waiver)'),
    help: z.string().max(300).nullable().optional().describe('Shown under the field (≤ 300); default null'),
  })
  .superRefine((q, ctx) => {
    const options = q.options ?? [];
    if (q.type === 'SELECT') {
      if (options.length === 0) ctx.addIssue({ code: 'custom', path: ['options'], message: 'A SELECT question needs 1–50 options' });
      const seen = new Set<string>();
      options.forEach((o, i) => {
        if (seen.has(o)) ctx.addIssue({ code: 'custom', path: ['options', i], message: 'This option is listed twice' });
        seen.add(o);
      });
    } else if (options.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'Only a SELECT question takes options' });
    }
  });
export type QuestionInput = z.infer<typeof QuestionInput>;

/** Every entry of a list named once: a repeated id is refused where it repeats. */
function idsOnce(what: string) {
  return (list: readonly { id?: string | undefined }[], ctx: z.RefinementCtx) => {
    const ids = new Set<string>();
    list.forEach((entry, i) => {
      if (entry.id === undefined) return;
      if (ids.has(entry.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `This ${what} is listed twice` });
      ids.add(entry.id);
    });
  };
}

/** An experience's whole list of questions, as create and PATCH take it. */
export const QuestionsInput = z.array(QuestionInput).max(20).superRefine(idsOnce('question')).describe('Replaces the whole list (up to 20); [] asks nothing');

export const Question = z.object({
  id: z.string().describe('q_…: answers name the question by it; kept while the question stays on the list'),
  label: z.string().describe('What the guest is asked'),
  type: QuestionType.describe('The kind of field, and so of value, the question takes'),
  options: z.array(z.string()).describe('[] for every type but SELECT'),
  required: z.boolean().describe('A booking must answer it (a CHECKBOX: true)'),
  help: z.string().nullable().describe('Shown under the field; null when none'),
});
export type Question = z.infer<typeof Question>;

/** An extra as sent: without `id` it is new; with one, it is that extra of this experience, kept. */
export const ExtraInput = z.strictObject({
  id: EntryId.optional().describe('Keeps an existing extra (bookings refer to it); absent: a new one'),
  name: DisplayName(80),
  description: z.string().max(300).nullable().optional().describe('≤ 300 characters; default null'),
  price: z.int().min(0).max(MAX_AMOUNT_CENTS).describe('Integer cents per unit'),
  per: ExtraPer.optional().describe('Default BOOKING. PERSON: at most one per participant'),
  maxQuantity: z.int().min(1).max(99).optional().describe('Default 10'),
  active: z.boolean().optional().describe('Default true. An inactive extra is kept but neither offered nor bookable'),
});
export type ExtraInput = z.infer<typeof ExtraInput>;

/** An experience's whole list of extras: names unique (ignoring case and outer spaces). */
export const ExtrasInput = z
  .array(ExtraInput)
  .max(20)
  .superRefine((list, ctx) => {
    idsOnce('extra')(list, ctx);
    const names = new Set<string>();
    list.forEach((e, i) => {
      const name = e.name.trim().toLowerCase();
      if (names.has(name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: 'Another extra has this name' });
      names.add(name);
    });
  })
  .describe('Replaces the whole list (up to 20); [] sells nothing beside the tickets');

export const Extra = z.object({
  id: z.string().describe('ex_…: bookings name the extra by it'),
  name: z.string().describe('Unique within the experience'),
  description: z.string().nullable(),
  price: z.int().describe('Integer cents per unit'),
  per: ExtraPer.describe('BOOKING: any quantity up to maxQuantity; PERSON: also at most the booking’s totalParticipants'),
  maxQuantity: z.int().describe('The most one booking may take'),
  active: z.boolean().describe('false: kept, but neither offered nor bookable (not shown on /public/v1)'),
});
export type Extra = z.infer<typeof Extra>;

/** An answer's value: its type is checked against the question's once the experience is known. */
export const AnswerValue = z
  .union([z.string().max(2000), z.boolean(), z.number()])
  .describe('TEXT (≤ 500), LONG_TEXT (≤ 2000), SELECT (one of its options), DATE (YYYY-MM-DD), PHONE (≤ 40): a string, not blank; CHECKBOX: a boolean; NUMBER: a number');
export type AnswerValue = z.infer<typeof AnswerValue>;

export const AnswerInput = z.strictObject({ questionId: EntryId, value: AnswerValue });
export type AnswerInput = z.infer<typeof AnswerInput>;
export const AnswersInput = z
  .array(AnswerInput)
  .max(20)
  .describe(
    'One answer per question of the experience, each at most once; every required question answered (a required CHECKBOX true). Default []. ' +
      'Checked once the experience is found, before any 409: a 400 lists every fault, at answers.{questionId} for a value or an unanswered required question, at answers[i].questionId for an unknown or repeated question',
  );

export const BookingExtraInput = z.strictObject({
  extraId: EntryId,
  quantity: z.int().min(1).max(99).describe("At most the extra's maxQuantity; for a PERSON extra, at most the booking's totalParticipants"),
});
export type BookingExtraInput = z.infer<typeof BookingExtraInput>;
export const BookingExtrasInput = z
  .array(BookingExtraInput)
  .max(20)
  .describe(
    'Active extras of the experience, each at most once. Default []. A 400 names extras[i].extraId (unknown, inactive or repeated) or extras[i].quantity (above maxQuantity, or a PERSON extra above the party). The extras add to the total',
  );

/** An answer as the booking keeps it: the question's label and type as at booking time. */
export const Answer = z.object({
  questionId: z.string(),
  label: z.string().describe('The question’s label when answered'),
  type: QuestionType,
  value: z.union([z.string(), z.boolean(), z.number()]).describe('A string (TEXT, LONG_TEXT, PHONE trimmed; SELECT, DATE as sent), a boolean (CHECKBOX) or a number (NUMBER)'),
});
export type Answer = z.infer<typeof Answer>;

/** An extra as the booking keeps it: name, `per` and unit price as at booking time. */
export const BookingExtra = z.object({
  extraId: z.string(),
  name: z.string().describe('The extra’s name when booked'),
  per: ExtraPer.describe('As when booked'),
  quantity: z.int(),
  unitPrice: z.int().describe('Cents per unit, as when booked'),
});
export type BookingExtra = z.infer<typeof BookingExtra>;
