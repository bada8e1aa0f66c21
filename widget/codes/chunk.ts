/**
 * The "Have a code?" box (part of widget/forms.js, widget/forms.ts) of the details step. widget.js shows only the button and
 * loads forms.js as a classic script when the guest presses it (widget/chunks.ts), so a guest who
 * never does (and books an experience without questions or extras) loads none of it. One box takes both kinds of code: one shaped `GV-XXXX-XXXX-XXXX` is
 * a gift voucher's (`voucherCode`), anything else a promo code (`promoCode`). Each is checked with
 * `POST /public/v1/quote` before the guest books; the quote gives the discount and the voucher's
 * part, and the parts changing (party, tickets, extras, a price, a code removed) asks again.
 *
 * The chunk takes over the booking's hook (`session.form`, which the booking form's chunk sets when
 * there is one, and which it wraps): the booking then sends the codes, its lines gain the discount,
 * and its total, which widget.js shows and sends as `expectedTotal`, is after the discount and
 * before the voucher (the server compares the same). It renders with the `h` of widget.js (no
 * Preact of its own) and adds no global.
 */
import type { ComponentChildren, h as H } from 'preact';
import type { PublicBookingCreate, Quote } from '../../shared/index.js';
import type { BookingLines } from '../../shared/lines.js';
import type { Widget } from '../components/widget.js';
import type { BookingModel } from '../state/booking.js';
import { codeTexts } from './texts.js';
import type { CodeState } from './types.js';

export type { CodeState } from './types.js';

type Hook = NonNullable<BookingModel['session']['form']>;
type Codes = Pick<PublicBookingCreate, 'promoCode' | 'voucherCode'>;

/** A gift voucher's code (GIFT_VOUCHER_CODE of shared/schemas/promotions.ts: zod stays out of the widget). */
const VOUCHER = /^GV(-[0-9A-HJKMNP-TV-Z]{4}){3}$/;
const cents = (money: string): number => Math.round(+money * 100);

/** Per widget (by its session): the hook installed, the one it wraps, the last parts asked about, the latest ask. */
const hooks = new WeakMap<object, { mine: Hook; inner: Hook | undefined; asked?: string; n: number }>();

const stateOf = (m: BookingModel): CodeState => m.form.value.code ?? {};
const set = (m: BookingModel, change: CodeState): void => {
  m.form.value = { ...m.form.value, code: { ...stateOf(m), ...change } };
};
const codesOf = ({ promo, voucher }: CodeState): Codes => ({ ...(promo && { promoCode: promo }), ...(voucher && { voucherCode: voucher }) });

/** What a quote prices: the party and the extras (a quote refuses answers), and the codes. */
function parts(m: BookingModel, inner: Hook | undefined, codes: Codes) {
  const tickets = m.tickets.value;
  return {
    experienceId: m.experience.value!.id,
    ...(tickets.length ? { tickets: tickets.filter((c) => c.quantity).map((c) => ({ categoryId: c.id, quantity: c.quantity })) } : { participants: m.participants.value }),
    ...(inner && { extras: inner.body().extras }),
    ...codes,
  };
}

/**
 * The last quote, when it priced the parts and the codes as they are now, at the experience's
 * prices as the widget holds them (a 409 PRICE_CHANGED brings fresh ones): else a new one is on its way.
 */
const fresh = (m: BookingModel, inner: Hook | undefined): Quote | undefined => {
  const st = stateOf(m);
  return st.key === JSON.stringify(parts(m, inner, codesOf(st))) && st.exp === m.experience.value ? st.quote : undefined;
};

/**
 * Asks the quote for `codes` and the parts as they are now. `tried` (the guest pressed Apply) is
 * the kind just typed, `P` or `V`: taken, it shows; refused, the reason is said at the box, with
 * focus, and the codes taken before stay. Without it (the parts changed), a code refused now is
 * dropped and its reason said; any other failure keeps the box as it was (the server checks the
 * booking again in any case).
 */
async function ask(m: BookingModel, codes: Codes, tried?: string): Promise<void> {
  const own = hooks.get(m.session)!;
  const n = ++own.n;
  const body = parts(m, own.inner, codes);
  const exp = m.experience.value!;
  const key = (own.asked = JSON.stringify(body));
  try {
    const quote = await m.api.post<Quote>('quote', { ...body, startTime: m.slot.value?.startTime });
    if (n !== own.n) return;
    set(m, { promo: codes.promoCode, voucher: codes.voucherCode, quote, key, exp, error: undefined, ...(tried && { text: '', said: 'applied' }) });
  } catch (e) {
    const { code, details, status } = e as { code?: string; details?: { reason?: string }; status?: number };
    const kind = code === 'PROMO_CODE_INVALID' ? 'P' : code === 'VOUCHER_INVALID' ? 'V' : '';
    if (n !== own.n || !(tried || kind)) return;
    // A code taken before and refused now is dropped; the one just tried was never taken.
    if (kind && kind !== tried) set(m, kind === 'P' ? { promo: undefined } : { voucher: undefined });
    m.session.focusId = 'code';
    set(m, {
      // A code the server will not read (a promo code shaped like a voucher's) is one it does not know.
      error: kind ? `${kind}.${details?.reason}` : status === 429 ? 'RATE_LIMITED' : status === 400 ? `${tried}.NOT_FOUND` : 'NETWORK',
      said: undefined,
    });
  }
}

