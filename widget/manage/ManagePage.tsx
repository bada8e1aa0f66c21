/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { Fragment, h } from 'preact';
import type { ComponentChildren } from 'preact';
import type { ManagedBooking } from '../../shared/index.js';
import { Alerts } from '../components/Alerts.js';
import { CalendarStep } from '../components/CalendarStep.js';
import { TimesStep } from '../components/TimesStep.js';
import { guestInfo } from '../confirm/guest-info.js';
import { guestInfoTexts } from '../confirm/texts.js';
import type { Widget } from '../components/widget.js';
import { adoptStyles } from '../styles/sheet.js';
import { moneyLines, totalLine } from '../components/money-lines.js';
import type { BookingModel } from '../state/booking.js';
import { dateInZone } from '../state/dates.js';
import { ticketInputId } from './model.js';
import { OfferView, offerTexts } from './OfferView.js';
import { Contact } from './Contact.js';
import type { FieldError, Language, ManageModel } from './model.js';

export interface PageProps {
  model: ManageModel;
}

/** An instant as the guest reads it: the local date and time in the experience's zone, the zone named. */
export function when({ fmt }: Language, instant: string, zone: string): string {
  return `${fmt.longDate(dateInZone(instant, zone))}, ${fmt.time(instant, zone)} · ${fmt.zone(instant, zone)}`;
}

/** The logo's address when it is an https one. */
function logoSrc(url: string | null | undefined): string | undefined {
  return url && /^https:\/\//i.test(url) ? url : undefined;
}

/**
 * The whole page under one heading: the booking, then what the guest may do with it (or why not),
 * then the organization's contact. Cancelling and choosing a time each open a step of their own
 * below the booking, under an h2 that takes focus.
 */
export function ManagePage({ model }: PageProps) {
  const lang = model.language.value;
  const { m } = lang;
  const managed = model.managed.value;
  const broken = model.broken.value;
  const trouble = model.trouble.value;
  const org = managed?.organization;
  const offer = broken ? null : model.offer.value;
  return (
    <div class="outing manage" lang={lang.tag}>
      {org && logoSrc(org.logoUrl) && <img class="logo" src={logoSrc(org.logoUrl)} alt={org.name} />}
      <h1 id="manage-top" tabIndex={-1}>
        {broken ? m.brokenTitle : offer ? offerTexts(lang).titles[offer.entry.status] : m.title}
      </h1>
      {model.busy.value && <p class="loading">{m.loading}</p>}
      {trouble && (
        <div class="error">
          <p role="alert">{m.problems[trouble.problem]}</p>
          {trouble.retry && (
            <button type="button" onClick={trouble.retry}>
              {m.retry}
            </button>
          )}
        </div>
      )}
      {broken && <p>{m.broken}</p>}
      {managed && !broken && <Booking model={model} managed={managed} lang={lang} />}
      {offer && <OfferView model={model} offer={offer} lang={lang} />}
    </div>
  );
}

interface BookingProps extends PageProps {
  managed: ManagedBooking;
  lang: Language;
}

