import { waitFor } from '@testing-library/preact';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeOuting } from './test-helpers/fake-outing.js';

const attributes = 'data-key="opk_test" data-experience="exp_walk" data-api="https://outing.test" data-locale="en"';
let globalsBefore: Set<string>;

beforeAll(async () => {
  vi.stubGlobal('fetch', fakeOuting().fetch);
  globalsBefore = new Set(Object.getOwnPropertyNames(window));
  document.body.innerHTML = `<main><div id="first" data-outing ${attributes}></div></main>`;
  await import('./main.js');
});

afterAll(() => {
  vi.unstubAllGlobals();
});

const headingOf = (el: Element) => el.shadowRoot?.querySelector('h2')?.textContent;

describe('widget.js on a host page', () => {
  it('mounts into the [data-outing] elements already on the page, in an open shadow root', async () => {
    const first = document.getElementById('first')!;
    expect(first.shadowRoot).not.toBeNull();
    await waitFor(() => expect(headingOf(first)).toBe('Choose a date'));
    // The host's light DOM is left alone.
    expect(first.children).toHaveLength(0);
  });

  it('adds window.Outing and no other global', () => {
    const added = Object.getOwnPropertyNames(window).filter((name) => !globalsBefore.has(name));
    expect(added).toEqual(['Outing']);
    expect(typeof window.Outing?.mount).toBe('function');
  });

  it('mounts elements added later, and unmounts ones removed from the page', async () => {
    const wrapper = document.createElement('section');
    wrapper.innerHTML = `<div data-outing ${attributes}></div>`;
    document.body.append(wrapper);
    const later = wrapper.firstElementChild!;
    await waitFor(() => expect(headingOf(later)).toBe('Choose a date'));
    wrapper.remove();
    await waitFor(() => expect(later.shadowRoot!.childNodes).toHaveLength(0));
  });

  it('keeps a moved element mounted', async () => {
    const el = document.getElementById('first')!;
    document.body.append(el);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(headingOf(el)).toBe('Choose a date');
  });

  it('mounts by hand with options over the data attributes, and unmounts', async () => {
    const el = document.createElement('div');
    document.body.append(el);
    const handle = window.Outing!.mount(el, { key: 'opk_test', api: 'https://outing.test', locale: 'pt', experience: 'exp_walk' });
    await waitFor(() => expect(headingOf(el)).toBe('Escolha uma data'));
    handle.unmount();
    expect(el.shadowRoot!.childNodes).toHaveLength(0);
  });

  it('never throws into the host page, even when called with nonsense', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => window.Outing!.mount(null as unknown as HTMLElement).unmount()).not.toThrow();
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});

describe('Book-now buttons and Outing.open()', () => {
  const dialog = () => document.querySelector('outing-dialog')?.shadowRoot?.querySelector('dialog');

  it('makes each [data-outing-button] a trigger, now and when added later, leaving its content alone', async () => {
    const section = document.createElement('section');
    section.innerHTML = `<button id="b" data-outing-button ${attributes}>Book now</button>
      <a id="a" href="/tours" data-outing-button ${attributes}>Book</a>
      <span id="s" data-outing-button ${attributes}>Book <b>now</b></span>`;
    document.body.append(section);
    const [b, a, s] = [document.getElementById('b')!, document.getElementById('a')!, document.getElementById('s')!];
    await waitFor(() => expect(s.getAttribute('aria-haspopup')).toBe('dialog'));
    expect([b.getAttribute('aria-haspopup'), b.getAttribute('role'), b.getAttribute('tabindex')]).toEqual(['dialog', null, null]);
    expect([a.getAttribute('aria-haspopup'), a.getAttribute('role'), a.getAttribute('tabindex')]).toEqual(['dialog', null, null]);
    expect([s.getAttribute('role'), s.getAttribute('tabindex')]).toEqual(['button', '0']);
    expect(s.innerHTML).toBe('Book <b>now</b>');
    section.remove();
  });

  it('opens the widget in a modal dialog on click, Enter or Space; Close closes it and gives focus back', async () => {
    document.body.insertAdjacentHTML('beforeend', `<span id="t" data-outing-button ${attributes}>Book now</span>`);
    const t = document.getElementById('t')!;
    await waitFor(() => expect(t.getAttribute('role')).toBe('button'));
    for (const open of [() => t.click(), () => t.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }))]) {
      t.focus();
      open();
      await waitFor(() => expect(dialog()?.open).toBe(true));
      expect(document.querySelectorAll('outing-dialog')).toHaveLength(1);
      expect(document.documentElement.style.overflow).toBe('hidden');
      const close = [...dialog()!.querySelectorAll('button')].find((el) => el.textContent === 'Close')!;
      await waitFor(() => expect(dialog()!.getAttribute('aria-label')).toBe('Alfama at Dawn'));
      close.click();
      expect(document.querySelector('outing-dialog')).toBeNull();
      expect(document.documentElement.style.overflow).toBe('');
      expect(document.activeElement).toBe(t);
    }
    const space = new KeyboardEvent('keydown', { key: ' ', bubbles: true, cancelable: true });
    t.dispatchEvent(space);
    expect(space.defaultPrevented).toBe(true);
    await waitFor(() => expect(dialog()?.open).toBe(true));
    dialog()!.dispatchEvent(new Event('cancel'));
    expect(document.querySelector('outing-dialog')).toBeNull();
    t.remove();
  });

  it('keeps a link where it is', async () => {
    document.body.insertAdjacentHTML('beforeend', `<a id="l" href="#elsewhere" data-outing-button ${attributes}>Book</a>`);
    const l = document.getElementById('l')!;
    await waitFor(() => expect(l.getAttribute('aria-haspopup')).toBe('dialog'));
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    l.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    await waitFor(() => expect(dialog()?.open).toBe(true));
    window.Outing!.open().close();
    expect(document.querySelector('outing-dialog')).toBeNull();
    l.remove();
  });

  it('Outing.open() shows one dialog at a time, named after the widget without an experience, in its language, and returns close()', async () => {
    const before = document.createElement('button');
    document.body.append(before);
    before.focus();
    const options = { key: 'opk_test', api: 'https://outing.test', locale: 'pt' };
    window.Outing!.open({ ...options, experience: 'exp_walk' });
    const handle = window.Outing!.open(options);
    expect(document.querySelectorAll('outing-dialog')).toHaveLength(1);
    await waitFor(() => expect(dialog()?.getAttribute('aria-label')).toBe('Reservar online'));
    expect(dialog()!.getAttribute('lang')).toBe('pt');
    expect([...dialog()!.querySelectorAll('button')].some((el) => el.textContent === 'Fechar')).toBe(true);
    handle.close();
    expect(document.querySelector('outing-dialog')).toBeNull();
    expect(document.activeElement).toBe(before);
    before.remove();
  });
});
