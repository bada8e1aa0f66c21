/**
 * New booking (`/dashboard/bookings/new`): a booking taken at the desk or on the phone. Opened from
 * Today, from a Calendar slot (its experience, date and time preset in the address) and from
 * Bookings. It books with `ignoreNotice` (a walk-in for the boat about to leave, or one under way),
 * may record the money taken as a payment, and may leave out the confirmation e-mail. Its code and
 * its state load with the other screens' chunk (screens/lazy.ts), never with Today.
 */
import type { JSX } from 'preact';
import { z } from 'zod';
import { Availability, Booking, Experience, Quote, bookingLines } from '../../shared/index.js';
import type { AnswerInput, BookingExtraInput, TimeSlotAvailability } from '../../shared/index.js';
import { ApiError } from '../api.js';
import { Field, FormAlert, TextArea, formOf } from '../components/Field.js';
import { ErrorSummary } from '../components/experience-fields.js';
import { AnswerFields, ExtraFields, readAnswers, readExtras } from '../components/booking-form-fields.js';
import { answerId, extraQtyId, formPartFields } from '../state/booking-form.js';
import { METHOD_OPTIONS } from '../components/booking-actions.js';
import { dateIn, money, timeIn } from '../format.js';
import { pathTo } from '../router.js';
import { amountOf, fromCents } from '../state/bookings.js';
import { fieldsOf, idleForm, sentenceFor, type AreaContext, type FormState } from '../state/context.js';
import type { Model } from '../state/model.js';
import { signal } from '../state/signals.js';
import '../styles/bookings.css';
import '../styles/experiences.css';

/** The labels the error summary names the fields by. */
const LABELS: Record<string, string> = {
  experience: 'Experience',
  date: 'Date',
  time: 'Time',
  participants: 'Participants',
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  internalNote: 'Internal note',
  promoCode: 'Promo code',
  voucherCode: 'Gift voucher code',
  method: 'Payment method',
  amount: 'Amount',
};

/** The contract's field paths → this form's fields. */
const FIELD_OF: Record<string, string> = {
  experienceId: 'experience',
  startTime: 'time',
  participants: 'participants',
  customerName: 'name',
  customerEmail: 'email',
  customerPhone: 'phone',
  internalNote: 'internalNote',
  promoCode: 'promoCode',
  voucherCode: 'voucherCode',
  'payment.amount': 'amount',
  'payment.method': 'method',
};

const ExperienceList = z.array(Experience);

interface State {
  key: string;
  experiences: Experience[] | null;
  loadError: string | null;
  experienceId: string;
  date: string;
  /** The preset time (a Calendar slot's start), chosen once its slot is listed. */
  startTime: string;
  slots: TimeSlotAvailability[] | null;
  zone: string;
  slotsError: string | null;
  /** Participants, or a quantity per price category: what the total is worked out from. */
  party: Record<string, number>;
  /** Quantities of the experience's extras by id, for the total. */
  extras: Record<string, number>;
  paidNow: boolean;
  /** The codes as typed, for "Check codes". */
  codes: { promoCode: string; voucherCode: string };
  /** The server's price of the party, extras and codes ("Check codes"); null once any of them changes. */
  quote: Quote | null;
  quoting: boolean;
  form: FormState;
}

const blank = (key: string): State => ({
  key,
  experiences: null,
  loadError: null,
  experienceId: '',
  date: '',
  startTime: '',
  slots: null,
  zone: 'UTC',
  slotsError: null,
  party: { participants: 1 },
  extras: {},
  paidNow: false,
  codes: { promoCode: '', voucherCode: '' },
  quote: null,
  quoting: false,
  form: idleForm,
});

const state = signal<State>(blank(''));
/** A number per model: the form's state never outlives the model (the session) it was made with. */
const models = new WeakMap<object, number>();
let modelCount = 0;
let generation = 0;

function update(patch: Partial<State>): void {
  state.value = { ...state.peek(), ...patch };
}

const chosen = (s: State): Experience | undefined => s.experiences?.find((x) => x.id === s.experienceId);

