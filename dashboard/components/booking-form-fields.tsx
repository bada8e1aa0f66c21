/**
 * An experience's questions as fields of their types and its active extras as quantities: the New
 * booking form and the booking page's "Change extras and answers" dialog both ask them. The fields
 * are uncontrolled (read on submit with `formOf`); the extras report their quantities as typed so
 * the form's total can follow.
 */
import type { JSX } from 'preact';
import type { Answer, AnswerInput, BookingExtra, BookingExtraInput, Extra, Question } from '../../shared/index.js';
import { money } from '../format.js';
import { fromCents } from '../state/bookings.js';
import { answerId, extraQtyId } from '../state/booking-form.js';

const describedBy = (id: string, hint: boolean, error: string | undefined): string | undefined =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

function Hint({ id, text }: { id: string; text: string | null }): JSX.Element | null {
  return text ? (
    <p class="hint" id={`${id}-hint`}>
      {text}
    </p>
  ) : null;
}

function Error({ id, error }: { id: string; error: string | undefined }): JSX.Element | null {
  return error ? (
    <p class="field-error" id={`${id}-error`}>
      {error}
    </p>
  ) : null;
}

/** An answer's value as people read it: a checkbox as Yes or No. */
export const answerText = (a: Pick<Answer, 'value'>): string => (typeof a.value === 'boolean' ? (a.value ? 'Yes' : 'No') : String(a.value));

/** One question as a labelled field of its type; required ones say so in the label and carry `aria-required`. */
function QuestionField({ q, value, error }: { q: Question; value: Answer['value'] | undefined; error: string | undefined }): JSX.Element {
  const id = answerId(q.id);
  const label = `${q.label}${q.required ? ' (required)' : ''}`;
  const common = {
    id,
    name: id,
    required: q.required,
    'aria-required': q.required ? ('true' as const) : undefined,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': describedBy(id, Boolean(q.help), error),
  };
  const text = value === undefined || typeof value === 'boolean' ? '' : String(value);
  if (q.type === 'CHECKBOX') {
    return (
      <div class={`field check${error ? ' invalid' : ''}`}>
        <input {...common} type="checkbox" defaultChecked={value === true} />
        <label for={id}>{label}</label>
        <Hint id={id} text={q.help} />
        <Error id={id} error={error} />
      </div>
    );
  }
  let control: JSX.Element;
  if (q.type === 'LONG_TEXT') control = <textarea {...common} rows={3} defaultValue={text} />;
  else if (q.type === 'SELECT') {
    control = (
      <select {...common}>
        <option value="">Choose…</option>
        {q.options.map((o) => (
          <option key={o} value={o} selected={o === text || undefined}>
            {o}
          </option>
        ))}
      </select>
    );
  } else {
    const type = q.type === 'NUMBER' ? 'number' : q.type === 'DATE' ? 'date' : q.type === 'PHONE' ? 'tel' : 'text';
    control = <input {...common} type={type} step={q.type === 'NUMBER' ? 'any' : undefined} autoComplete="off" defaultValue={text} />;
  }
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      <Hint id={id} text={q.help} />
      {control}
      <Error id={id} error={error} />
    </div>
  );
}

/** The experience's questions, in its order; `answers` gives the values to start from. */
export function AnswerFields({ questions, answers, fields }: { questions: readonly Question[]; answers?: readonly Answer[]; fields: Record<string, string> }): JSX.Element | null {
  if (!questions.length) return null;
  return (
    <fieldset class="bk-form-part" id="answers" tabIndex={-1}>
      <legend>Questions</legend>
      {questions.map((q) => (
        <QuestionField key={q.id} q={q} value={answers?.find((a) => a.questionId === q.id)?.value} error={fields[answerId(q.id)]} />
      ))}
      <Error id="answers" error={fields['answers']} />
    </fieldset>
  );
}

/** The most of an extra one booking may take: its maximum, and the party for a per-person one. */
export const extraLimit = (x: Pick<Extra, 'per' | 'maxQuantity'>, party: number): number => (x.per === 'PERSON' ? Math.min(x.maxQuantity, party) : x.maxQuantity);

export interface FormReader {
  value(name: string): string;
  checked(name: string): boolean;
}

