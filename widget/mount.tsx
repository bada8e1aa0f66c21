/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import type { Locale } from '../shared/index.js';
// In this order the bundle compresses best (measured: 61 bytes less than by kind).
import { effect, signal } from './state/signals.js';
import { h, render } from 'preact';
import { createBookingModel } from './state/booking.js';
import { chunk } from './chunks.js';
import { chooseLanguage } from './i18n/index.js';
import { App } from './components/App.js';
import { moneyLines, totalLine } from './components/money-lines.js';
import { en } from './i18n/en.js';
import { adoptStyles, DIALOG_CSS } from './styles/sheet.js';
import { createFormats } from './i18n/format.js';
import { loadTexts } from './i18n/load.js';
import { createApi } from './api.js';
import type { ComponentChildren } from 'preact';
import type { FormsChunk } from './forms.js';
import type { Widget } from './components/widget.js';
import type { Messages } from './i18n/messages.js';

/** Options of `Outing.mount(el, options)`; each falls back to the element's `data-*` attribute. */
export interface MountOptions {
  /** Publishable key `opk_…` (`data-key`). */
  key?: string;
  /** Pins one experience `exp_…` (`data-experience`); without it the org's experiences are listed. */
  experience?: string;
  /**
   * BCP 47 language tag (`data-locale`); default: the browser's languages, else the organization's
   * default language (docs/languages.md).
   */
  locale?: string;
  /** Outing's origin (`data-api`); default: where widget.js was loaded from. */
  api?: string;
  /**
   * `gift-voucher` (`data-mode`), the one mode there is: sells the organization's gift vouchers
   * instead of booking (widget/gift/chunk.ts). Any mode is taken for it; none books.
   */
  mode?: string;
}

export interface Mounted {
  unmount(): void;
}

/**
 * The booking number and whether the guest paid, when Stripe sent the guest back to this page
 * (docs/payments.md). The parameters leave the address at once: a reload then shows a fresh
 * widget, and a second widget on the page does not take the same return.
 */
function takeReturn(): [string, boolean] | null {
  // The page's own address always parses.
  const url = new URL(location.href);
  const q = url.searchParams;
  const number = q.get('outing_booking');
  const status = q.get('outing_status');
  if (!number || !status) return null;
  q.delete('outing_booking');
  q.delete('outing_status');
  try {
    history.replaceState(history.state, '', url);
  } catch {
    // A sandboxed page may refuse: the return is still shown, it just stays in the address.
  }
  return [number, status === 'success'];
}

/** Logs what went wrong, never throwing into the host page. */
export const report = (error: unknown): void => console.error('[Outing]', error);

/**
 * Renders a booking widget into `host`'s open shadow root. With `close`, the Book-now dialog
 * (main.tsx): the widget inside a modal <dialog> named after the experience, with a Close button;
 * Close and Escape call `close`. `outing:booked` is dispatched on `target`.
 */
export function mountWidget(host: HTMLElement, options: MountOptions, defaultApi: string, close?: () => void, target: EventTarget = host): Mounted {
  // Each option wins over its attribute.
  const given: MountOptions = { ...host.dataset, ...options };
  const { key, experience: experienceId, locale } = given;
  // The gift-voucher mode is a chunk of its own: a widget that books never loads it.
  const gift = given.mode;
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  adoptStyles(root);
  if (close) adoptStyles(root, DIALOG_CSS);

  // `data-locale`, else the browser's languages; if none is one of ours, the org's default
  // (`defaultLocale` of the first experience answer), which the texts then wait for.
  let { locale: tag, code } = chooseLanguage([locale, ...navigator.languages], '');
  // English is at hand; another language's texts come from widget.js's server, alongside the first calls.
  const texts = signal<Messages | null>(null);
  const speak = (c: string): unknown =>
    c === 'en'
      ? (texts.value = en)
      : loadTexts(defaultApi, c).then(
          (loaded) => (texts.value = loaded),
          (e: unknown) => {
            report(e);
            tag = 'en';
            texts.value = en;
          },
        );
  if (code) speak(code);
  const controller = new AbortController();
  const api = createApi({ base: given.api ?? defaultApi, key: key ?? '', signal: controller.signal });
  const model = createBookingModel({
    api,
    experienceId: experienceId || undefined,
    onBooked: (detail) => target.dispatchEvent(new CustomEvent('outing:booked', { detail, bubbles: true, composed: true })),
    // The languages are the contract's: the primary subtag names one.
    lang: () => tag.slice(0, 2) as Locale,
  });
  let w: Widget | undefined;
  const back = key ? takeReturn() : null;

  // The whole widget re-renders whenever a signal it read changes: it is small, and this keeps
  // components plain functions of the model, with no hooks or signals integration in the bundle.
  let shownStep = model.step.peek();
  const stop = effect(() => {
    const t = texts.value;
    if (!code) {
      // The first answer says the org's default; a widget that gets none (a failure, the gift mode) speaks English.
      const d = (model.experience.value ?? model.experiences.value?.[0])?.defaultLocale;
      if (d || model.experiences.value || model.trouble.value || gift) speak((tag = code = d ?? 'en'));
    }
    // No step in a language the guest did not ask for: nothing but a busy box until the texts arrive.
    if (!t) return void render(<div class="outing" aria-busy="true" />, root);
    w ??= { model, t, fmt: createFormats(tag), locale: tag, origin: defaultApi, css: adoptStyles, lines: moneyLines, total: totalLine };
    // Tab on the dialog's last control goes to its first, Shift+Tab on the first to the last: a
    // modal dialog keeps the page out of reach, but not the browser's own controls.
    const trap = (e: KeyboardEvent): void => {
      // Every element that Tab reaches (the widget renders no <a> without href).
      const all = [...root.querySelectorAll<HTMLButtonElement>('*')].filter((el) => el.tabIndex >= 0 && !el.disabled);
      const i = e.shiftKey ? 0 : all.length - 1;
      if (e.key == 'Tab' && root.activeElement == all[i]) {
        e.preventDefault();
        all[all.length - 1 - i]!.focus();
      }
    };
    // In the dialog, `view` inside it; the dialog opens modal the first time.
    const show = (view: ComponentChildren): void => {
      render(
        close ? (
          <dialog class="outing" lang={tag} aria-label={(experienceId && model.experience.value?.name) || t.widget} onCancel={close} onKeyDown={trap}>
            <button type="button" class="link" onClick={close}>
              {t.close}
            </button>
            {view}
          </dialog>
        ) : (
          view
        ),
        root,
      );
      const d = root.firstChild as HTMLDialogElement;
      if (close && !d.open) d.showModal();
    };
    try {
      // The gift-voucher mode shows nothing until its chunk is here.
      show(gift ? chunk<FormsChunk>(w, 'forms')?.gift(h, w, api, back) : <App w={w} />);
    } catch (e) {
      report(e);
      // The stylesheet's root class: the message must not take its look from the host page either.
      show(
        <p class="outing" role="alert">
          {t.errors.server}
        </p>,
      );
      return;
    }
    // Focus follows the guest: to the new step's heading, else where an action asked for it.
    const step = model.step.peek();
    const focusId = model.takeFocusRequest();
    const target = step !== shownStep ? 'heading' : focusId;
    shownStep = step;
    if (target) root.getElementById(target)?.focus();
  });

  // The gift-voucher chunk starts on its own (and takes a buyer's return from paying).
  if (!gift) {
    if (back) model.resume(...back);
    else if (key) void model.start();
    else model.trouble.value = { problem: 'setup' };
  }

  return {
    unmount() {
      stop();
      model.dispose();
      controller.abort();
      render(null, root);
    },
  };
}