/** How many people the party entered is: participants, or the tickets of every category. */
function partyOf(s: State, x: Experience): number {
  if (!x.priceCategories.length) return s.party['participants'] ?? 0;
  return x.priceCategories.reduce((n, c) => n + (s.party[c.id] ?? 0), 0);
}

/**
 * The total in cents of what is entered, made the way the booking's total will be (shared/lines.ts):
 * participants × price or each category's tickets × its price, then each extra's quantity × its price.
 */
function totalCents(s: State): number {
  const x = chosen(s);
  if (!x) return 0;
  return bookingLines({
    tickets: x.priceCategories.map((c) => ({ categoryId: c.id, name: c.name, quantity: s.party[c.id] ?? 0, unitPrice: c.price })),
    participants: s.party['participants'] ?? 0,
    unitPrice: x.price,
    extras: offered(x).map((e) => ({ extraId: e.id, name: e.name, quantity: s.extras[e.id] ?? 0, unitPrice: e.price })),
  }).total;
}

/** The extras the form offers: the active ones. */
const offered = (x: Experience) => x.extras.filter((e) => e.active);

async function loadSlots(ctx: AreaContext): Promise<void> {
  const s = state.peek();
  if (!s.experienceId || !s.date) return update({ slots: null });
  const mine = ++generation;
  update({ slots: null, slotsError: null });
  try {
    const open = await ctx.http.get(Availability, '/v1/availability', {
      experienceId: s.experienceId,
      startDate: s.date,
      endDate: s.date,
      ignoreNotice: true,
    });
    if (mine === generation) update({ slots: open.slots, zone: open.timezone });
  } catch (e) {
    if (ctx.ended(e) || mine !== generation) return;
    update({ slots: [], slotsError: `The times could not be loaded: ${sentenceFor(e)}` });
  }
}

async function start(ctx: AreaContext, key: string, search: URLSearchParams): Promise<void> {
  state.value = { ...blank(key), date: /^\d{4}-\d{2}-\d{2}$/.test(search.get('date') ?? '') ? search.get('date')! : '', startTime: search.get('startTime') ?? '' };
  try {
    const page = await ctx.http.list(Experience, '/v1/experiences', { limit: 100, offset: 0 });
    const experiences = ExperienceList.parse(page.data).filter((x) => x.active);
    if (state.peek().key !== key) return;
    const asked = search.get('experienceId') ?? '';
    const first = experiences.find((x) => x.id === asked) ?? experiences[0];
    const zone = first?.schedule?.timezone ?? null;
    update({ experiences, experienceId: first?.id ?? '', date: state.peek().date || dateIn(zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone) });
    await loadSlots(ctx);
  } catch (e) {
    if (ctx.ended(e) || state.peek().key !== key) return;
    update({ experiences: [], loadError: `The experiences could not be loaded: ${sentenceFor(e)}` });
  }
}

/** Why a code was refused (`details.reason`), in words. */
const PROMO_WORDS: Record<string, string> = {
  NOT_FOUND: 'There is no promo code like this one. Check its spelling.',
  INACTIVE: 'This promo code is not active.',
  NOT_YET_VALID: 'This promo code is not valid yet.',
  EXPIRED: 'This promo code has expired.',
  NOT_FOR_EXPERIENCE: 'This promo code is not for this experience.',
  USED_UP: 'This promo code has been used as many times as it may be.',
};
const VOUCHER_WORDS: Record<string, string> = {
  NOT_FOUND: 'There is no gift voucher with this code. Check its spelling.',
  DISABLED: 'This gift voucher is disabled.',
  EXPIRED: 'This gift voucher has expired.',
  USED: 'This gift voucher has no balance left.',
  CURRENCY: 'This gift voucher is in another currency.',
};

