/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { adoptBrandColor } from './sheet.js';
import { h, render } from 'preact';
import { effect } from '../state/signals.js';
import { createManageApi } from './api.js';
import { ManagePage } from './ManagePage.js';
import { offerTexts } from './OfferView.js';
import { createManageModel } from './model.js';
import type { ManageModel } from './model.js';

export interface ManageMountOptions {
  /** The token from the address's fragment; empty: the link is broken. */
  token: string;
  /** Outing's origin. */
  base: string;
  /** The browser's languages. */
  browser: readonly string[];
  now?: () => Date;
  /** Leaves for a payment page (tests watch it). */
  navigate?: (url: string) => void;
}

export interface MountedManage {
  model: ManageModel;
  unmount(): void;
}

// A token is base64url; anything else cannot be one, and is not sent at all.
const TOKEN = /^[A-Za-z0-9_-]{16,200}$/;

/** Renders the manage page into `el`, keeps the document's language and title in step, and loads the booking. */
export function mountManage(el: HTMLElement, { token, base, browser, now, navigate }: ManageMountOptions): MountedManage {
  const controller = new AbortController();
  const api = TOKEN.test(token) ? createManageApi({ base, token, signal: controller.signal }) : null;
  const model = createManageModel({ api, browser, now, ...(navigate ? { navigate } : {}) });

  // Focus follows the guest: to a new step's heading when the calendar moves on, else where an action asked.
  let shownStep: string | null = null;
  const stop = effect(() => {
    const lang = model.language.value;
    try {
      render(<ManagePage model={model} />, el);
    } catch (e) {
      console.error('[Outing]', e);
      render(
        <p class="outing" role="alert">
          {lang.m.problems.server}
        </p>,
        el,
      );
      return;
    }
    document.documentElement.lang = lang.tag;
    const offer = model.offer.value;
    const title = model.broken.value ? lang.m.brokenTitle : offer ? offerTexts(lang).titles[offer.entry.status] : lang.m.title;
    const name = model.managed.value?.organization.name ?? offer?.organization.name;
    adoptBrandColor(document, model.managed.value?.organization.brandColor);
    // A form with problems says so first, as the GOV.UK pattern does.
    const problem = model.fieldErrors.value.length ? `${lang.m.errorPrefix} ` : '';
    document.title = `${problem}${name ? `${title} · ${name}` : title}`;

    const picker = model.picker.value;
    const step = picker ? `${picker.step.value}` : null;
    const moved = step !== null && shownStep !== null && step !== shownStep;
    shownStep = step;
    const target = model.takeFocusRequest() ?? (moved ? 'manage-step' : picker?.takeFocusRequest());
    if (target) document.getElementById(target)?.focus();
  });

  void model.load();
  return {
    model,
    unmount() {
      stop();
      model.dispose();
      controller.abort();
      render(null, el);
    },
  };
}
