/**
 * widget/waitlist.js: joining a full time's waitlist. For an experience that takes one, widget.js
 * lets the guest choose a full time ("Full – join the waitlist") and, on the details and done
 * steps of such a time, shows this chunk's title and body instead of its own (widget/components/App.tsx),
 * loading it as a classic script then (widget/chunks.ts): a guest who books a time with places never
 * loads it. The step asks the party (widget.js's own control, unless the booking form's step asked
 * it with the questions), the name, e-mail and phone, and joins with `POST /public/v1/waitlist`;
 * the done step says the position ("You are number 2 on the waitlist"). A time that has places
 * after all (409 SLOT_HAS_PLACES) leads back to booking it; a guest already waiting (409
 * ALREADY_ON_WAITLIST) is told so in words. It renders with the `h` of widget.js (no Preact of its
 * own) and adds no global.
 */
import type { ComponentChildren, FunctionComponent, h as H } from 'preact';
import type { PublicWaitlistJoin, WaitlistEntry } from '../../shared/index.js';
import type { ChunkScript } from '../chunks.js';
import type { Summary as SummaryComponent } from '../components/Summary.js';
import type { Props, Widget } from '../components/widget.js';
import type { BookingModel, Problem } from '../state/booking.js';
import { checkContact } from '../state/validate.js';
import type { ContactField, FieldProblems } from '../state/validate.js';
import { waitlistTexts } from './texts.js';
import type { WaitlistRefusal, WaitlistState } from './types.js';

export type { WaitlistState } from './types.js';

/** What a refusal carries (widget/api.ts ApiError, read by its fields: the class is widget.js's). */
interface Failure {
  status?: number;
  code?: string;
  details?: unknown;
}

/** The server's name of each field the guest fills here, and what a refusal of it says. */
const FIELDS: Record<string, [ContactField, 'required' | 'invalidEmail' | 'invalidPhone']> = {
  customerName: ['name', 'required'],
  customerEmail: ['email', 'invalidEmail'],
  customerPhone: ['phone', 'invalidPhone'],
};

const REFUSALS: Record<string, WaitlistRefusal> = {
  ALREADY_ON_WAITLIST: 'already',
  SLOT_HAS_PLACES: 'hasPlaces',
  SLOT_UNAVAILABLE: 'closed',
};

const stateOf = (m: BookingModel): WaitlistState => m.form.value.waitlist ?? {};
const set = (m: BookingModel, change: WaitlistState): void => {
  m.form.value = { ...m.form.value, waitlist: { ...stateOf(m), ...change } };
};

/** A failure the guest can do nothing about here, in widget.js's words (widget/state/requests.ts). */
function problemOf({ status, code }: Failure): Problem {
  if (!status) return 'network';
  if (status === 429) return 'rateLimited';
  if (code === 'IDEMPOTENCY_KEY_IN_USE') return 'busy';
  if (status === 404) return 'notFound';
  return status === 401 || status === 403 ? 'setup' : 'server';
}

/** The join as the server takes it (shared/schemas/waitlist.ts): the party, the booking form's answers, the guest. */
function joinBody(m: BookingModel, w: Widget): PublicWaitlistJoin {
  const { name, email, phone, website } = m.contact.value;
  const tickets = m.tickets.value;
  const answers = m.session.form?.body().answers;
  return {
    experienceId: m.experience.value!.id,
    startTime: m.slot.value!.startTime,
    ...(tickets.length
      ? { tickets: tickets.filter((c) => c.quantity).map((c) => ({ categoryId: c.id, quantity: c.quantity })) }
      : { participants: m.participants.value }),
    ...(answers?.length && { answers }),
    customerName: name.trim(),
    customerEmail: email.trim(),
    customerPhone: phone.trim() || undefined,
    // The language the widget speaks (English when another's texts could not be had).
    locale: w.locale.slice(0, 2) as PublicWaitlistJoin['locale'],
    website,
  };
}

/** Problems beside their fields, focus on the first (a party without a place first); false when none. */
function showProblems(m: BookingModel, problems: FieldProblems): boolean {
  const tickets = m.tickets.value;
  const first =
    tickets.length && !m.places.value
      ? `ticket-${tickets.findIndex((c) => c.occupiesPlace)}`
      : (['name', 'email', 'phone'] as const).find((f) => problems[f]);
  if (first) m.session.focusId = first;
  m.fieldProblems.value = problems;
  return !!first;
}

/** "Join the waitlist": checks the guest's details, joins, and on to the done step with the entry. */
async function join(m: BookingModel, w: Widget): Promise<void> {
  if (m.busy.value || showProblems(m, checkContact(m.contact.value))) return;
  const at = m.slot.value!.startTime;
  m.trouble.value = null;
  set(m, { said: undefined });
  m.busy.value = true;
  try {
    const entry = await m.api.post<WaitlistEntry>('waitlist', joinBody(m, w));
    if (m.session.disposed) return;
    set(m, { entry });
    m.moved.value = true;
    m.step.value = 'done';
  } catch (e) {
    if (m.session.disposed) return;
    const failure = e as Failure;
    const said = REFUSALS[failure.code ?? ''];
    if (said) {
      m.session.focusId = 'wl-said';
      set(m, { said, at });
      return;
    }
    // A 400 on the answers goes back to the booking form's step, which says it beside its questions.
    if (m.session.form?.refused(e)) return;
    const problems: FieldProblems = {};
    if (Array.isArray(failure.details)) {
      for (const d of failure.details as { path?: string }[]) {
        const field = FIELDS[d.path ?? ''];
        if (field) problems[field[0]] = field[1];
      }
    }
    if (!showProblems(m, problems)) {
      const problem = problemOf(failure);
      m.trouble.value = { problem, retry: problem === 'notFound' || problem === 'setup' ? undefined : () => void join(m, w) };
    }
  } finally {
    m.busy.value = false;
  }
}