/** A refusal as this form's fields: the contract's paths renamed, a full or closed slot on its field, a refused code on its own. */
function failureOf(e: unknown, ticketed: boolean, sent: { answers: AnswerInput[]; extras: BookingExtraInput[] }): FormState {
  if (e instanceof ApiError && e.code === 'PROMO_CODE_INVALID') return { ...idleForm, fields: { promoCode: PROMO_WORDS[e.reason ?? ''] ?? sentenceFor(e) } };
  if (e instanceof ApiError && e.code === 'VOUCHER_INVALID') return { ...idleForm, fields: { voucherCode: VOUCHER_WORDS[e.reason ?? ''] ?? sentenceFor(e) } };
  if (e instanceof ApiError && e.code === 'SLOT_UNAVAILABLE') return { ...idleForm, fields: { time: sentenceFor(e) } };
  if (e instanceof ApiError && e.code === 'CAPACITY_EXCEEDED') return { ...idleForm, fields: { [ticketed ? 'tickets' : 'participants']: sentenceFor(e) } };
  if (!(e instanceof ApiError) || e.code !== 'VALIDATION_ERROR') return { ...idleForm, error: sentenceFor(e) };
  const fields: Record<string, string> = formPartFields(e, sent);
  for (const [path, message] of Object.entries(fieldsOf(e, 2))) {
    const field = FIELD_OF[path] ?? FIELD_OF[path.split('.')[0] ?? ''] ?? (path.startsWith('tickets') ? 'tickets' : null);
    if (field && !fields[field]) fields[field] = message;
  }
  return Object.keys(fields).length ? { ...idleForm, fields } : { ...idleForm, error: sentenceFor(e) };
}

async function submit(ctx: AreaContext, e: Event): Promise<void> {
  const f = formOf(e);
  const s = state.peek();
  const x = chosen(s);
  if (s.form.busy || !x) return;
  const fields: Record<string, string> = {};
  const time = f.value('time');
  if (!time) fields['time'] = 'Choose a time.';
  const body: Record<string, unknown> = {
    experienceId: x.id,
    startTime: time,
    customerName: f.value('name').trim(),
    customerEmail: f.value('email').trim(),
    ignoreNotice: true,
    sendConfirmation: f.checked('sendConfirmation'),
  };
  if (x.priceCategories.length) {
    const tickets = x.priceCategories.map((c) => ({ categoryId: c.id, quantity: Number(f.value(`qty-${c.id}`) || 0) }));
    if (tickets.some((t) => !Number.isInteger(t.quantity) || t.quantity < 0)) fields['tickets'] = 'Enter whole numbers, 0 or more.';
    else if (!tickets.some((t) => t.quantity > 0)) fields['tickets'] = 'Enter at least one ticket.';
    body['tickets'] = tickets.filter((t) => t.quantity > 0);
  } else {
    const participants = Number(f.value('participants'));
    if (!Number.isInteger(participants) || participants < 1) fields['participants'] = 'Enter a whole number of 1 or more.';
    body['participants'] = participants;
  }
  const answers = readAnswers(f, x.questions, fields);
  const extras = readExtras(f, offered(x), partyOf(s, x), fields);
  if (answers.length) body['answers'] = answers;
  if (extras.length) body['extras'] = extras;
  const phone = f.value('phone').trim();
  if (phone) body['customerPhone'] = phone;
  const note = f.value('internalNote').trim();
  if (note) body['internalNote'] = note;
  for (const code of ['promoCode', 'voucherCode']) {
    const typed = f.value(code).trim();
    if (typed) body[code] = typed;
  }
  if (f.checked('paidNow')) {
    const amount = amountOf(f.value('amount'));
    if (!amount) fields['amount'] = 'Enter an amount such as 25.00.';
    body['payment'] = { method: f.value('method'), ...(amount ? { amount } : {}) };
  }
  if (Object.keys(fields).length) {
    ctx.focus('error-summary');
    return update({ form: { ...idleForm, fields } });
  }
  update({ form: { ...idleForm, busy: true } });
  try {
    const made = await ctx.http.send(Booking, 'POST', '/v1/bookings', body);
    if (state.peek().key !== s.key) return;
    update({ form: idleForm });
    ctx.router.go(pathTo('bookings', made.id));
  } catch (err) {
    if (ctx.ended(err) || state.peek().key !== s.key) return;
    const form = failureOf(err, x.priceCategories.length > 0, { answers, extras });
    ctx.focus(Object.keys(form.fields).length ? 'error-summary' : 'form-alert');
    update({ form });
    // A slot that filled or closed meanwhile: offer the times as they are now.
    if (err instanceof ApiError && (err.code === 'SLOT_UNAVAILABLE' || err.code === 'CAPACITY_EXCEEDED')) void loadSlots(ctx);
  }
}