function Booking({ model, managed, lang }: BookingProps) {
  const { m, fmt } = lang;
  const { booking, timezone } = managed;
  const start = booking.timeSlot.startTime;
  const notice = model.notice.value;
  const mode = model.mode.value;
  // An answer as the guest gave it: a checkbox's as yes or no, a date as the page writes dates.
  const answer = ({ type, value }: (typeof booking.answers)[number]): string =>
    typeof value === 'boolean' ? (value ? m.yes : m.no) : type === 'DATE' && typeof value === 'string' ? fmt.longDate(value) : String(value);
  // Money rows whose amount is there, formatted in the booking's currency.
  const money = (list: [string | null | undefined, string | null | undefined][]): [string, string][] =>
    list.flatMap(([term, amount]) => (term && amount ? [[term, fmt.money(Number(amount), booking.currency)] as [string, string]] : []));
  const rows: [string, ComponentChildren][] = [
    [m.bookingNumber, booking.bookingNumber],
    [m.status, m.statuses[booking.status]],
    [m.experience, booking.experience.title],
    [m.date, fmt.longDate(dateInZone(start, timezone))],
    [m.time, `${fmt.time(start, timezone)} · ${fmt.zone(start, timezone)}`],
    booking.tickets.length
      ? [m.tickets, booking.tickets.map((c) => `${c.quantity} × ${c.name}`).join(', ')]
      : [m.participants, String(booking.totalParticipants)],
    ...(booking.extras.length ? [[m.extras, booking.extras.map((e) => `${e.quantity} × ${e.name}`).join(', ')] as [string, string]] : []),
    ...(booking.answers.length
      ? [
          [
            m.answers,
            <ul class="answers">
              {booking.answers.map((a) => (
                <li key={a.questionId}>{`${a.label}: ${answer(a)}`}</li>
              ))}
            </ul>,
          ] as [string, ComponentChildren],
        ]
      : []),
    // With a code: the subtotal, the discount and the total after it; with a voucher, its part and what is left to pay.
    ...money([
      [m.subtotal, booking.discount && booking.subtotal],
      [booking.discount && m.discount(booking.discount.code), booking.discount && `-${booking.discount.amount}`],
      [m.total, booking.total],
      [booking.voucher && m.voucher(booking.voucher.code), booking.voucher && `-${booking.voucher.amount}`],
      [m.amountDue, booking.voucher && booking.amountDue],
    ]),
    [m.guest, booking.guestName],
    ...(booking.guestPhone ? [[m.phoneLabel, booking.guestPhone] as [string, string]] : []),
  ];
  return (
    <>
      {notice && (
        <p id="notice" class="notice" tabIndex={-1}>
          {notice === 'cancelled' ? m.cancelled : notice === 'updated' ? m.updated : m.changed(when(lang, start, timezone))}
        </p>
      )}
      <dl class="summary">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {booking.status !== 'CANCELLED' && <GuestInfo model={model} managed={managed} lang={lang} />}
      {mode === 'view' && <Actions model={model} managed={managed} lang={lang} />}
      {mode === 'cancel' && <CancelStep model={model} lang={lang} />}
      {mode === 'change' && <ChangeStep model={model} managed={managed} lang={lang} />}
      {mode === 'party' && <PartyStep model={model} managed={managed} lang={lang} />}
      {mode === 'details' && <DetailsStep model={model} lang={lang} />}
      <Contact organization={managed.organization} m={lang.m} />
    </>
  );
}

/** The experience's meeting point and instructions, and "Add to calendar" (the server's .ics). */
function GuestInfo({ model, managed: { booking, guestInfo: info }, lang }: BookingProps) {
  return (
    <>
      {guestInfo(h, {
        texts: guestInfoTexts(lang.t),
        info,
        booking: {
          bookingNumber: booking.bookingNumber,
          experience: booking.experience.title,
          startTime: booking.timeSlot.startTime,
          endTime: booking.timeSlot.endTime,
          meetingPoint: info.meetingPoint,
        },
        heading: 'h2',
        ...(model.calendarUrl ? { icsHref: model.calendarUrl } : {}),
      })}
    </>
  );
}

function Actions({ model, managed, lang }: BookingProps) {
  const { m } = lang;
  const { canCancel, canReschedule, canChangeParty, canEditContact, reason, cutoffAt, timezone, booking } = managed;
  const payment = booking.status === 'PENDING' ? booking.checkoutUrl : null;
  // Just cancelled: the notice says so, and "no longer changeable" would only repeat it.
  const why = reason && !(reason === 'NOT_ACTIVE' && model.notice.value === 'cancelled') ? m.why[reason] : null;
  return (
    <>
      {(canCancel || canReschedule) && <p class="hint">{m.until(when(lang, cutoffAt, timezone))}</p>}
      {why && <p class="why">{why}</p>}
      {payment && (
        <p class="actions">
          <a class="button primary" href={payment}>
            {m.pay}
          </a>
        </p>
      )}
      {(canCancel || canReschedule || canChangeParty || canEditContact) && (
        <p class="actions">
          {canReschedule && (
            <button type="button" id="change-button" class="primary" onClick={model.startChange}>
              {m.changeTime}
            </button>
          )}
          {canChangeParty && (
            <button type="button" id="party-button" onClick={model.startParty}>
              {booking.tickets.length ? m.changeTickets : m.changeParty}
            </button>
          )}
          {canEditContact && (
            <button type="button" id="details-button" onClick={model.startDetails}>
              {m.editDetails}
            </button>
          )}
          {canCancel && (
            <button type="button" id="cancel-button" onClick={model.askCancel}>
              {m.cancelBooking}
            </button>
          )}
        </p>
      )}
    </>
  );
}

