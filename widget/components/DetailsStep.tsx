/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { Fragment, h } from 'preact';
import type { ContactField } from '../state/validate.js';
import { chunk } from '../chunks.js';
import type { FormsChunk } from '../forms.js';
import { fill } from '../i18n/format.js';
import { moneyLines, totalLine } from './money-lines.js';
import { Summary } from './Summary.js';
import { Tickets } from './Tickets.js';
import type { Props } from './widget.js';

interface FieldProps extends Props {
  field: ContactField;
  label: string;
  type: string;
  autoComplete: string;
  required?: boolean;
  /** As the server accepts (shared/schemas/booking.ts): no message for an over-long value is needed. */
  maxLength: number;
}

/** A labelled input whose error is tied to it with aria-describedby and aria-invalid. */
function Field({ w: { model, t }, field, label, type, autoComplete, required, maxLength }: FieldProps) {
  const problem = model.fieldProblems.value[field];
  return (
    <div class="field">
      <label for={field}>{label}</label>
      <input
        id={field}
        name={field}
        type={type}
        autoComplete={autoComplete}
        required={required}
        maxLength={maxLength}
        value={model.contact.value[field]}
        aria-invalid={!!problem}
        aria-describedby={problem && `${field}-error`}
        onInput={(e) => model.setContact(field, e.currentTarget.value)}
      />
      {problem && (
        <p id={`${field}-error`} class="field-error">
          {t[problem]}
        </p>
      )}
    </div>
  );
}

/** The guest's name, e-mail and phone, and the honeypot; also lent to the waitlist's chunk (widget/waitlist/chunk.ts). */
export function Guest({ w }: Props) {
  const { model, t } = w;
  return (
    <>
      <Field w={w} field="name" label={t.name} type="text" autoComplete="name" required maxLength={200} />
      <Field w={w} field="email" label={t.email} type="email" autoComplete="email" required maxLength={254} />
      <Field w={w} field="phone" label={t.phone} type="tel" autoComplete="tel" maxLength={40} />
      {/* The honeypot: off-screen by class, hidden from assistive technology, out of the tab order. */}
      <div class="hp" aria-hidden="true">
        <label for="website">{t.honeypot}</label>
        <input
          id="website"
          name="website"
          tabIndex={-1}
          autoComplete="off"
          value={model.contact.value.website}
          onInput={(e) => model.setContact('website', e.currentTarget.value)}
        />
      </div>
    </>
  );
}

/**
 * Party size (or tickets, unless the booking form's step asked them), the guest's name and e-mail
 * (and phone), then what it costs: a line per category and extra, and the total, which follow the party as the guest types and are what "Book" sends as
 * the expected total. A price changed meanwhile is said beside them, with the new total.
 */
export function DetailsStep({ w }: Props) {
  const { model, t, fmt } = w;
  const slot = model.slot.value;
  const experience = model.experience.value;
  if (!slot || !experience) return null;
  const busy = model.busy.value;
  const changed = model.priceChanged.value;
  const money = (cents: number) => fmt.money(cents / 100, experience.currency);
  // With a booking form or a code, their lines (extras, discount included); else a line per ticket category.
  const lines = model.session.form?.lines().lines ?? model.tickets.value;

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void model.submit();
      }}
    >
      <Summary w={w} experience={experience.name} startTime={slot.startTime} />
      {/* The booking form's step asks the party when there is one (widget/form/chunk.ts). */}
      {!model.hasForm.value && <Tickets w={w} />}
      <Guest w={w} />
      {/* A discount is named alone: "Discount (SUMMER10)". */}
      {lines.length > 0 && moneyLines(lines.map((l) => l.quantity > 0 && [l.amount < 0 ? l.name : `${l.quantity} × ${l.name}`, money(l.amount)]))}
      {totalLine(t.total, money(model.totalCents.value), true)}
      {/* The code box once "Have a code?" is pressed and its chunk is here (widget/codes/chunk.ts): it
          takes over the lines and the total above, adding the discount. */}
      {(model.form.value.code && chunk<FormsChunk>(w, 'forms')?.codes(h, w)) || (
        <button type="button" class="link" onClick={() => (model.form.value = { ...model.form.value, code: {} })}>
          {t.haveCode}
        </button>
      )}
      {/* Focused when it appears: the guest hears the new total, then "Book" is the next stop. */}
      {changed && (
        <p id="changed" class="error" tabIndex={-1}>
          {fill(t.priceChanged, fmt.money(+changed, experience.currency))}
        </p>
      )}
      {/* aria-disabled, not disabled, while sending: a disabled button would drop keyboard focus. */}
      <button type="submit" class="primary" aria-disabled={busy}>
        {busy ? t.booking : t.book}
      </button>
    </form>
  );
}