function slotLabel(slot: TimeSlotAvailability, zone: string): string {
  const time = timeIn(slot.startTime, zone);
  if (slot.unavailableReason === 'BLOCKED') return `${time}, blocked by a calendar`;
  return `${time}, ${slot.remaining === 0 ? 'full' : `${slot.remaining} ${slot.remaining === 1 ? 'place' : 'places'} left`}`;
}

function TimeField({ s }: { s: State }): JSX.Element {
  const error = s.form.fields['time'];
  const hint = 'Times inside the notice period and tours under way are offered too.';
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for="time">Time</label>
      <p class="hint" id="time-hint">
        {hint}
      </p>
      <select
        id="time"
        name="time"
        key={`${s.experienceId}-${s.date}-${s.slots?.length ?? -1}`}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? 'time-hint time-error' : 'time-hint'}
      >
        <option value="">{s.slots === null ? 'Loading the times…' : s.slots.length ? 'Choose a time' : 'No times on this date'}</option>
        {(s.slots ?? []).map((slot) => (
          <option key={slot.id} value={slot.startTime} disabled={!slot.available} selected={slot.startTime === s.startTime || undefined}>
            {slotLabel(slot, s.zone)}
          </option>
        ))}
      </select>
      {s.slotsError ? <p class="field-error">{s.slotsError}</p> : null}
      {error ? (
        <p class="field-error" id="time-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Party({ s, x }: { s: State; x: Experience }): JSX.Element {
  const setParty = (name: string, value: string) => update({ party: { ...state.peek().party, [name]: Math.max(0, Number(value) || 0) }, quote: null });
  if (!x.priceCategories.length) {
    return (
      <Field
        name="participants"
        label="Participants"
        type="number"
        min={1}
        inputMode="numeric"
        value={s.party['participants'] ?? 1}
        error={s.form.fields['participants']}
        hint={`${money(fromCents(x.price), x.currency)} each; at most ${x.maxPerBooking ?? x.maxParticipants} per booking.`}
        onInput={(v) => setParty('participants', v)}
      />
    );
  }
  const error = s.form.fields['tickets'];
  return (
    <fieldset class={`field${error ? ' invalid' : ''}`} id="tickets" tabIndex={-1} aria-describedby={error ? 'tickets-error' : undefined}>
      <legend>Participants</legend>
      {x.priceCategories.map((c) => (
        <Field
          key={c.id}
          name={`qty-${c.id}`}
          label={`${c.name} (${money(fromCents(c.price), x.currency)})`}
          type="number"
          min={0}
          inputMode="numeric"
          required={false}
          value={s.party[c.id] ?? 0}
          onInput={(v) => setParty(c.id, v)}
        />
      ))}
      {error ? (
        <p class="field-error" id="tickets-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * "Check codes": the server prices what is entered with the codes typed (`POST /v1/quote`, the one
 * function a booking's money lines come from), so the desk sees the discount, the voucher's part and
 * what is left to pay before booking. A refused code is said beside its field; nothing is stored.
 */
async function checkCodes(ctx: AreaContext): Promise<void> {
  const s = state.peek();
  const x = chosen(s);
  if (!x || s.quoting) return;
  const { promoCode: _p, voucherCode: _v, ...others } = s.form.fields;
  const body: Record<string, unknown> = { experienceId: x.id };
  if (x.priceCategories.length) {
    const tickets = x.priceCategories.map((c) => ({ categoryId: c.id, quantity: s.party[c.id] ?? 0 })).filter((t) => t.quantity > 0);
    if (!tickets.length) return update({ form: { ...s.form, fields: { ...others, tickets: 'Enter at least one ticket.' } } });
    body['tickets'] = tickets;
  } else body['participants'] = s.party['participants'] ?? 0;
  const extras = offered(x).map((e) => ({ extraId: e.id, quantity: s.extras[e.id] ?? 0 })).filter((e) => e.quantity > 0);
  if (extras.length) body['extras'] = extras;
  for (const code of ['promoCode', 'voucherCode'] as const) if (s.codes[code].trim()) body[code] = s.codes[code].trim();
  update({ quoting: true, quote: null, form: { ...s.form, fields: others } });
  try {
    const quote = await ctx.http.send(Quote, 'POST', '/v1/quote', body);
    if (state.peek().key === s.key) update({ quoting: false, quote });
  } catch (err) {
    if (ctx.ended(err) || state.peek().key !== s.key) return;
    const refused = failureOf(err, x.priceCategories.length > 0, { answers: [], extras: [] });
    update({ quoting: false, form: { ...state.peek().form, fields: { ...others, ...refused.fields }, error: refused.error } });
    const first = Object.keys(refused.fields)[0];
    ctx.focus(first ?? 'form-alert');
  }
}

/** The quote's lines after the subtotal: the discount, the total, the voucher's part and what is left to pay. */
function QuoteLines({ quote }: { quote: Quote }): JSX.Element {
  const rows: [string, string][] = [['Subtotal', quote.subtotal]];
  for (const line of quote.lines) if (line.kind === 'DISCOUNT') rows.push([`Discount (${line.label})`, line.amount]);
  rows.push(['Total', quote.total]);
  for (const line of quote.lines) if (line.kind === 'VOUCHER') rows.push([`Gift voucher (${line.label})`, line.amount]);
  if (quote.voucherAmount !== '0.00') rows.push(['Left to pay', quote.amountDue]);
  return (
    <dl class="facts quote-lines">
      {rows.map(([label, amount]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{money(amount, quote.currency)}</dd>
        </div>
      ))}
    </dl>
  );
}

function Form({ ctx, s }: { ctx: AreaContext; s: State }): JSX.Element {
  const x = chosen(s)!;
  // What "Paid now" suggests: what is left to pay once the codes are checked, else the total.
  const total = s.quote ? s.quote.amountDue : fromCents(totalCents(s));
  const labelOf = (id: string) =>
    LABELS[id] ??
    (id === 'tickets' ? 'Participants' : null) ??
    x.questions.find((q) => answerId(q.id) === id)?.label ??
    x.extras.find((e) => extraQtyId(e.id) === id)?.name ??
    id;
  return (
    <form class="new-booking" noValidate aria-busy={s.form.busy ? 'true' : undefined} onSubmit={(e) => void submit(ctx, e)}>
      <ErrorSummary fields={s.form.fields} labelOf={labelOf} />
      <div id="form-alert" tabIndex={-1}>
        <FormAlert error={s.form.error} />
      </div>
      <div class="field">
        <label for="experience">Experience</label>
        <select
          id="experience"
          name="experience"
          onChange={(e) => {
            update({ experienceId: (e.currentTarget as HTMLSelectElement).value, startTime: '', party: { participants: 1 }, extras: {}, quote: null });
            void loadSlots(ctx);
          }}
        >
          {(s.experiences ?? []).map((o) => (
            <option key={o.id} value={o.id} selected={o.id === s.experienceId}>
              {o.name}
            </option>
          ))}
        </select>
      </div>
      <Field
        name="date"
        label="Date"
        type="date"
        value={s.date}
        error={s.form.fields['date']}
        onInput={(v) => {
          if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return;
          update({ date: v, startTime: '' });
          void loadSlots(ctx);
        }}
      />
      <TimeField s={s} />
      <Party key={x.id} s={s} x={x} />
      <ExtraFields
        key={`extras-${x.id}`}
        extras={offered(x)}
        quantities={s.extras}
        party={partyOf(s, x)}
        currency={x.currency}
        fields={s.form.fields}
        onInput={(id, quantity) => update({ extras: { ...state.peek().extras, [id]: Math.max(0, quantity) }, quote: null })}
      />
      <p class="quiet" id="new-booking-total">
        Total: {money(fromCents(totalCents(s)), x.currency)}
      </p>
      <Field
        name="promoCode"
        label="Promo code"
        type="text"
        required={false}
        error={s.form.fields['promoCode']}
        hint="Optional. Its discount is taken off the total."
        onInput={(v) => update({ codes: { ...state.peek().codes, promoCode: v }, quote: null })}
      />
      <Field
        name="voucherCode"
        label="Gift voucher code"
        type="text"
        required={false}
        error={s.form.fields['voucherCode']}
        hint="Optional, like GV-XXXX-XXXX-XXXX. It pays up to its balance."
        onInput={(v) => update({ codes: { ...state.peek().codes, voucherCode: v }, quote: null })}
      />
      <div class="field">
        <button type="button" aria-disabled={s.quoting ? 'true' : undefined} onClick={() => void checkCodes(ctx)}>
          Check codes
        </button>
        <div id="new-booking-quote" aria-live="polite">
          {s.quoting ? <p class="quiet">Checking…</p> : s.quote ? <QuoteLines quote={s.quote} /> : null}
        </div>
      </div>
      <Field name="name" label="Name" type="text" autoComplete="off" error={s.form.fields['name']} />
      <Field name="email" label="Email" type="email" error={s.form.fields['email']} />
      <Field name="phone" label="Phone" type="text" required={false} error={s.form.fields['phone']} hint="Optional." />
      <AnswerFields key={`answers-${x.id}`} questions={x.questions} fields={s.form.fields} />
      <TextArea name="internalNote" label="Internal note" rows={3} error={s.form.fields['internalNote']} hint="Optional. For your team only: the guest never sees it." />
      <div class="field check">
        <input id="paidNow" name="paidNow" type="checkbox" checked={s.paidNow} aria-controls="payment-fields" onChange={(e) => update({ paidNow: (e.currentTarget as HTMLInputElement).checked })} />
        <label for="paidNow">Paid now</label>
      </div>
      <div id="payment-fields">
        {s.paidNow ? (
          <>
            <div class="field">
              <label for="method">Payment method</label>
              <select id="method" name="method">
                {METHOD_OPTIONS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
            <Field
              key={`amount-${total}`}
              name="amount"
              label="Amount"
              type="text"
              inputMode="decimal"
              value={total}
              error={s.form.fields['amount']}
              hint={`In ${x.currency}; the total is ${total}. Less when only a deposit was taken.`}
            />
          </>
        ) : null}
      </div>
      <div class="field check">
        <input id="sendConfirmation" name="sendConfirmation" type="checkbox" defaultChecked />
        <label for="sendConfirmation">Send confirmation e-mail</label>
      </div>
      <button type="submit" class="primary" aria-disabled={s.form.busy ? 'true' : undefined}>
        Create booking
      </button>
    </form>
  );
}

export function NewBooking({ m }: { m: Model }): JSX.Element {
  const ctx = m.bookings.ctx;
  const location = m.router.location.value;
  // Each visit (and each preset) starts a fresh form; so does a new session's model.
  if (!models.has(m.bookings)) models.set(m.bookings, ++modelCount);
  const key = `${models.get(m.bookings)}|${m.bookings.newVisit.value}|${location.search.toString()}`;
  if (state.peek().key !== key) void start(ctx, key, location.search);
  const s = state.value;
  return (
    <main id="main" class="bk-booking">
      <p class="bk-back">
        <a href={pathTo('bookings')}>All bookings</a>
      </p>
      <h1 id="heading" tabIndex={-1}>
        New booking
      </h1>
      {s.loadError ? (
        <p class="alert" role="alert">
          {s.loadError}
        </p>
      ) : null}
      {s.experiences === null ? <p role="status">Loading…</p> : null}
      {s.experiences && !s.experiences.length && !s.loadError ? <p>There is no active experience to book yet.</p> : null}
      {s.experiences?.length ? <Form ctx={ctx} s={s} /> : null}
    </main>
  );
}