/**
 * The form's problems above it (the GOV.UK error summary): it takes focus, and each line leads to
 * its field. The links move focus themselves: following `#id` would replace the address's
 * fragment, which holds the guest's token.
 */
function ErrorSummary({ errors, m }: { errors: FieldError[]; m: Language['m'] }) {
  if (errors.length === 0) return null;
  return (
    <div id="error-summary" class="error error-summary" role="alert" tabIndex={-1} aria-labelledby="error-summary-title">
      <h3 id="error-summary-title">{m.errorTitle}</h3>
      <ul>
        {errors.map((e) => (
          <li key={e.id}>
            <a
              href={`#${e.id}`}
              onClick={(ev) => {
                ev.preventDefault();
                document.getElementById(e.id)?.focus();
              }}
            >
              {e.text}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  set: (text: string) => void;
  errors: FieldError[];
  prefix: string;
  hint?: string | undefined;
  type?: string;
  inputMode?: 'numeric' | 'tel' | 'text';
  autoComplete?: string;
  maxLength: number;
  short?: boolean;
}

/** A labelled input with its hint and, when it has one, its error between the label and the box. */
function TextField({ id, label, value, set, errors, prefix, hint, type = 'text', inputMode, autoComplete, maxLength, short }: TextFieldProps) {
  const error = errors.find((e) => e.id === id)?.text;
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div class={error ? 'field invalid' : 'field'}>
      <label for={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} class="field-error">
          <span class="sr-only">{prefix} </span>
          {error}
        </p>
      )}
      <input
        id={id}
        name={id}
        type={type}
        class={short ? 'short' : undefined}
        inputMode={inputMode}
        autoComplete={autoComplete ?? 'off'}
        spellcheck={false}
        maxLength={maxLength}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onInput={(e) => set(e.currentTarget.value)}
      />
    </div>
  );
}

/** The booking's party: its participants, or a quantity per ticket category it has, with the new total. */
function PartyStep({ model, managed, lang }: BookingProps) {
  const { m, fmt } = lang;
  const { booking } = managed;
  const busy = model.busy.value;
  const errors = model.fieldErrors.value;
  const draft = model.party.value;
  const total = model.newTotalCents.value;
  const ticketed = booking.tickets.length > 0;
  return (
    <section class="step" aria-labelledby="manage-step">
      <h2 id="manage-step" tabIndex={-1}>
        {ticketed ? m.changeTickets : m.changeParty}
      </h2>
      <ErrorSummary errors={errors} m={m} />
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy) void model.saveParty();
        }}
      >
        {ticketed ? (
          <fieldset aria-describedby="party-hint">
            <legend>{m.tickets}</legend>
            <p id="party-hint" class="hint">
              {m.partyHint}
            </p>
            {booking.tickets.map((c, i) => (
              <TextField
                key={c.categoryId}
                id={ticketInputId(i)}
                label={`${c.name}, ${fmt.money(c.unitPrice / 100, booking.currency)}`}
                value={draft.tickets[c.categoryId] ?? ''}
                set={(text) => model.setTicket(c.categoryId, text)}
                errors={errors}
                prefix={m.errorPrefix}
                inputMode="numeric"
                maxLength={5}
                short
              />
            ))}
          </fieldset>
        ) : (
          <TextField
            id="party-participants"
            label={m.participants}
            hint={m.partyHint}
            value={draft.participants}
            set={model.setParticipants}
            errors={errors}
            prefix={m.errorPrefix}
            inputMode="numeric"
            maxLength={5}
            short
          />
        )}
        <p class="total" aria-live="polite" aria-atomic="true">
          {total !== null && m.newTotal(fmt.money(total / 100, booking.currency))}
        </p>
        <p class="actions">
          {/* aria-disabled, not disabled, while sending: a disabled button would drop keyboard focus. */}
          <button type="submit" class="primary" aria-disabled={busy}>
            {busy ? m.saving : m.save}
          </button>
        </p>
      </form>
      <button type="button" class="link" onClick={model.keep}>
        {m.back}
      </button>
    </section>
  );
}

