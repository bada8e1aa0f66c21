/**
 * Part of widget/forms.js (widget/forms.ts): the widget's gift-voucher mode (`data-mode="gift-voucher"`). It shows the
 * organization's amounts (`GET /public/v1/gift-vouchers`) and buys one: the amount, the buyer, whom
 * it is for and a message → `POST /public/v1/gift-vouchers` → the payment page. The server checks
 * the fields: a 400's details show beside them, focus on the first. widget.js loads forms.js as a
 * classic script in that mode (widget/chunks.ts); it renders with widget.js's `h` (no Preact of its own). Its
 * state is the booking model's `form` signal, which nothing else uses in this mode: a change
 * re-renders the widget. Every byte counts against widget/size-budget.test.ts.
 */
import type { ComponentChildren, h as H } from 'preact';
import type { ApiError, ChunkApi, OutingApi } from '../api.js';
import type { Widget } from '../components/widget.js';
import type { GiftVoucherCheckout, GiftVoucherOffer } from '../../shared/index.js';
import { en, type GiftTexts } from './texts.js';

interface GiftState {
  /** The org's offer, once it came (null: it could not be had, `note` says why). */
  offer?: GiftVoucherOffer | null;
  /** A problem beside each field, by the field's name. */
  problems?: Record<string, string>;
  /** Said above the form: a refusal that names no field, or a failed call. */
  note?: string;
  busy?: boolean;
}

/**
 * The mode's styles beside widget.js's, which style inputs and text areas as text boxes: a radio
 * its own size. Adopted by the widget's shadow root as a constructed sheet, which a strict CSP
 * allows as it does widget.js's own.
 */
const CSS = '[type=radio]{width:auto;min-height:0;margin:0 .5em 0 0}';

/** The models whose offer was asked for: once per mount. */
const asked = new WeakSet<object>();

/** The fields after the amounts, in the form's order; the first two are required. */
const FIELDS = ['buyerName', 'buyerEmail', 'recipientName', 'recipientEmail', 'message'] as const;

/** The mode's whole widget. `back` is a buyer's return from the payment page: [purchase id, paid]. */
export function giftVoucher(h: typeof H, w: Widget, api: OutingApi & ChunkApi, back: [string, boolean] | null): ComponentChildren {
  const { model: m, t, fmt, locale } = w;
  const T: GiftTexts = (t as { giftVoucher?: GiftTexts }).giftVoucher ?? en;
  const state = m.form as unknown as { value: GiftState };
  const { offer, problems = {}, note, busy } = state.value;
  const set = (next: GiftState): void => void (state.value = { ...state.value, ...next });
  /** A failed call, in the words the widget uses elsewhere (no key: the widget is not set up). */
  const failed = (e: ApiError): string =>
    e.code == 'PAYMENTS_NOT_CONFIGURED'
      ? T.notSold
      : t.errors[({ NETWORK: 'network', RATE_LIMITED: 'rateLimited', UNAUTHORIZED: 'setup' } as const)[e.code] ?? 'server'];
  // Asked once per mount; the answer re-renders. A key is `opk_` and letters and digits: nothing to escape.
  if (!asked.has(m)) {
    asked.add(m);
    api.call<GiftVoucherOffer>(`gift-vouchers?key=${api.key}`, Boolean).then(
      (offer) => set({ offer }),
      (e: ApiError) => set({ offer: null, note: failed(e) }),
    );
  }

  const submit = (e: Event): void => {
    e.preventDefault();
    if (busy) return;
    const body: Record<string, string> = {};
    new FormData(e.currentTarget as HTMLFormElement).forEach((v, k) => {
      if ((v = String(v).trim())) body[k] = v;
    });
    set({ busy: true });
    // widget.js's POST, which sends the page's full address: the payment page sends the buyer back to it.
    api
      .post<GiftVoucherCheckout>('gift-vouchers', body)
      .then(
        (r) => location.assign(r.checkoutUrl),
        (e: ApiError) => {
          // A 400's details name the fields (`amount`, `buyerEmail`…): each problem beside its field, focus on the first.
          const found: Record<string, string> = {};
          for (const d of [e.details].flat()) {
            const k = String((d as { path?: unknown }).path);
            found[k] = k == 'amount' ? T.chooseAmount : k.endsWith('Email') ? t.invalidEmail : t.required;
          }
          const first = ['amount', ...FIELDS].find((k) => found[k]);
          m.session.focusId = first ?? null;
          // 409 PAYMENTS_NOT_CONFIGURED: no longer sold since the form showed; the form goes.
          set({ busy: false, problems: found, note: first ? undefined : failed(e), offer: e.code == 'PAYMENTS_NOT_CONFIGURED' ? null : offer });
        },
      );
  };

  const describedBy = (k: string) => problems[k] && `${k}-error`;
  const error = (k: string) => problems[k] && h('p', { id: `${k}-error`, class: 'field-error' }, problems[k]);

  return h(
    'div',
    { class: 'outing', lang: locale, ref: (el: Element | null) => w.css(el, CSS) },
    h('h2', { id: 'heading', tabIndex: -1 }, T.title),
    back?.[1]
      ? h('p', null, T.sent)
      : [
          back && h('p', { class: 'error' }, t.returned.fail),
          note && h('p', { class: 'error', role: 'alert' }, note),
          offer === undefined && h('p', { class: 'loading' }, t.loading),
          offer &&
            (offer.available
              ? h(
                  'form',
                  { noValidate: true, onSubmit: submit },
                  h(
                    'fieldset',
                    { 'aria-describedby': describedBy('amount') },
                    h('legend', null, T.amount, ' *'),
                    // Each radio inside its label; the first is `amount`, where focus goes for a problem.
                    offer.amounts.map((a, i) =>
                      h(
                        'label',
                        null,
                        h('input', { type: 'radio', id: i ? undefined : 'amount', name: 'amount', value: a, required: true }),
                        ` ${fmt.money(+a, offer.currency)}`,
                      ),
                    ),
                    error('amount'),
                  ),
                  FIELDS.map((k, i) =>
                    h(
                      'div',
                      { class: 'field' },
                      h('label', { for: k }, T[k], i < 2 && ' *'),
                      h(i > 3 ? 'textarea' : 'input', {
                        id: k,
                        name: k,
                        // The message is a text area; the others are inputs, the e-mails (1 and 3) of type email.
                        [i > 3 ? 'rows' : 'type']: i > 3 ? 3 : i % 2 ? 'email' : 'text',
                        required: i < 2,
                        maxLength: i > 3 ? 500 : 254,
                        autoComplete: ['name', 'email'][i],
                        'aria-invalid': !!problems[k],
                        'aria-describedby': describedBy(k),
                      }),
                      error(k),
                    ),
                  ),
                  h('button', { type: 'submit', class: 'primary', 'aria-disabled': !!busy }, T.buy),
                )
              : h('p', null, T.notSold)),
        ],
  );
}

export type GiftVoucherChunk = typeof giftVoucher;