/** The time has places after all: its fresh availability, and on to booking it (or to the times, if it went again). */
async function bookInstead(m: BookingModel): Promise<void> {
  const at = m.slot.value?.startTime;
  await m.refreshAfterSlotTaken();
  const fresh = m.slotsOfDate.value.find((s) => s.startTime === at);
  set(m, { said: undefined });
  if (fresh?.available) m.chooseSlot(fresh);
  else if (m.step.value !== 'calendar') m.step.value = 'times';
}

/** A labelled input of the guest's details, its problem tied to it (as widget.js's details step has them). */
function field(h: typeof H, { model: m, t }: Widget, id: ContactField, type: string, autoComplete: string, maxLength: number, label: string) {
  const problem = m.fieldProblems.value[id];
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    h('input', {
      id,
      name: id,
      type,
      autoComplete,
      required: id !== 'phone',
      maxLength,
      value: m.contact.value[id],
      'aria-invalid': !!problem,
      'aria-describedby': problem && `${id}-error`,
      onInput: (e: Event) => m.setContact(id, (e.currentTarget as HTMLInputElement).value),
    }),
    problem && h('p', { id: `${id}-error`, class: 'field-error' }, t[problem]),
  );
}

/**
 * The details and done steps of a full time: their heading and body. Before joining, the form;
 * once joined, the position, what was joined and what comes next.
 */
export function waitlist(
  h: typeof H,
  w: Widget,
  Party: FunctionComponent<Props>,
  Summary: typeof SummaryComponent,
): [string, ComponentChildren] {
  const { model: m, t } = w;
  const exp = m.experience.value;
  const slot = m.slot.value;
  if (!exp || !slot) return ['', null];
  const T = waitlistTexts(t);
  const st = stateOf(m);
  const entry = st.entry;

  if (m.step.value === 'done' && entry) {
    const [before, after] = T.position.split('{0}');
    return [
      T.joined,
      h(
        'div',
        null,
        h('p', { class: 'lead' }, before, h('strong', null, String(entry.position ?? 1)), after),
        h(Summary, {
          w,
          experience: entry.experience.title,
          startTime: entry.timeSlot.startTime,
          participants: entry.tickets.length ? undefined : entry.totalParticipants,
          tickets: entry.tickets,
        }),
        h('p', null, T.next.replace('{0}', entry.guestEmail)),
        h('button', { type: 'button', onClick: m.restart }, t.bookAnother),
      ),
    ];
  }

  const busy = m.busy.value;
  const said = st.at === slot.startTime ? st.said : undefined;
  return [
    T.title,
    h(
      'form',
      {
        noValidate: true,
        onSubmit: (e: Event) => {
          e.preventDefault();
          void join(m, w);
        },
      },
      h('p', null, T.intro),
      h(Summary, { w, experience: exp.name, startTime: slot.startTime }),
      // The booking form's step asked the party with the questions, when there is one.
      !m.hasForm.value && h(Party, { w }),
      field(h, w, 'name', 'text', 'name', 200, t.name),
      field(h, w, 'email', 'email', 'email', 254, t.email),
      field(h, w, 'phone', 'tel', 'tel', 40, t.phone),
      // The honeypot, as on the details step: off-screen, hidden from assistive technology, out of the tab order.
      h(
        'div',
        { class: 'hp', 'aria-hidden': 'true' },
        h('label', { for: 'website' }, t.honeypot),
        h('input', {
          id: 'website',
          name: 'website',
          tabIndex: -1,
          autoComplete: 'off',
          value: m.contact.value.website,
          onInput: (e: Event) => m.setContact('website', (e.currentTarget as HTMLInputElement).value),
        }),
      ),
      // A refusal in words, focused when it comes; a time with places leads back to booking it.
      said &&
        h(
          'div',
          { class: 'error' },
          h('p', { id: 'wl-said', tabIndex: -1 }, T[said]),
          said === 'hasPlaces' && h('button', { type: 'button', class: 'primary', onClick: () => void bookInstead(m) }, T.bookNow),
        ),
      // aria-disabled, not disabled, while sending: a disabled button would drop keyboard focus.
      h('button', { type: 'submit', class: said === 'hasPlaces' ? undefined : 'primary', 'aria-disabled': busy }, busy ? T.joining : T.join),
    ),
  ];
}

export type WaitlistChunk = typeof waitlist;

const script = document.currentScript as ChunkScript<WaitlistChunk> | null;
if (script) script.outing = waitlist;