/** The guest's name and phone: the e-mail is where the manage link goes, so it is the organization's to change. */
function DetailsStep({ model, lang: { m } }: PageProps & { lang: Language }) {
  const busy = model.busy.value;
  const errors = model.fieldErrors.value;
  const { name, phone } = model.contact.value;
  return (
    <section class="step" aria-labelledby="manage-step">
      <h2 id="manage-step" tabIndex={-1}>
        {m.editDetails}
      </h2>
      <ErrorSummary errors={errors} m={m} />
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy) void model.saveDetails();
        }}
      >
        <TextField
          id="details-name"
          label={m.guest}
          value={name}
          set={(text) => model.setContact('name', text)}
          errors={errors}
          prefix={m.errorPrefix}
          autoComplete="name"
          maxLength={200}
        />
        <TextField
          id="details-phone"
          label={m.phoneOptional}
          value={phone}
          set={(text) => model.setContact('phone', text)}
          errors={errors}
          prefix={m.errorPrefix}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          maxLength={40}
        />
        <p class="actions">
          <button type="submit" class="primary" aria-disabled={busy}>
            {busy ? m.saving : m.save}
          </button>
        </p>
      </form>
      <button type="button" class="link" onClick={model.keep}>
        {m.back}
      </button>
    </section>
  );
}

function CancelStep({ model, lang: { m } }: PageProps & { lang: Language }) {
  const busy = model.busy.value;
  return (
    <section class="step" aria-labelledby="manage-step">
      <h2 id="manage-step" tabIndex={-1}>
        {m.confirmCancelTitle}
      </h2>
      <p>{m.confirmCancelText}</p>
      <div class="field">
        <label for="cancel-reason">{m.reasonLabel}</label>
        <textarea
          id="cancel-reason"
          rows={3}
          maxLength={500}
          value={model.reason.value}
          onInput={(e) => model.setReason(e.currentTarget.value)}
        />
      </div>
      <p class="actions">
        <button type="button" class="primary danger" disabled={busy} onClick={() => void model.confirmCancel()}>
          {busy ? m.cancelling : m.yesCancel}
        </button>
        <button type="button" onClick={model.keep}>
          {m.keepBooking}
        </button>
      </p>
    </section>
  );
}

function ChangeStep({ model, managed, lang }: BookingProps) {
  const picker = model.picker.value;
  if (!picker) return null;
  const { m, t } = lang;
  const w: Widget = { model: picker, t, fmt: lang.fmt, locale: lang.tag, origin: location.origin, css: adoptStyles, lines: moneyLines, total: totalLine };
  const step = picker.step.value;
  const slot = model.chosen.value;
  const busy = model.busy.value;
  const title = slot ? m.confirmChangeTitle : step === 'times' ? t.chooseTime : t.chooseDate;
  return (
    <section class="step" aria-labelledby="manage-step">
      <p class="eyebrow">{m.newTimeTitle}</p>
      <h2 id="manage-step" tabIndex={-1}>
        {title}
      </h2>
      <Alerts w={w} />
      <div aria-busy={picker.busy.value}>
        {slot ? (
          <>
            <p class="lead">{m.moveTo(when(lang, slot.startTime, managed.timezone))}</p>
            <p class="actions">
              <button type="button" class="primary" disabled={busy} onClick={() => void model.confirmChange()}>
                {busy ? m.changing : m.confirmChange}
              </button>
              <button type="button" onClick={picker.back}>
                {m.otherTime}
              </button>
            </p>
          </>
        ) : step === 'times' ? (
          <>
            <TimesStep w={w} />
            <Back picker={picker} label={t.back} />
          </>
        ) : (
          <CalendarStep w={w} />
        )}
      </div>
      <button type="button" class="link" onClick={model.keep}>
        {m.keepTime}
      </button>
    </section>
  );
}

function Back({ picker, label }: { picker: BookingModel; label: string }) {
  return (
    <button type="button" class="link back" onClick={picker.back}>
      {label}
    </button>
  );
}