/** The box, the codes taken each with "Remove", the voucher's part and what is left to pay. */
export function codes(h: typeof H, w: Widget) {
  const { model: m, fmt } = w;
  const exp = m.experience.value;
  if (!exp) return null;
  const T = codeTexts(w.t);
  const st = stateOf(m);
  const money = (c: number) => fmt.money(c / 100, exp.currency);

  // Take over the booking's hook (again, after the booking form's step has set its own).
  let own = hooks.get(m.session);
  if (!own || m.session.form !== own.mine) {
    const inner = m.session.form;
    const mine: Hook = {
      body: () => ({ ...inner?.body(), ...codesOf(stateOf(m)) }),
      // A code refused when booking (used up meanwhile): dropped, its reason said at the box.
      refused: (e) => {
        const { code = '', details } = e as { code?: string; details?: { reason?: string } };
        if (!/^(PROMO_CODE|VOUCHER)_INVALID$/.test(code)) return !!inner?.refused(e);
        m.session.focusId = 'code';
        set(m, { [code[0] === 'P' ? 'promo' : 'voucher']: undefined, error: `${code[0]}.${details?.reason}`, said: undefined });
        return true;
      },
      // The quote's lines as widget.js lists them, the discount named, the voucher shown by the box;
      // none while a fresh quote is on its way (widget.js then shows its own, without the discount).
      lines: () => {
        const q = fresh(m, inner);
        if (!q) return inner?.lines() ?? ({} as BookingLines);
        const lines = q.lines
          .filter((l) => l.kind !== 'VOUCHER')
          .map((l) => ({ ...l, ref: null, name: l.kind === 'DISCOUNT' ? w.t.discount.replace('{0}', l.label) : l.label, amount: cents(l.amount) }));
        return { lines, subtotal: cents(q.subtotal), discount: cents(q.discount), total: cents(q.total), voucherAmount: cents(q.voucherAmount), due: cents(q.amountDue) };
      },
    };
    hooks.set(m.session, (own = { n: own?.n ?? 0, mine, inner }));
    m.session.form = mine;
    // The first time the box shows, the guest is taken into it; with a code taken, the total
    // widget.js keeps (a computed value) is made again through this hook.
    if (!st.key && !st.error) m.session.focusId = 'code';
    else set(m, {});
  }

  const taken = codesOf(st);
  const q = fresh(m, own.inner);
  if ((st.promo || st.voucher) && !q && own.asked !== JSON.stringify(parts(m, own.inner, taken))) void ask(m, taken);

  const apply = () => {
    const text = (st.text ?? '').trim().toUpperCase();
    const tried = VOUCHER.test(text) ? 'V' : 'P';
    if (text) return void ask(m, { ...taken, [tried === 'V' ? 'voucherCode' : 'promoCode']: text }, tried);
    m.session.focusId = 'code';
    set(m, { error: 'EMPTY', said: undefined });
  };
  const mask = st.voucher && `GV-\u2022\u2022\u2022\u2022-\u2022\u2022\u2022\u2022-${st.voucher.slice(-4)}`;
  const remove = (name: string | undefined, change: CodeState): [string, ComponentChildren] | undefined =>
    name ? [
      name,
      h('button', {
        type: 'button',
        class: 'link',
        onClick: () => {
          m.session.focusId = 'code';
          set(m, { ...change, error: undefined, said: 'removed' });
        },
      }, T.remove.replace('{0}', name)),
    ] : undefined;
  const [who, why] = (st.error ?? '').split('.');
  const words = T as unknown as Record<string, string>;
  const said = why ? `${words[who!]} ${T.refused[why] ?? T.refused['NOT_FOUND']}` : who ? T.refused[who] : st.said && words[st.said];

  return h(
    'div',
    null,
    // What the voucher pays and what is left, said as it changes.
    h('div', { 'aria-live': 'polite' }, q && cents(q.voucherAmount) > 0 && [
      w.lines([[w.t.voucher.replace('{0}', mask!), money(-cents(q.voucherAmount))]]),
      w.total(w.t.due, money(cents(q.amountDue))),
    ]),
    w.lines([remove(st.promo, { promo: undefined }), remove(mask, { voucher: undefined })]),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'code' }, T.label),
      h('input', {
        id: 'code',
        autoComplete: 'off',
        maxLength: 64,
        value: st.text ?? '',
        'aria-invalid': !!st.error,
        'aria-describedby': said ? 'code-said' : undefined,
        onInput: (e: Event) => set(m, { text: (e.currentTarget as HTMLInputElement).value, error: undefined }),
        // Enter applies the code: it must not send the booking's form around the box.
        onKeyDown: (e: KeyboardEvent) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            apply();
          }
        },
      }),
      h('p', { id: 'code-said', class: st.error ? 'field-error' : 'hint', 'aria-live': 'polite' }, said),
    ),
    h('button', { type: 'button', onClick: apply }, T.apply),
  );
}

export type CodesChunk = typeof codes;