/** The answers as the API takes them, checked as the server will: a required question answered, a value of its type. */
export function readAnswers(form: FormReader, questions: readonly Question[], fields: Record<string, string>): AnswerInput[] {
  const answers: AnswerInput[] = [];
  for (const q of questions) {
    const id = answerId(q.id);
    if (q.type === 'CHECKBOX') {
      const ticked = form.checked(id);
      if (q.required && !ticked) fields[id] = `Tick “${q.label}” to book.`;
      else answers.push({ questionId: q.id, value: ticked });
      continue;
    }
    const text = form.value(id).trim();
    if (!text) {
      if (q.required) fields[id] = `Answer “${q.label}”.`;
      continue;
    }
    if (q.type === 'NUMBER') {
      const n = Number(text);
      if (!Number.isFinite(n)) fields[id] = `Enter a number for “${q.label}”.`;
      else answers.push({ questionId: q.id, value: n });
    } else answers.push({ questionId: q.id, value: text });
  }
  return answers;
}

/** The extras taken (quantity above 0) as the API takes them, each within its limit. */
export function readExtras(form: FormReader, extras: readonly Extra[], party: number, fields: Record<string, string>): BookingExtraInput[] {
  const taken: BookingExtraInput[] = [];
  for (const x of extras) {
    const id = extraQtyId(x.id);
    const text = form.value(id).trim() || '0';
    const quantity = Number(text);
    const limit = extraLimit(x, party);
    if (!/^\d{1,2}$/.test(text)) fields[id] = `Enter a whole number from 0 to ${limit}.`;
    else if (quantity > limit) fields[id] = x.per === 'PERSON' && limit < x.maxQuantity ? `At most one each: ${limit} for this party.` : `At most ${limit}.`;
    else if (quantity > 0) taken.push({ extraId: x.id, quantity });
  }
  return taken;
}

/** The experience's active extras as quantities (0 by default); `onInput` hears each change. */
export function ExtraFields(p: {
  extras: readonly Extra[];
  quantities: Record<string, number>;
  party: number;
  currency: string;
  fields: Record<string, string>;
  onInput?: (extraId: string, quantity: number) => void;
}): JSX.Element | null {
  if (!p.extras.length) return null;
  const error = p.fields['extras'];
  return (
    <fieldset class={`bk-form-part${error ? ' invalid' : ''}`} id="extras" tabIndex={-1} aria-describedby={error ? 'extras-error' : undefined}>
      <legend>Extras</legend>
      {p.extras.map((x) => {
        const id = extraQtyId(x.id);
        const fieldError = p.fields[id];
        const hint = [x.per === 'PERSON' ? `Per person, up to one each` : `Up to ${x.maxQuantity}`, x.description].filter(Boolean).join('. ');
        return (
          <div key={x.id} class={`field${fieldError ? ' invalid' : ''}`}>
            <label for={id}>
              {x.name}, {money(fromCents(x.price), p.currency)}
              {x.per === 'PERSON' ? ' per person' : ''}
            </label>
            <Hint id={id} text={hint} />
            <input
              id={id}
              name={id}
              type="number"
              min={0}
              max={extraLimit(x, p.party)}
              step={1}
              inputMode="numeric"
              defaultValue={String(p.quantities[x.id] ?? 0)}
              aria-invalid={fieldError ? 'true' : undefined}
              aria-describedby={describedBy(id, true, fieldError)}
              onInput={p.onInput ? (e) => p.onInput!(x.id, Number((e.currentTarget as HTMLInputElement).value) || 0) : undefined}
            />
            <Error id={id} error={fieldError} />
          </div>
        );
      })}
      <Error id="extras" error={error} />
    </fieldset>
  );
}

/** A booking's extras as lines: "2 × Lunch" and the line's amount. */
export function ExtraLines({ extras, currency }: { extras: readonly BookingExtra[]; currency: string }): JSX.Element {
  return (
    <ul class="bk-tickets">
      {extras.map((x) => (
        <li key={x.extraId}>
          {x.quantity} × {x.name}, {money(fromCents(x.quantity * x.unitPrice), currency)}
          {x.quantity > 1 ? <span class="quiet"> ({money(fromCents(x.unitPrice), currency)} each)</span> : null}
        </li>
      ))}
    </ul>
  );
}
