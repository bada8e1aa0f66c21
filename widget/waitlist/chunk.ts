/**
 * Part of widget/forms.js (widget/forms.ts): joining a full time's waitlist. For an experience that takes one, widget.js
 * lets the guest choose a full time ("Full – join the waitlist") and, on the details and done
 * steps of such a time, shows this step's heading and body instead of its own (widget/components/App.tsx),
 * loading forms.js as a classic script then (widget/chunks.ts): a guest who books a time with places never
 * loads it. The step asks the party (widget.js's own control, unless the booking form's step asked
 * it with the questions) and the guest's details (widget.js's fields), and joins with
 * `POST /public/v1/waitlist` through widget.js's own submission (its checks, its Idempotency-Key,
 * its field errors and failures); the done step says the position ("You are number 2 on the
 * waitlist"). A time that has places after all (409 SLOT_HAS_PLACES) leads back to booking it; a
 * guest already waiting (409 ALREADY_ON_WAITLIST) is told so in words. It renders with the `h` of
 * widget.js (no Preact of its own) and adds no global.
 */
import type { ComponentChildren, FunctionComponent, h as H } from 'preact';
import type { PublicBookingCreate, PublicWaitlistJoin, WaitlistEntry } from '../../shared/index.js';
import type { Summary as SummaryComponent } from '../components/Summary.js';
import type { Props, Widget } from '../components/widget.js';
import type { BookingModel } from '../state/booking.js';
import { waitlistTexts } from './texts.js';
import type { WaitlistRefusal, WaitlistState } from './types.js';

export type { WaitlistState } from './types.js';

/** The refusals this step says in its own words, by the error's code. */
const REFUSALS: Record<string, WaitlistRefusal> = {
  ALREADY_ON_WAITLIST: 'already',
  SLOT_HAS_PLACES: 'hasPlaces',
  SLOT_UNAVAILABLE: 'closed',
};

const stateOf = (m: BookingModel): WaitlistState => m.form.value.waitlist ?? {};
const set = (m: BookingModel, change: WaitlistState): void => {
  m.form.value = { ...m.form.value, waitlist: { ...stateOf(m), ...change } };
};

/**
 * A join as the server takes it (shared/schemas/waitlist.ts), from the booking widget.js would send:
 * the party, the answers, the guest, the language and the honeypot; no extras, codes or total.
 */
function joinBody({ expectedTotal: _total, extras: _extras, promoCode: _promo, voucherCode: _voucher, ...join }: PublicBookingCreate): PublicWaitlistJoin {
  return join;
}

/** "Join the waitlist": widget.js's submission, to the waitlist, on to the done step with the entry. */
function join(m: BookingModel): Promise<void> {
  const at = m.slot.value!.startTime;
  set(m, { said: undefined });
  return m.submit({
    path: 'waitlist',
    body: joinBody,
    done: (entry) => {
      set(m, { entry: entry as WaitlistEntry });
      m.moved.value = true;
      m.step.value = 'done';
    },
    refused: (e) => {
      const said = REFUSALS[(e as { code?: string }).code ?? ''];
      if (said) {
        m.session.focusId = 'wl-said';
        set(m, { said, at });
      }
      return !!said;
    },
  });
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

/**
 * The details and done steps of a full time: their heading and body. Before joining, the form;
 * once joined, the position, what was joined and what comes next. widget.js lends its party
 * control, its summary and its guest's fields.
 */
export function waitlist(
  h: typeof H,
  w: Widget,
  Party: FunctionComponent<Props>,
  Summary: typeof SummaryComponent,
  Guest: FunctionComponent<Props>,
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
          void join(m);
        },
      },
      h('p', null, T.intro),
      h(Summary, { w, experience: exp.name, startTime: slot.startTime }),
      // The booking form's step asked the party with the questions, when there is one.
      !m.hasForm.value && h(Party, { w }),
      h(Guest, { w }),
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
